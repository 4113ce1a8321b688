package io.ktk.flink.sink.writer;

import java.util.Arrays;
import org.apache.flink.table.data.RowData;
import org.apache.parquet.column.ColumnWriter;

/** Column buffers of fixed-width Parquet types: INT32, INT64, FLOAT, DOUBLE, BOOLEAN. */
final class FixedWidthColumns {
  private FixedWidthColumns() {}

  /** Reads an int-valued column of a row. */
  @FunctionalInterface
  interface IntReader {
    int read(RowData row, int pos);
  }

  /** Reads a long-valued column of a row. */
  @FunctionalInterface
  interface LongReader {
    long read(RowData row, int pos);
  }

  /** Parquet INT32: TINYINT, SMALLINT, INT, DATE (days). */
  static final class Ints extends ColumnBuffer {
    private final IntReader reader;
    private int[] values = new int[0];

    Ints(Account account, IntReader reader) {
      super(account);
      this.reader = reader;
    }

    @Override
    void appendValue(RowData row, int pos) {
      if (count == values.length) {
        int capacity = grownValues(values.length);
        account.grew(4L * (capacity - values.length));
        values = Arrays.copyOf(values, capacity);
      }
      values[count] = reader.read(row, pos);
    }

    @Override
    void write(ColumnWriter writer, int index, int rep, int def) {
      writer.write(values[index], rep, def);
    }

    @Override
    boolean mostlyDistinct() {
      DistinctSample sample = new DistinctSample(count);
      for (int i = 0; i < count && !sample.full(); i++) {
        sample.offer(values[i]);
      }
      return sample.mostlyDistinct();
    }

    @Override
    FlatValues flatValues() {
      return new FlatValues.Ints(values);
    }

    @Override
    long usedBytes() {
      return 4L * count;
    }

    @Override
    long valueBytes() {
      return 4L * values.length;
    }

    @Override
    void releaseValues() {
      values = new int[0];
    }
  }

  /** Parquet INT64: BIGINT, TIME (microseconds), TIMESTAMP and TIMESTAMP_LTZ (microseconds). */
  static final class Longs extends ColumnBuffer {
    private final LongReader reader;
    private long[] values = new long[0];

    Longs(Account account, LongReader reader) {
      super(account);
      this.reader = reader;
    }

    @Override
    void appendValue(RowData row, int pos) {
      if (count == values.length) {
        int capacity = grownValues(values.length);
        account.grew(8L * (capacity - values.length));
        values = Arrays.copyOf(values, capacity);
      }
      values[count] = reader.read(row, pos);
    }

    @Override
    void write(ColumnWriter writer, int index, int rep, int def) {
      writer.write(values[index], rep, def);
    }

    @Override
    boolean mostlyDistinct() {
      DistinctSample sample = new DistinctSample(count);
      for (int i = 0; i < count && !sample.full(); i++) {
        sample.offer(values[i]);
      }
      return sample.mostlyDistinct();
    }

    @Override
    FlatValues flatValues() {
      return new FlatValues.Longs(values);
    }

    @Override
    long usedBytes() {
      return 8L * count;
    }

    @Override
    long valueBytes() {
      return 8L * values.length;
    }

    @Override
    void releaseValues() {
      values = new long[0];
    }
  }

  /** Parquet FLOAT. */
  static final class Floats extends ColumnBuffer {
    private float[] values = new float[0];

    Floats(Account account) {
      super(account);
    }

    @Override
    void appendValue(RowData row, int pos) {
      if (count == values.length) {
        int capacity = grownValues(values.length);
        account.grew(4L * (capacity - values.length));
        values = Arrays.copyOf(values, capacity);
      }
      values[count] = row.getFloat(pos);
    }

    @Override
    void write(ColumnWriter writer, int index, int rep, int def) {
      writer.write(values[index], rep, def);
    }

    @Override
    boolean mostlyDistinct() {
      DistinctSample sample = new DistinctSample(count);
      for (int i = 0; i < count && !sample.full(); i++) {
        sample.offer(Float.floatToRawIntBits(values[i]));
      }
      return sample.mostlyDistinct();
    }

    @Override
    FlatValues flatValues() {
      return new FlatValues.Floats(values);
    }

    @Override
    long usedBytes() {
      return 4L * count;
    }

    @Override
    long valueBytes() {
      return 4L * values.length;
    }

    @Override
    void releaseValues() {
      values = new float[0];
    }
  }

  /** Parquet DOUBLE. */
  static final class Doubles extends ColumnBuffer {
    private double[] values = new double[0];

    Doubles(Account account) {
      super(account);
    }

    @Override
    void appendValue(RowData row, int pos) {
      if (count == values.length) {
        int capacity = grownValues(values.length);
        account.grew(8L * (capacity - values.length));
        values = Arrays.copyOf(values, capacity);
      }
      values[count] = row.getDouble(pos);
    }

    @Override
    void write(ColumnWriter writer, int index, int rep, int def) {
      writer.write(values[index], rep, def);
    }

    @Override
    boolean mostlyDistinct() {
      DistinctSample sample = new DistinctSample(count);
      for (int i = 0; i < count && !sample.full(); i++) {
        sample.offer(Double.doubleToRawLongBits(values[i]));
      }
      return sample.mostlyDistinct();
    }

    @Override
    FlatValues flatValues() {
      return new FlatValues.Doubles(values);
    }

    @Override
    long usedBytes() {
      return 8L * count;
    }

    @Override
    long valueBytes() {
      return 8L * values.length;
    }

    @Override
    void releaseValues() {
      values = new double[0];
    }
  }

  /** Parquet BOOLEAN, a byte per value. */
  static final class Booleans extends ColumnBuffer {
    private byte[] values = new byte[0];

    Booleans(Account account) {
      super(account);
    }

    @Override
    void appendValue(RowData row, int pos) {
      if (count == values.length) {
        int capacity = grownValues(values.length);
        account.grew(capacity - values.length);
        values = Arrays.copyOf(values, capacity);
      }
      values[count] = row.getBoolean(pos) ? (byte) 1 : (byte) 0;
    }

    @Override
    void write(ColumnWriter writer, int index, int rep, int def) {
      writer.write(values[index] != 0, rep, def);
    }

    @Override
    long valueBytes() {
      return values.length;
    }

    @Override
    void releaseValues() {
      values = new byte[0];
    }
  }
}
