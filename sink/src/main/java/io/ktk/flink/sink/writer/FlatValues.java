package io.ktk.flink.sink.writer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;

/**
 * The values of a flat column, as the buffer holds them (present values only, in row order),
 * and what the encoder needs of them by index.
 */
abstract class FlatValues {
  /** Bytes of values {@code from .. to} in PLAIN encoding. */
  abstract long plainSize(int from, int to);

  /** Values {@code from .. to} in PLAIN encoding: little-endian numbers, or a 4-byte length before each binary. */
  abstract byte[] plain(int from, int to);

  abstract void updateStatistics(int from, int to, Statistics<?> statistics);

  /** The bits a dictionary tells values apart by (numbers: their raw bits; binaries: a hash). */
  abstract long bits(int value);

  abstract boolean same(int a, int b);

  /** The values at {@code indexes[0 .. count)}, in that order. */
  abstract FlatValues select(int[] indexes, int count);

  static final class Longs extends FlatValues {
    private final long[] values;

    Longs(long[] values) {
      this.values = values;
    }

    @Override
    long plainSize(int from, int to) {
      return 8L * (to - from);
    }

    @Override
    byte[] plain(int from, int to) {
      byte[] out = new byte[8 * (to - from)];
      ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(values, from, to - from);
      return out;
    }

    @Override
    void updateStatistics(int from, int to, Statistics<?> statistics) {
      for (int i = from; i < to; i++) {
        statistics.updateStats(values[i]);
      }
    }

    @Override
    long bits(int value) {
      return values[value];
    }

    @Override
    boolean same(int a, int b) {
      return values[a] == values[b];
    }

    @Override
    FlatValues select(int[] indexes, int count) {
      long[] selected = new long[count];
      for (int i = 0; i < count; i++) {
        selected[i] = values[indexes[i]];
      }
      return new Longs(selected);
    }
  }

  static final class Doubles extends FlatValues {
    private final double[] values;

    Doubles(double[] values) {
      this.values = values;
    }

    @Override
    long plainSize(int from, int to) {
      return 8L * (to - from);
    }

    @Override
    byte[] plain(int from, int to) {
      byte[] out = new byte[8 * (to - from)];
      ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().put(values, from, to - from);
      return out;
    }

    @Override
    void updateStatistics(int from, int to, Statistics<?> statistics) {
      for (int i = from; i < to; i++) {
        statistics.updateStats(values[i]);
      }
    }

    @Override
    long bits(int value) {
      return Double.doubleToRawLongBits(values[value]);
    }

    @Override
    boolean same(int a, int b) {
      return bits(a) == bits(b);
    }

    @Override
    FlatValues select(int[] indexes, int count) {
      double[] selected = new double[count];
      for (int i = 0; i < count; i++) {
        selected[i] = values[indexes[i]];
      }
      return new Doubles(selected);
    }
  }

  static final class Ints extends FlatValues {
    private final int[] values;

    Ints(int[] values) {
      this.values = values;
    }

    @Override
    long plainSize(int from, int to) {
      return 4L * (to - from);
    }

    @Override
    byte[] plain(int from, int to) {
      byte[] out = new byte[4 * (to - from)];
      ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(values, from, to - from);
      return out;
    }

    @Override
    void updateStatistics(int from, int to, Statistics<?> statistics) {
      for (int i = from; i < to; i++) {
        statistics.updateStats(values[i]);
      }
    }

    @Override
    long bits(int value) {
      return values[value];
    }

    @Override
    boolean same(int a, int b) {
      return values[a] == values[b];
    }

    @Override
    FlatValues select(int[] indexes, int count) {
      int[] selected = new int[count];
      for (int i = 0; i < count; i++) {
        selected[i] = values[indexes[i]];
      }
      return new Ints(selected);
    }
  }

  static final class Floats extends FlatValues {
    private final float[] values;

    Floats(float[] values) {
      this.values = values;
    }

    @Override
    long plainSize(int from, int to) {
      return 4L * (to - from);
    }

    @Override
    byte[] plain(int from, int to) {
      byte[] out = new byte[4 * (to - from)];
      ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(values, from, to - from);
      return out;
    }

    @Override
    void updateStatistics(int from, int to, Statistics<?> statistics) {
      for (int i = from; i < to; i++) {
        statistics.updateStats(values[i]);
      }
    }

    @Override
    long bits(int value) {
      return Float.floatToRawIntBits(values[value]);
    }

    @Override
    boolean same(int a, int b) {
      return bits(a) == bits(b);
    }

    @Override
    FlatValues select(int[] indexes, int count) {
      float[] selected = new float[count];
      for (int i = 0; i < count; i++) {
        selected[i] = values[indexes[i]];
      }
      return new Floats(selected);
    }
  }

  /** Value {@code i} is {@code data[ends[i - 1] .. ends[i])}. */
  static final class Bytes extends FlatValues {
    private final byte[] data;
    private final int[] ends;

    Bytes(byte[] data, int[] ends) {
      this.data = data;
      this.ends = ends;
    }

    private int start(int value) {
      return value == 0 ? 0 : ends[value - 1];
    }

    @Override
    long plainSize(int from, int to) {
      return to == from ? 0 : 4L * (to - from) + ends[to - 1] - start(from);
    }

    @Override
    byte[] plain(int from, int to) {
      byte[] out = new byte[(int) plainSize(from, to)];
      int pos = 0;
      for (int v = from; v < to; v++) {
        int start = start(v);
        int length = ends[v] - start;
        out[pos] = (byte) length;
        out[pos + 1] = (byte) (length >>> 8);
        out[pos + 2] = (byte) (length >>> 16);
        out[pos + 3] = (byte) (length >>> 24);
        System.arraycopy(data, start, out, pos + 4, length);
        pos += 4 + length;
      }
      return out;
    }

    @Override
    void updateStatistics(int from, int to, Statistics<?> statistics) {
      for (int i = from; i < to; i++) {
        int start = start(i);
        statistics.updateStats(Binary.fromConstantByteArray(data, start, ends[i] - start));
      }
    }

    /** FNV-1a over the bytes: a collision merely costs a comparison. */
    @Override
    long bits(int value) {
      long h = 0xcbf29ce484222325L;
      for (int i = start(value); i < ends[value]; i++) {
        h = (h ^ (data[i] & 0xff)) * 0x100000001b3L;
      }
      return h;
    }

    @Override
    boolean same(int a, int b) {
      return Arrays.equals(data, start(a), ends[a], data, start(b), ends[b]);
    }

    @Override
    FlatValues select(int[] indexes, int count) {
      int[] selectedEnds = new int[count];
      int total = 0;
      for (int i = 0; i < count; i++) {
        total += ends[indexes[i]] - start(indexes[i]);
        selectedEnds[i] = total;
      }
      byte[] selected = new byte[total];
      for (int i = 0; i < count; i++) {
        int start = start(indexes[i]);
        System.arraycopy(data, start, selected, i == 0 ? 0 : selectedEnds[i - 1], ends[indexes[i]] - start);
      }
      return new Bytes(selected, selectedEnds);
    }
  }
}
