package io.ktk.flink.source.reader;

import java.util.Arrays;

/**
 * A stable sort of rows by their {@link CellKeys}: a least-significant-digit radix sort, column by
 * column from the last, a byte per pass, skipping the bytes in which all keys agree (so keys of
 * a few million distinct values take three or four passes). Stable, so rows with equal keys keep
 * their order, which is the order they were written in; de-duplication relies on it.
 */
final class KeySort {
  private int[] rows;
  private int[] spareRows;
  private long[] words;
  private long[] spareWords;
  private final int[] counts = new int[256];

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

  private void sortBy(long[] values, int count) {
    long varying = 0;
    long base = count == 0 ? 0 : values[rows[0]];
    for (int i = 0; i < count; i++) {
      long value = values[rows[i]];
      words[i] = value ^ Long.MIN_VALUE;
      varying |= value ^ base;
    }
    for (int shift = 0; shift < 64; shift += 8) {
      if (((varying >>> shift) & 0xFF) != 0) {
        pass(shift, count);
      }
    }
  }

  private void pass(int shift, int count) {
    Arrays.fill(counts, 0);
    for (int i = 0; i < count; i++) {
      counts[(int) (words[i] >>> shift) & 0xFF]++;
    }
    int sum = 0;
    for (int b = 0; b < 256; b++) {
      int n = counts[b];
      counts[b] = sum;
      sum += n;
    }
    for (int i = 0; i < count; i++) {
      long word = words[i];
      int to = counts[(int) (word >>> shift) & 0xFF]++;
      spareWords[to] = word;
      spareRows[to] = rows[i];
    }
    long[] w = words;
    words = spareWords;
    spareWords = w;
    int[] r = rows;
    rows = spareRows;
    spareRows = r;
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
