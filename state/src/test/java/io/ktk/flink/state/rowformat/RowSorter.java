package io.ktk.flink.state.rowformat;

import static io.ktk.flink.state.rowformat.FixedEncoding.LONG_BE;

import java.util.Arrays;

/**
 * Sorts row numbers by their encoded rows, stably, with no object per row: a most significant
 * digit radix sort over 8-byte words of the rows.
 *
 * <p>For a range of row numbers that agree on their first {@code depth} bytes, the word at
 * {@code depth} of each row is gathered once into a {@code long} array (big-endian, zero padded
 * past the row's end). The range is sorted by these keys with a least significant byte first
 * radix sort that counts and moves only the bytes that differ between keys (small ranges use
 * insertion sort on the keys), and every run of equal keys goes on at {@code depth + 8}. Ranges
 * of a few rows are insertion sorted on the row bytes directly.
 *
 * <p>Encoded rows are prefix-free (no row is a proper prefix of another), so when a row of a run
 * of equal words ends within that word, all rows of the run are equal, and the run is done.
 */
final class RowSorter {
  private static final int ROWS_INSERTION_SORT_BELOW = 16;
  private static final int KEYS_INSERTION_SORT_BELOW = 64;

  private final byte[] data;
  private final int[] offsets;
  private long[] keys;
  private long[] keyBuffer;
  private int[] indexBuffer;
  private final int[] counts = new int[8 * 256];
  private final int[] varyingBytes = new int[8];

  RowSorter(byte[] data, int[] offsets) {
    this.data = data;
    this.offsets = offsets;
  }

  /** Sorts {@code indices} (row numbers) in place by row, keeping equal rows in their order. */
  void sort(int[] indices) {
    int n = indices.length;
    if (n >= ROWS_INSERTION_SORT_BELOW) {
      keys = new long[n];
      keyBuffer = new long[n];
      indexBuffer = new int[n];
    }
    sortRange(indices, 0, n, 0);
    keys = null;
    keyBuffer = null;
    indexBuffer = null;
  }

  /** Sorts rows that agree on their first {@code depth} bytes. */
  private void sortRange(int[] idx, int lo, int hi, int depth) {
    if (hi - lo < ROWS_INSERTION_SORT_BELOW) {
      insertionSortRows(idx, lo, hi, depth);
      return;
    }
    long first = word(idx[lo], depth);
    long diff = 0;
    for (int k = lo; k < hi; k++) {
      long key = word(idx[k], depth);
      keys[k] = key;
      diff |= key ^ first;
    }
    if (diff == 0) {
      sortRun(idx, lo, hi, depth); // one run: every row has the same word here
      return;
    }
    if (hi - lo < KEYS_INSERTION_SORT_BELOW) {
      insertionSortKeys(idx, lo, hi);
    } else {
      radixSort(idx, lo, hi, diff);
    }
    int runStart = lo;
    for (int k = lo + 1; k <= hi; k++) {
      if (k == hi || keys[k] != keys[runStart]) {
        if (k - runStart > 1) {
          sortRun(idx, runStart, k, depth);
        }
        runStart = k;
      }
    }
  }

  /** Sorts rows that agree on their first {@code depth + 8} bytes (zero padded). */
  private void sortRun(int[] idx, int lo, int hi, int depth) {
    int row = idx[lo];
    if (offsets[row + 1] - offsets[row] > depth + 8) {
      sortRange(idx, lo, hi, depth + 8);
    }
  }

  /** The big-endian word of the row's bytes at {@code depth}, zero padded past its end. */
  private long word(int row, int depth) {
    int start = offsets[row] + depth;
    int remaining = offsets[row + 1] - start;
    if (remaining >= 8) {
      return (long) LONG_BE.get(data, start);
    }
    if (remaining <= 0) {
      return 0;
    }
    if (start + 8 <= data.length) {
      return (long) LONG_BE.get(data, start) & (-1L << ((8 - remaining) << 3));
    }
    long word = 0;
    for (int i = 0; i < remaining; i++) {
      word |= (data[start + i] & 0xFFL) << (56 - (i << 3));
    }
    return word;
  }

  /**
   * Stable LSD radix sort of {@code keys[lo, hi)} (unsigned), moving the row numbers along; only
   * the bytes set in {@code diff} (where some keys differ) are counted and moved.
   */
  private void radixSort(int[] idx, int lo, int hi, long diff) {
    int[] bytes = varyingBytes;
    int byteCount = 0;
    for (int b = 0; b < 8; b++) {
      if (((diff >>> (b << 3)) & 0xFF) != 0) {
        bytes[byteCount++] = b;
      }
    }
    for (int i = 0; i < byteCount; i++) {
      Arrays.fill(counts, bytes[i] << 8, (bytes[i] + 1) << 8, 0);
    }
    for (int k = lo; k < hi; k++) {
      long key = keys[k];
      for (int i = 0; i < byteCount; i++) {
        int b = bytes[i];
        counts[(b << 8) | (int) ((key >>> (b << 3)) & 0xFF)]++;
      }
    }
    long[] srcKeys = keys;
    long[] dstKeys = keyBuffer;
    int[] srcIdx = idx;
    int[] dstIdx = indexBuffer;
    for (int i = 0; i < byteCount; i++) {
      int base = bytes[i] << 8;
      int shift = bytes[i] << 3;
      int sum = lo;
      for (int v = 0; v < 256; v++) {
        int c = counts[base | v];
        counts[base | v] = sum;
        sum += c;
      }
      for (int k = lo; k < hi; k++) {
        long key = srcKeys[k];
        int d = counts[base | (int) ((key >>> shift) & 0xFF)]++;
        dstKeys[d] = key;
        dstIdx[d] = srcIdx[k];
      }
      long[] swapKeys = srcKeys;
      srcKeys = dstKeys;
      dstKeys = swapKeys;
      int[] swapIdx = srcIdx;
      srcIdx = dstIdx;
      dstIdx = swapIdx;
    }
    if (srcKeys != keys) {
      System.arraycopy(srcKeys, lo, keys, lo, hi - lo);
      System.arraycopy(srcIdx, lo, idx, lo, hi - lo);
    }
  }

  private void insertionSortKeys(int[] idx, int lo, int hi) {
    for (int i = lo + 1; i < hi; i++) {
      long key = keys[i];
      int row = idx[i];
      int j = i - 1;
      while (j >= lo && Long.compareUnsigned(keys[j], key) > 0) {
        keys[j + 1] = keys[j];
        idx[j + 1] = idx[j];
        j--;
      }
      keys[j + 1] = key;
      idx[j + 1] = row;
    }
  }

  private void insertionSortRows(int[] idx, int lo, int hi, int depth) {
    for (int i = lo + 1; i < hi; i++) {
      int row = idx[i];
      int j = i - 1;
      while (j >= lo && compare(idx[j], row, depth) > 0) {
        idx[j + 1] = idx[j];
        j--;
      }
      idx[j + 1] = row;
    }
  }

  private int compare(int a, int b, int depth) {
    int aStart = Math.min(offsets[a] + depth, offsets[a + 1]);
    int bStart = Math.min(offsets[b] + depth, offsets[b + 1]);
    return Arrays.compareUnsigned(data, aStart, offsets[a + 1], data, bStart, offsets[b + 1]);
  }
}
