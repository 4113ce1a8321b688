package io.ktk.flink.sink.writer;

import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;

/**
 * The values of a flat column, as the buffer holds them (present values only, in row order, in
 * {@link ValueBlocks}), and what the encoder needs of them by index.
 */
abstract class FlatValues {
  /** Bytes of values {@code from .. to} in PLAIN encoding. */
  abstract long plainSize(int from, int to);

  /** Values {@code from .. to} in PLAIN encoding: little-endian numbers, or a 4-byte length before each binary. */
  abstract byte[] plain(int from, int to);

  /** The values at {@code indexes[0 .. count)}, in that order, in PLAIN encoding. */
  abstract byte[] plain(int[] indexes, int count);

  abstract void updateStatistics(int from, int to, Statistics<?> statistics);

  /** The bits a dictionary tells values apart by (numbers: their raw bits; binaries: a hash). */
  abstract long bits(int value);

  abstract boolean same(int a, int b);

  /** Whether values with the same {@link #bits} are the same value (numbers), not merely alike (a hash). */
  abstract boolean bitsIdentify();

  /** The fixed-width Parquet types of flat values. */
  enum Kind {
    INT32(4), INT64(8), FLOAT(4), DOUBLE(8);

    final int width;

    Kind(int width) {
      this.width = width;
    }
  }

  /** Numbers, little-endian, {@code kind.width} bytes each: the blocks hold their PLAIN encoding. */
  static final class Fixed extends FlatValues {
    private final ValueBlocks values;
    private final Kind kind;
    private final int width;

    Fixed(ValueBlocks values, Kind kind) {
      this.values = values;
      this.kind = kind;
      this.width = kind.width;
    }

    @Override
    long plainSize(int from, int to) {
      return (long) width * (to - from);
    }

    @Override
    byte[] plain(int from, int to) {
      byte[] out = new byte[width * (to - from)];
      values.copyTo((long) width * from, out, 0, out.length);
      return out;
    }

    @Override
    byte[] plain(int[] indexes, int count) {
      byte[] out = new byte[width * count];
      for (int i = 0; i < count; i++) {
        values.copyTo((long) width * indexes[i], out, i * width, width);
      }
      return out;
    }

    @Override
    void updateStatistics(int from, int to, Statistics<?> statistics) {
      if (from == to) {
        return;
      }
      switch (kind) {
        case INT32 -> {
          // integers order as their values: the extremes are all the statistics need
          int min = Integer.MAX_VALUE;
          int max = Integer.MIN_VALUE;
          for (int i = from; i < to; i++) {
            int value = values.getInt(4L * i);
            min = Math.min(min, value);
            max = Math.max(max, value);
          }
          statistics.updateStats(min);
          statistics.updateStats(max);
        }
        case INT64 -> {
          long min = Long.MAX_VALUE;
          long max = Long.MIN_VALUE;
          for (int i = from; i < to; i++) {
            long value = values.getLong(8L * i);
            min = Math.min(min, value);
            max = Math.max(max, value);
          }
          statistics.updateStats(min);
          statistics.updateStats(max);
        }
        // Parquet's statistics handle NaN and signed zeros their own way: every value goes to them
        case FLOAT -> {
          for (int i = from; i < to; i++) {
            statistics.updateStats(Float.intBitsToFloat(values.getInt(4L * i)));
          }
        }
        case DOUBLE -> {
          for (int i = from; i < to; i++) {
            statistics.updateStats(Double.longBitsToDouble(values.getLong(8L * i)));
          }
        }
        default -> throw new IllegalStateException("Cannot gather statistics of " + kind);
      }
    }

    @Override
    long bits(int value) {
      return width == 8 ? values.getLong(8L * value) : values.getInt(4L * value);
    }

    @Override
    boolean same(int a, int b) {
      return bits(a) == bits(b);
    }

    @Override
    boolean bitsIdentify() {
      return true;
    }
  }

  /** Value {@code i} is the bytes {@code ends[i - 1] .. ends[i]} of {@code data} ({@code ends} as ints). */
  static final class Bytes extends FlatValues {
    private final ValueBlocks data;
    private final ValueBlocks ends;

    Bytes(ValueBlocks data, ValueBlocks ends) {
      this.data = data;
      this.ends = ends;
    }

