package io.ktk.flink.source.engine;

import java.util.Arrays;

/**
 * A stable sort of rows by their {@link CellKeys}: a least-significant-digit radix sort, column by
 * column from the last, over only the bits in which the keys differ (so a million keys of a
 * dense range take two passes). Stable, so rows with equal keys keep their order, which is the
 * order they were written in; de-duplication relies on it.
 */
final class KeySort {
  private int[] rows;
  private int[] spareRows;
  private long[] words;
  private long[] spareWords;
  /** What the words of the last column sorted by lack (its minimum, or 0 when it was in order already). */
  private long wordsBase;
  private final int[] counts = new int[1 << 16];

  /** Sorts the first {@code count} entries of {@code rows} in place by the keys of those rows. */
  void sort(CellKeys keys, int[] rows, int count) {
    this.rows = rows;
    spareRows = grow(spareRows, count);
    words = grow(words, count);
    spareWords = grow(spareWords, count);
    for (int c = keys.columnCount() - 1; c >= 0; c--) {
      CellKeys.Column column = keys.column(c);
      if (column.second() != null) {
        sortBy(column.second(), count);
      }
      sortBy(column.first(), count);
      if (column.nulls() != null) {
        nullsFirst(column.nulls(), count);
      }
    }
    if (this.rows != rows) {
      System.arraycopy(this.rows, 0, rows, 0, count);
      spareRows = this.rows;
    }
    this.rows = null;
  }

  /**
   * Sorts by one array of longs: nothing to do when the rows are in order already; otherwise the
   * keys are taken relative to their minimum, and only the bits in which they can differ are
   * sorted, in as few passes as the row count makes worthwhile (a pass of 2^16 buckets pays only
   * for many rows).
   */
  private void sortBy(long[] values, int count) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    boolean sorted = true;
    long previous = Long.MIN_VALUE;
    for (int i = 0; i < count; i++) {
      long value = values[rows[i]];
      words[i] = value;
      sorted &= value >= previous;
      previous = value;
      min = Math.min(min, value);
      max = Math.max(max, value);
    }
    wordsBase = 0;
    if (sorted) {
      return;
    }
    wordsBase = min;
    // max - min is the range as an unsigned number, even when it exceeds Long.MAX_VALUE
    int bits = 64 - Long.numberOfLeadingZeros(max - min);
    for (int i = 0; i < count; i++) {
      words[i] -= min;
    }
    int widest = count >= 1 << 16 ? 16 : count >= 1 << 12 ? 11 : 8;
    int passes = (bits + widest - 1) / widest;
    int digit = (bits + passes - 1) / passes;
    for (int pass = 0; pass < passes; pass++) {
      pass(pass * digit, digit, count);
    }
  }

  private void pass(int shift, int digit, int count) {
    int buckets = 1 << digit;
    int mask = buckets - 1;
    int[] starts = counts;
    long[] from = words;
    int[] fromRows = rows;
    long[] to = spareWords;
    int[] toRows = spareRows;
    Arrays.fill(starts, 0, buckets, 0);
    for (int i = 0; i < count; i++) {
      starts[(int) (from[i] >>> shift) & mask]++;
    }
    int sum = 0;
    for (int b = 0; b < buckets; b++) {
      int n = starts[b];
      starts[b] = sum;
      sum += n;
    }
    for (int i = 0; i < count; i++) {
      long word = from[i];
      int at = starts[(int) (word >>> shift) & mask]++;
      to[at] = word;
      toRows[at] = fromRows[i];
    }
    words = to;
    spareWords = from;
    rows = toRows;
    spareRows = fromRows;
  }

  /**
   * After {@link #sort} by keys of one long per row ({@link CellKeys#singleWords}): copies the
   * first {@code count} keys in sorted order into {@code into}, read in sequence from the sort's
   * own words instead of gathered by row.
   */
  void sortedWords(long[] into, int count) {
    for (int i = 0; i < count; i++) {
      into[i] = words[i] + wordsBase;
    }
  }

  private void nullsFirst(boolean[] nulls, int count) {
    int to = 0;
    for (int i = 0; i < count; i++) {
      if (nulls[rows[i]]) {
        spareRows[to++] = rows[i];
      }
    }
    for (int i = 0; i < count; i++) {
      if (!nulls[rows[i]]) {
        spareRows[to++] = rows[i];
      }
    }
    int[] r = rows;
    rows = spareRows;
    spareRows = r;
  }

  private static int[] grow(int[] array, int count) {
    return array == null || array.length < count ? new int[count] : array;
  }

  private static long[] grow(long[] array, int count) {
    return array == null || array.length < count ? new long[count] : array;
  }
}
