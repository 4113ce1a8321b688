package io.ktk.flink.state.vector;

import java.util.Arrays;

/**
 * Which rows of a primitive vector are null. No array exists until the first null, so columns
 * without nulls (most of them) cost nothing for it and are copied and gathered without looking.
 */
final class NullFlags {
  private boolean[] flags;

  /** Whether any row is null. */
  boolean any() {
    return flags != null;
  }

  boolean isNull(int row) {
    return flags != null && flags[row];
  }

  /** Marks {@code row} null; {@code capacity} is the vector's current capacity. */
  void mark(int row, int capacity) {
    if (flags == null) {
      flags = new boolean[capacity];
    }
    flags[row] = true;
  }

  /** Follows the vector's capacity when it grows. */
  void grow(int capacity) {
    if (flags != null) {
      flags = Arrays.copyOf(flags, capacity);
    }
  }

  /** Copies {@code count} rows of {@code from} to rows {@code at ..}; {@code capacity} as for {@link #mark}. */
  void copy(NullFlags from, int count, int at, int capacity) {
    if (from.flags != null) {
      boolean[] source = from.flags;
      if (flags == null) {
        flags = new boolean[capacity];
      }
      System.arraycopy(source, 0, flags, at, count);
    }
  }
}