    private int start(int value) {
      return value == 0 ? 0 : ends.getInt(4L * (value - 1));
    }

    private int end(int value) {
      return ends.getInt(4L * value);
    }

    @Override
    long plainSize(int from, int to) {
      return to == from ? 0 : 4L * (to - from) + end(to - 1) - start(from);
    }

    @Override
    byte[] plain(int from, int to) {
      byte[] out = new byte[(int) plainSize(from, to)];
      int pos = 0;
      int start = start(from);
      for (int v = from; v < to; v++) {
        int end = end(v);
        pos = putValue(out, pos, start, end - start);
        start = end;
      }
      return out;
    }

    @Override
    byte[] plain(int[] indexes, int count) {
      long size = 0;
      for (int i = 0; i < count; i++) {
        size += plainSize(indexes[i], indexes[i] + 1);
      }
      byte[] out = new byte[(int) size];
      int pos = 0;
      for (int i = 0; i < count; i++) {
        int start = start(indexes[i]);
        pos = putValue(out, pos, start, end(indexes[i]) - start);
      }
      return out;
    }

    private int putValue(byte[] out, int pos, int start, int length) {
      out[pos] = (byte) length;
      out[pos + 1] = (byte) (length >>> 8);
      out[pos + 2] = (byte) (length >>> 16);
      out[pos + 3] = (byte) (length >>> 24);
      data.copyTo(start, out, pos + 4, length);
      return pos + 4 + length;
    }

    @Override
    void updateStatistics(int from, int to, Statistics<?> statistics) {
      for (int i = from; i < to; i++) {
        statistics.updateStats(binary(data, start(i), end(i) - start(i)));
      }
    }

    /**
     * A 64-bit hash of the bytes, eight at a time where the value lies in one block (a collision
     * merely costs a comparison).
     */
    @Override
    long bits(int value) {
      int start = start(value);
      int length = end(value) - start;
      if (length > 0 && ValueBlocks.inOneBlock(start, length)) {
        return hash(data.blockOf(start), ValueBlocks.within(start), length);
      }
      byte[] copy = new byte[length];
      data.copyTo(start, copy, 0, length);
      return hash(copy, 0, length);
    }

    static long hash(byte[] bytes, int from, int length) {
      long h = length * 0x9E3779B97F4A7C15L;
      int i = from;
      int end = from + length;
      for (; i + 8 <= end; i += 8) {
        h = Long.rotateLeft(h ^ ((long) ValueBlocks.LONGS.get(bytes, i) * 0xC2B2AE3D27D4EB4FL), 31)
            * 0x9E3779B97F4A7C15L;
      }
      long tail = 0;
      for (int shift = 0; i < end; i++, shift += 8) {
        tail |= (bytes[i] & 0xffL) << shift;
      }
      h = Long.rotateLeft(h ^ (tail * 0xC2B2AE3D27D4EB4FL), 31) * 0x9E3779B97F4A7C15L;
      return h ^ (h >>> 29);
    }

    @Override
    boolean bitsIdentify() {
      return false;
    }

    @Override
    boolean same(int a, int b) {
      int startA = start(a);
      int startB = start(b);
      int length = end(a) - startA;
      if (end(b) - startB != length) {
        return false;
      }
      if (length == 0) {
        return true;
      }
      if (ValueBlocks.inOneBlock(startA, length) && ValueBlocks.inOneBlock(startB, length)) {
        int fromA = ValueBlocks.within(startA);
        int fromB = ValueBlocks.within(startB);
        return java.util.Arrays.equals(data.blockOf(startA), fromA, fromA + length, data.blockOf(startB), fromB,
            fromB + length);
      }
      for (int i = 0; i < length; i++) {
        if (data.getByte(startA + i) != data.getByte(startB + i)) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * Bytes {@code start .. start + length} of {@code data} as a Binary: over the block where they lie
   * in one, else a copy. Valid until the blocks are cleared, after the file is written.
   */
  static Binary binary(ValueBlocks data, long start, int length) {
    if (ValueBlocks.inOneBlock(start, length) && length > 0) {
      return Binary.fromConstantByteArray(data.blockOf(start), ValueBlocks.within(start), length);
    }
    byte[] copy = new byte[length];
    data.copyTo(start, copy, 0, length);
    return Binary.fromConstantByteArray(copy);
  }
}
