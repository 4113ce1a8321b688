package io.ktk.flink.state.rowformat;

import java.util.Arrays;

/**
 * A reusable buffer holding one encoded row, for the per-record path ({@link RowDataEncoder}):
 * encoding into the same buffer again allocates nothing once it has grown to the longest row.
 * The valid bytes are {@code array()[0 .. length())}.
 */
public final class RowBuffer {
  private byte[] bytes;
  private int length;

  public RowBuffer() {
    this(64);
  }

  public RowBuffer(int initialCapacity) {
    if (initialCapacity < 0) {
      throw new IllegalArgumentException(
          "Cannot create row buffer: capacity " + initialCapacity + " is negative");
    }
    this.bytes = new byte[initialCapacity];
  }

  /** The backing array; valid up to {@link #length()}, replaced when the buffer grows. */
  public byte[] array() {
    return bytes;
  }

  public int length() {
    return length;
  }

  public void clear() {
    length = 0;
  }

  public byte[] toByteArray() {
    return Arrays.copyOf(bytes, length);
  }

  /** A view of the current bytes, valid until the buffer is written again. */
  public RowKey view() {
    return new RowKey(bytes, 0, length);
  }

  /** {@link RowKey#hash} of the current bytes. */
  public long hash() {
    return RowKey.hash(bytes, 0, length);
  }

  /** Appends {@code n} zero bytes and returns where they start. */
  int reserve(int n) {
    int start = length;
    int end = start + n;
    if (end < 0) {
      throw new IllegalArgumentException("Cannot encode row: it exceeds 2 GiB");
    }
    if (end > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(end, Math.min(Integer.MAX_VALUE - 8, bytes.length * 2)));
    }
    Arrays.fill(bytes, start, end, (byte) 0);
    length = end;
    return start;
  }

  /** Drops the bytes from {@code newLength} on (after reserving more than was written). */
  void truncate(int newLength) {
    length = newLength;
  }

  @Override
  public String toString() {
    return view().toString();
  }
}
