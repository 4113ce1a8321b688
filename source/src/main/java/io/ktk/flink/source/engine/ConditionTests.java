package io.ktk.flink.source.engine;

import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.vector.ObjectVector;
import io.ktk.flink.state.vector.TypedVector;

/**
 * Tests one condition on a run of rows of a column vector, clearing the pass flag of the rows that
 * fail: numbers without boxing ({@link OrderedCondition}); typed values (strings, binaries, ...)
 * once per dictionary entry when the vector knows the entries its rows hold ({@link
 * ObjectVector#dictionary()}: one array lookup per row), else once per distinct instance as far as
 * possible, since values read from a Parquet dictionary are shared by the rows that hold them: a
 * small table of the instances tested last, by hash (a string's own, cached; other values'
 * identity hash), answers most rows of a column of few distinct strings with one comparison of
 * references.
 */
final class ConditionTests {
  /** Slots of the table of instances tested; a power of two. */
  private static final int SLOTS = 1024;

  private ConditionTests() {}

  /**
   * @param vector the column's values for the rows, or null when the file lacks the column (all null)
   * @param passes the rows' pass flags, from {@code offset}; only passing rows are tested
   */
  static void apply(TypedCondition condition, TypedVector vector, int count, boolean[] passes, int offset) {
    OrderedCondition ordered = vector == null ? null : OrderedCondition.of(condition, vector);
    if (ordered != null) {
      ordered.apply(vector, count, passes, offset);
      return;
    }
    if (vector == null) {
      boolean nullPasses = condition.test(null);
      for (int row = 0; row < count; row++) {
        passes[offset + row] &= nullPasses;
      }
      return;
    }
    if (vector instanceof ObjectVector objects && objects.dictionary() != null) {
      applyByEntry(condition, objects, count, passes, offset);
      return;
    }
    if (!(vector instanceof ObjectVector)) {
      for (int row = 0; row < count; row++) {
        if (passes[offset + row]) {
          passes[offset + row] = condition.test(vector.get(row));
        }
      }
      return;
    }
    Object[] tested = new Object[SLOTS];
    boolean[] results = new boolean[SLOTS];
    Object nullResult = null; // null: not tested yet
    for (int row = 0; row < count; row++) {
      if (!passes[offset + row]) {
        continue;
      }
      Object value = vector.get(row);
      if (value == null) {
        if (nullResult == null) {
          nullResult = condition.test(null);
        }
        passes[offset + row] = (Boolean) nullResult;
        continue;
      }
      int hash = value instanceof String string ? string.hashCode() : System.identityHashCode(value);
      int slot = (hash * 0x9E3779B9) >>> 22 & (SLOTS - 1);
      if (tested[slot] != value) {
        tested[slot] = value;
        results[slot] = condition.test(value);
      }
      passes[offset + row] = results[slot];
    }
  }

  /** Tests each dictionary entry the rows hold once, and each row by its entry's verdict. */
  private static void applyByEntry(TypedCondition condition, ObjectVector vector, int count, boolean[] passes,
      int offset) {
    Object[] entries = vector.dictionary();
    int[] ids = vector.dictionaryIds();
    // per entry: 0 not tested yet, 1 passes, 2 fails
    byte[] verdicts = new byte[entries.length];
    boolean nullPasses = condition.test(null);
    for (int row = 0; row < count; row++) {
      if (!passes[offset + row]) {
        continue;
      }
      int id = ids[row];
      if (id < 0) {
        passes[offset + row] = nullPasses;
        continue;
      }
      byte verdict = verdicts[id];
      if (verdict == 0) {
        verdict = condition.test(entries[id]) ? (byte) 1 : (byte) 2;
        verdicts[id] = verdict;
      }
      passes[offset + row] = verdict == 1;
    }
  }
}
