package io.ktk.flink.state.types;

import static java.util.Objects.requireNonNull;

/**
 * Kartothek's rule that partition, dimension and index columns may not be null ({@code
 * docs/design.md}, section 3): a null key has no partition directory, no cell and no index entry. A record with a null
 * key is rejected with an {@link InvalidValueException} (or sent to the dead-letter output by
 * the caller), never dropped. NaN is a value, not a null, and passes.
 */
public final class KeyColumns {
  /** Why a column may not hold nulls; used in messages ("is a partition column"). */
  public enum Role {
    PARTITION("a partition"),
    DIMENSION("a dimension"),
    INDEX("an index");

    private final String withArticle;

    Role(String withArticle) {
      this.withArticle = withArticle;
    }

    /** "a partition", "a dimension", "an index". */
    public String withArticle() {
      return withArticle;
    }
  }

  private KeyColumns() {}

  /**
   * Returns {@code value}, or throws {@link InvalidValueException} ("Cannot write to dataset 'd':
   * column 'p' is a partition column and may not be null") when it is null.
   */
  public static <T> T checkNotNull(String dataset, String column, Role role, T value) {
    requireNonNull(role, "role is null");
    if (value == null) {
      throw new InvalidValueException("Cannot write to dataset '" + dataset + "': column '" + column + "' is "
          + role.withArticle() + " column and may not be null");
    }
    return value;
  }
}
