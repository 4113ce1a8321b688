package io.ktk.flink.state.vector;

/**
 * The values of one column for rows {@code 0 .. size() - 1}. {@link #get} returns a row's value
 * in the project's typed-value convention ({@code Long}, {@code Double}, {@code String}, {@code
 * byte[]}, {@code LocalDate}, {@code Instant}, ...; null for a missing value), the same value the
 * row readers return for it.
 *
 * <p>Vectors grow while they are filled and are read-only afterwards by convention; not
 * thread-safe while they grow.
 */
public sealed interface TypedVector permits LongVector, DoubleVector, ObjectVector {
  /** The number of rows. */
  int size();

  /** Whether row {@code row} holds no value. */
  boolean isNull(int row);

  /** The typed value of row {@code row}, or null; boxes primitive values. */
  Object get(int row);

  /**
   * A new vector of the rows {@code rows[0], rows[1], ...} of this one, of the same kind; a row
   * number of -1 gives a null.
   */
  TypedVector gather(int[] rows, int count);

  /** A new empty vector of the same kind (and the same interpretation of its values). */
  TypedVector emptyCopy(int capacity);

  /**
   * Whether the rows of {@code other} can be appended to this vector with {@link #appendFrom}: it
   * is of the same kind and interprets its values the same way.
   */
  boolean canAppend(TypedVector other);

  /** Appends all rows of {@code other}; requires {@link #canAppend}. */
  void appendFrom(TypedVector other);

  /** Appends a null. */
  void appendNull();
}
