package io.ktk.flink.source.dataset;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.query.Condition;
import io.ktk.flink.source.query.ConditionParser;
import io.ktk.flink.source.query.InvalidQueryException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.annotation.PublicEvolving;

/**
 * What a user asks of one plain dataset (not a cube), before it is checked against the dataset:
 * which rows (conditions joined by AND, in the language of cube queries, see {@link
 * ConditionParser}) and which columns in which order. Every row of every file counts: a plain
 * dataset has no dimension columns, so nothing is de-duplicated.
 *
 * <pre>{@code
 * DatasetQuery query = DatasetQuery.builder()
 *     .where("day >= '2024-01-01' and c in (1, 2)")
 *     .columns("day", "c", "s")
 *     .build();
 * }</pre>
 *
 * <p>Serializable (Java serialization), so that a Flink source can carry it.
 *
 * @param conditions conditions joined by AND; empty: all rows
 * @param columns the columns to return, in this order; empty: the partition columns, then the
 *     others by name (the layout of {@code _common_metadata})
 */
@PublicEvolving
public record DatasetQuery(List<Condition> conditions, List<String> columns) implements Serializable {
  private static final long serialVersionUID = 1L;

  public DatasetQuery {
    conditions = List.copyOf(requireNonNull(conditions, "conditions is null"));
    columns = List.copyOf(requireNonNull(columns, "columns is null"));
    Set<String> seen = new HashSet<>();
    for (String name : columns) {
      if (name.isEmpty()) {
        throw new InvalidQueryException("Cannot build query: columns " + columns + " contain an empty name");
      }
      if (!seen.add(name)) {
        throw new InvalidQueryException("Cannot build query: column '" + name + "' appears twice in columns "
            + columns);
      }
    }
  }

  /** All rows and columns. */
  public static DatasetQuery all() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The conditions in the text form, e.g. {@code x == 1 and 0 <= z < 10}; empty without conditions. */
  public String conditionText() {
    return conditions.stream().map(Condition::toString).collect(Collectors.joining(" and "));
  }

  @Override
  public String toString() {
    return "DatasetQuery{where=" + conditionText() + ", columns=" + columns + "}";
  }

  /** Collects the parts of a {@link DatasetQuery}; each method adds to what was given before. */
  public static final class Builder {
    private final List<Condition> conditions = new ArrayList<>();
    private final List<String> columns = new ArrayList<>();

    private Builder() {}

    /**
     * Adds the conditions of a text such as {@code x == 1 and y in (1, 2)}; null or blank adds none.
     *
     * @throws InvalidQueryException when the text does not parse
     */
    public Builder where(String text) {
      conditions.addAll(ConditionParser.parse(text));
      return this;
    }

    public Builder where(Condition... conditions) {
      return where(Arrays.asList(conditions));
    }

    public Builder where(Collection<Condition> conditions) {
      conditions.forEach(condition -> this.conditions.add(requireNonNull(condition, "condition is null")));
      return this;
    }

    public Builder columns(String... columns) {
      return columns(Arrays.asList(columns));
    }

    public Builder columns(Collection<String> columns) {
      this.columns.addAll(columns);
      return this;
    }

    public DatasetQuery build() {
      return new DatasetQuery(conditions, columns);
    }
  }
}
