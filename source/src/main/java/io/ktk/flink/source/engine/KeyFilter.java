package io.ktk.flink.source.engine;

import io.ktk.flink.state.vector.LongType;
import io.ktk.flink.state.vector.LongVector;
import io.ktk.flink.state.vector.TypedVector;

/**
 * A semi-join filter on one key column, built from a restricted (inner-joined) dataset's rows that
 * pass its conditions in one partition: a cell of another dataset whose value of the column none of
 * those rows has can join no kept row of the restricted dataset, so the inner join drops it, and its
 * rows can be dropped as soon as the column is read, before anything else of them is decoded. The
 * passing rows are a superset of the kept ones (a passing row may be overwritten), so the filter
 * only ever keeps too much, never too little; the join decides.
 *
 * <p>Only columns read as longs of an exact kind (integers, dates, timestamps) are filtered;
 * timestamps compare as nanoseconds, so files in different units agree. Nulls are values of a key
 * like any other (a null matches a null).
 */
final class KeyFilter {
  private final String column;
  private final long[] table;
  private final boolean[] used;
  private final int mask;
  private final int distinct;
  private final boolean containsNull;

  private KeyFilter(String column, long[] table, boolean[] used, int distinct, boolean containsNull) {
    this.column = column;
    this.table = table;
    this.used = used;
    this.mask = table.length - 1;
    this.distinct = distinct;
    this.containsNull = containsNull;
  }

  /** The key column filtered. */
  String column() {
    return column;
  }

  /** How many distinct values pass (a filter of more values drops more rows of a dense key). */
  int distinct() {
    return distinct;
  }

  /**
   * The filter of {@code column}'s values in the rows of {@code vector} whose {@code passes} flag is
   * set (the first {@code rows}), or null when the column cannot be filtered (not longs of an exact
   * kind, or a timestamp beyond what nanoseconds hold).
   */
  static KeyFilter of(String column, TypedVector vector, boolean[] passes, int rows) {
    if (!(vector instanceof LongVector longs) || !filterable(longs.type())) {
      return null;
    }
    int passing = 0;
    for (int row = 0; row < rows; row++) {
      passing += passes[row] ? 1 : 0;
    }
    int capacity = Integer.highestOneBit(Math.max(16, passing * 2 - 1)) << 1;
    long[] table = new long[capacity];
    boolean[] used = new boolean[capacity];
    int distinct = 0;
    boolean containsNull = false;
    for (int row = 0; row < rows; row++) {
      if (!passes[row]) {
        continue;
      }
      if (longs.isNull(row)) {
        containsNull = true;
        continue;
      }
      long value;
      try {
        value = canonical(longs.type(), longs.value(row));
      } catch (ArithmeticException e) {
        return null;
      }
      int slot = slot(value, capacity - 1);
      while (used[slot] && table[slot] != value) {
        slot = (slot + 1) & (capacity - 1);
      }
      if (!used[slot]) {
        used[slot] = true;
        table[slot] = value;
        distinct++;
      }
    }
    return new KeyFilter(column, table, used, distinct, containsNull);
  }

  /**
   * Clears the {@code passes} flag of the rows of {@code vector} (this column in a row group of
   * another dataset) whose value no passing row of the restricted dataset has; a vector of another
   * kind is left alone (its rows are kept).
   */
  void apply(TypedVector vector, int count, boolean[] passes) {
    if (!(vector instanceof LongVector longs) || !filterable(longs.type())) {
      return;
    }
    LongType type = longs.type();
    long[] values = longs.values();
    boolean nulls = longs.hasNulls();
    for (int row = 0; row < count; row++) {
      if (!passes[row]) {
        continue;
      }
      if (nulls && longs.isNull(row)) {
        passes[row] = containsNull;
        continue;
      }
      long value;
      try {
        value = canonical(type, values[row]);
      } catch (ArithmeticException e) {
        continue; // beyond what the filter holds: the join decides
      }
      passes[row] = contains(value);
    }
  }

  private boolean contains(long value) {
    int slot = slot(value, mask);
    while (used[slot]) {
      if (table[slot] == value) {
        return true;
      }
      slot = (slot + 1) & mask;
    }
    return false;
  }

  private static int slot(long value, int mask) {
    long mixed = value * 0x9E3779B97F4A7C15L;
    return (int) (mixed ^ (mixed >>> 32)) & mask;
  }

  private static boolean filterable(LongType type) {
    return type.kind() == LongType.Kind.INTEGER || type.kind() == LongType.Kind.DATE
        || type.kind() == LongType.Kind.TIMESTAMP;
  }

  /** The value as compared: timestamps in nanoseconds (exact, or an {@link ArithmeticException}). */
  private static long canonical(LongType type, long value) {
    return type.kind() == LongType.Kind.TIMESTAMP ? Math.multiplyExact(value, type.nanosPerUnit()) : value;
  }
}
