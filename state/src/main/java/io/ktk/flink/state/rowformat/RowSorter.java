package io.ktk.flink.state.rowformat;

import static io.ktk.flink.state.rowformat.FixedEncoding.LONG_BE;

import java.util.Arrays;

/**
 * Sorts row indices by their encoded rows, stably, without an object per row: a most significant
 * digit radix sort over 8-byte words. At each depth the rows of a range get the big-endian word at
 * that depth as a {@code long} key (zero padded past the end of a row); the range is sorted by key
 * with a least significant byte radix sort that skips the bytes every key shares; every run of
 * equal keys is then sorted at the next depth. Small ranges use insertion sort on the bytes.
 *
 * <p>Encoded rows are prefix-free (no row is a proper prefix of another), so a run of equal
 * keys in which some row ends is a run of equal rows; a comparison merge sort handles that run
 * anyway, which costs one comparison per row when the rows are indeed equal.
 */
final class RowSorter {
  private static final int INSERTION_SORT_BELOW = 24;

  private final byte[] data;
  private final int[] offsets;
  private long[] keys;
  private long[] keysBuffer;
  private int[] indexBuffer;
  private final int[] counts = new int[8 * 256];

  RowSorter(byte[] data, int[] offsets) {
    this.data = data;
    this.offsets = offsets;
  }

  /** Sorts {@code indices} (row numbers) in place by row, keeping equal rows in their order. */
  void sort(int[] indices) {
    int n = indices.length;
    if (n >= INSERTION_SORT_BELOW) {
      keys = new long[n];
      keysBuffer = new long[n];
      indexBuffer = new int[n];
    }
    sortRange(indices, 0, n, 0);
    keys = null;
    keysBuffer = null;
    indexBuffer = null;
  }

  private void sortRange(int[] idx, int lo, int hi, int depth) {
    if (hi - lo < INSERTION_SORT_BELOW) {
      insertionSort(idx, lo, hi, depth);
      return;
    }
    for (int k = lo; k < hi; k++) {
      keys[k] = word(idx[k], depth);
    }
    radixSort(idx, lo, hi);
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
    for (int k = lo; k < hi; k++) {
      int row = idx[k];
      if (offsets[row + 1] - offsets[row] <= depth + 8) {
        mergeSort(idx, lo, hi, depth);
        return;
      }
    }
    sortRange(idx, lo, hi, depth + 8);
  }

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

  /** Stable LSD radix sort of {@code keys[lo, hi)} (unsigned) carrying the indices along. */
  private void radixSort(int[] idx, int lo, int hi) {
    int n = hi - lo;
    Arrays.fill(counts, 0);
    for (int k = lo; k < hi; k++) {
      long key = keys[k];
      for (int b = 0; b < 8; b++) {
        counts[(b << 8) | (int) ((key >>> (b << 3)) & 0xFF)]++;
      }
    }
    long sample = keys[lo];
    long[] srcKeys = keys;
    long[] dstKeys = keysBuffer;
    int[] srcIdx = idx;
    int[] dstIdx = indexBuffer;
    for (int b = 0; b < 8; b++) {
      int base = b << 8;
      int shift = b << 3;
      if (counts[base | (int) ((sample >>> shift) & 0xFF)] == n) {
        continue; // every key has the same byte here
      }
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
      long[] tk = srcKeys;
      srcKeys = dstKeys;
      dstKeys = tk;
      int[] ti = srcIdx;
      srcIdx = dstIdx;
      dstIdx = ti;
    }
    if (srcKeys != keys) {
      System.arraycopy(srcKeys, lo, keys, lo, n);
      System.arraycopy(srcIdx, lo, idx, lo, n);
    }
  }

  private int compare(int a, int b, int depth) {
    int aStart = Math.min(offsets[a] + depth, offsets[a + 1]);
    int bStart = Math.min(offsets[b] + depth, offsets[b + 1]);
    return Arrays.compareUnsigned(data, aStart, offsets[a + 1], data, bStart, offsets[b + 1]);
  }

  private void insertionSort(int[] idx, int lo, int hi, int depth) {
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

  private void mergeSort(int[] idx, int lo, int hi, int depth) {
    if (hi - lo < INSERTION_SORT_BELOW) {
      insertionSort(idx, lo, hi, depth);
      return;
    }
    int mid = (lo + hi) >>> 1;
    mergeSort(idx, lo, mid, depth);
    mergeSort(idx, mid, hi, depth);
    if (compare(idx[mid - 1], idx[mid], depth) <= 0) {
      return; // already in order: the common case of equal rows
    }
    System.arraycopy(idx, lo, indexBuffer, lo, hi - lo);
    int i = lo;
    int j = mid;
    for (int k = lo; k < hi; k++) {
      if (j >= hi || (i < mid && compare(indexBuffer[i], indexBuffer[j], depth) <= 0)) {
        idx[k] = indexBuffer[i++];
      } else {
        idx[k] = indexBuffer[j++];
      }
    }
  }
}
