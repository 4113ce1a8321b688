package io.ktk.flink.state.rowformat;

import static java.util.Objects.checkIndex;
import static java.util.Objects.requireNonNull;

import java.util.Arrays;

/**
 * A batch of encoded rows: one contiguous {@code byte[]} and the offsets of the rows in it (row
 * {@code i} is {@code data()[start(i) .. end(i))}). Rows are compared, hashed, viewed and sorted
 * in place, with no object per row.
 *
 * <p>Comparing two rows of an ordered converter orders them as the columns do; comparing rows of
 * different converters is meaningless. A batch is immutable: {@link #data()} is exposed for
 * zero-copy consumers (hash maps, writers) and must not be modified.
 */
public final class Rows {
  private final RowConverter converter;
  private final byte[] data;
  private final int[] offsets;
  private final int count;

  Rows(RowConverter converter, byte[] data, int[] offsets, int count) {
    this.converter = converter;
    this.data = data;
    this.offsets = offsets;
    this.count = count;
  }

  /** The converter that encoded these rows (null for the internal rows of nested values). */
  RowConverter converter() {
    return converter;
  }

  public int size() {
    return count;
  }

  /** All encoded bytes; not a copy, do not modify. */
  public byte[] data() {
    return data;
  }

  public int start(int row) {
    checkIndex(row, count);
    return offsets[row];
  }

  public int end(int row) {
    checkIndex(row, count);
    return offsets[row + 1];
  }

  public int length(int row) {
    return end(row) - offsets[row];
  }

  /** Total encoded bytes of all rows. */
  public int byteSize() {
    return offsets[count];
  }

  /** A view of row {@code row} (no copy). */
  public RowKey row(int row) {
    return new RowKey(data, start(row), offsets[row + 1]);
  }

  /** Compares rows {@code i} and {@code j} of this batch: negative, zero or positive. */
  public int compare(int i, int j) {
    return Arrays.compareUnsigned(data, start(i), offsets[i + 1], data, start(j), offsets[j + 1]);
  }

  /** Compares row {@code i} of {@code a} with row {@code j} of {@code b}, as for a merge join. */
  public static int compare(Rows a, int i, Rows b, int j) {
    return Arrays.compareUnsigned(
        a.data, a.start(i), a.offsets[i + 1], b.data, b.start(j), b.offsets[j + 1]);
  }

  public boolean rowEquals(int i, int j) {
    return Arrays.equals(data, start(i), offsets[i + 1], data, start(j), offsets[j + 1]);
  }

  /** {@link RowKey#hash} of row {@code row}. */
  public long hash(int row) {
    return RowKey.hash(data, start(row), offsets[row + 1]);
  }

  /**
   * The row numbers {@code 0 .. size()-1} in ascending row order; equal rows keep their order.
   * Costs about {@code 24 * size()} bytes of temporary memory.
   */
  public int[] sortedIndices() {
    int[] indices = new int[count];
    for (int i = 0; i < count; i++) {
      indices[i] = i;
    }
    sort(indices);
    return indices;
  }

  /** Sorts row numbers (any subset, in any order) in place by row; equal rows keep their order. */
  public void sort(int[] indices) {
    requireNonNull(indices, "indices is null");
    for (int index : indices) {
      checkIndex(index, count);
    }
    new RowSorter(data, offsets).sort(indices);
  }

  @Override
  public String toString() {
    return "Rows[" + count + " rows, " + byteSize() + " bytes]";
  }
}
