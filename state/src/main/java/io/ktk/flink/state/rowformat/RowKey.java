package io.ktk.flink.state.rowformat;

import static java.util.Objects.checkFromToIndex;
import static java.util.Objects.requireNonNull;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One encoded row as a view of a byte range: no copy is made, so the view shares the bytes of the
 * {@link RowKeyMap} (or other buffer) it came from. Ordered keys compare like the rows they
 * encode; equal keys mean equal rows for both forms.
 */
public final class RowKey implements Comparable<RowKey> {
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final byte[] bytes;
  private final int from;
  private final int to;

  RowKey(byte[] bytes, int from, int to) {
    this.bytes = bytes;
    this.from = from;
    this.to = to;
  }

  /** A key over a whole array (not copied). */
  public static RowKey wrap(byte[] bytes) {
    requireNonNull(bytes, "bytes is null");
    return new RowKey(bytes, 0, bytes.length);
  }

  public int length() {
    return to - from;
  }

  public byte[] toByteArray() {
    return Arrays.copyOfRange(bytes, from, to);
  }

  @Override
  public int compareTo(RowKey other) {
    return Arrays.compareUnsigned(bytes, from, to, other.bytes, other.from, other.to);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowKey other
        && Arrays.equals(bytes, from, to, other.bytes, other.from, other.to);
  }

  @Override
  public int hashCode() {
    return (int) hash(bytes, from, to);
  }

  /** The bytes in hex, at most 64 of them. */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("RowKey[");
    int end = Math.min(to, from + 64);
    for (int i = from; i < end; i++) {
      s.append(i > from ? " " : "").append(String.format("%02X", bytes[i] & 0xFF));
    }
    return s.append(end < to ? " ...]" : "]").toString();
  }

  /**
   * A 64-bit hash of a byte range (8 bytes per step, then a final avalanche), for hash tables
   * keyed by encoded rows. Not stable across releases: never store it.
   */
  public static long hash(byte[] bytes, int from, int to) {
    checkFromToIndex(from, to, bytes.length);
    long h = 0x9E3779B97F4A7C15L ^ ((long) (to - from) * 0xC2B2AE3D27D4EB4FL);
    int i = from;
    for (; i + 8 <= to; i += 8) {
      h = mixIn(h, (long) LONG_LE.get(bytes, i));
    }
    if (i < to) {
      long tail = 0;
      for (int shift = 0; i < to; i++, shift += 8) {
        tail |= (bytes[i] & 0xFFL) << shift;
      }
      h = mixIn(h, tail);
    }
    // final avalanche (the 64-bit finalizer of MurmurHash3)
    h ^= h >>> 33;
    h *= 0xFF51AFD7ED558CCDL;
    h ^= h >>> 33;
    h *= 0xC4CEB9FE1A85EC53L;
    return h ^ (h >>> 33);
  }

  private static long mixIn(long h, long word) {
    word *= 0x87C37B91114253D5L;
    word = Long.rotateLeft(word, 31);
    word *= 0x4CF5AD432745937FL;
    h ^= word;
    return Long.rotateLeft(h, 27) * 5 + 0x52DCE729;
  }
}
