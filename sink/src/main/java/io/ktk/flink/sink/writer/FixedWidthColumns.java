package io.ktk.flink.sink.writer;

import org.apache.flink.table.data.RowData;
import org.apache.parquet.column.ColumnWriter;

/**
 * Column buffers of fixed-width Parquet types: INT32, INT64, FLOAT, DOUBLE, BOOLEAN, each value
 * little-endian at {@code width * index} in the column's {@link ValueBlocks}.
 */
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

  /** The values of a fixed width in blocks. */
  abstract static class Fixed extends ColumnBuffer {
    protected final ValueBlocks values;
    private final int width;

    Fixed(Account account, BlockPool pool, int width) {
      super(account);
      this.values = new ValueBlocks(pool, account);
      this.width = width;
    }

    /** The offset of the value being appended, made writable. */
    final long nextOffset() {
      long offset = (long) width * count;
      values.ensure(offset + width);
      return offset;
    }

    @Override
    final long usedBytes() {
      return (long) width * count;
    }

    @Override
    final long valueBytes() {
      return values.heldBytes();
    }

    @Override
    final void clearValues() {
      values.clear();
    }

    @Override
    final void releaseValues() {
      values.release((long) width * count);
    }
  }

  /** Parquet INT32: TINYINT, SMALLINT, INT, DATE (days). */
  static final class Ints extends Fixed {
    private final IntReader reader;

    Ints(Account account, BlockPool pool, IntReader reader) {
      super(account, pool, 4);
      this.reader = reader;
    }

    @Override
    void appendValue(RowData row, int pos) {
      values.putInt(nextOffset(), reader.read(row, pos));
    }

    @Override
    void write(ColumnWriter writer, int index, int rep, int def) {
      writer.write(values.getInt(4L * index), rep, def);
    }

    @Override
    boolean mostlyDistinct() {
      DistinctSample sample = new DistinctSample(count);
      for (int i = 0; i < count && !sample.full(); i++) {
        sample.offer(values.getInt(4L * i));
      }
      return sample.mostlyDistinct();
    }

    @Override
    FlatValues flatValues() {
      return new FlatValues.Fixed(values, FlatValues.Kind.INT32);
    }
  }

  /** Parquet INT64: BIGINT, TIME (microseconds), TIMESTAMP and TIMESTAMP_LTZ (microseconds). */
  static final class Longs extends Fixed {
    private final LongReader reader;

    Longs(Account account, BlockPool pool, LongReader reader) {
      super(account, pool, 8);
      this.reader = reader;
    }

    @Override
    void appendValue(RowData row, int pos) {
      values.putLong(nextOffset(), reader.read(row, pos));
    }

    @Override
    void write(ColumnWriter writer, int index, int rep, int def) {
      writer.write(values.getLong(8L * index), rep, def);
    }

    @Override
    boolean mostlyDistinct() {
      DistinctSample sample = new DistinctSample(count);
      for (int i = 0; i < count && !sample.full(); i++) {
        sample.offer(values.getLong(8L * i));
      }
      return sample.mostlyDistinct();
    }

    @Override
    FlatValues flatValues() {
      return new FlatValues.Fixed(values, FlatValues.Kind.INT64);
    }
  }

  /** Parquet FLOAT, as its raw bits. */
  static final class Floats extends Fixed {
    Floats(Account account, BlockPool pool) {
      super(account, pool, 4);
    }

    @Override
    void appendValue(RowData row, int pos) {
      values.putInt(nextOffset(), Float.floatToRawIntBits(row.getFloat(pos)));
    }

    @Override
    void write(ColumnWriter writer, int index, int rep, int def) {
      writer.write(Float.intBitsToFloat(values.getInt(4L * index)), rep, def);
    }

    @Override
    boolean mostlyDistinct() {
      DistinctSample sample = new DistinctSample(count);
      for (int i = 0; i < count && !sample.full(); i++) {
        sample.offer(values.getInt(4L * i));
      }
      return sample.mostlyDistinct();
    }

    @Override
    FlatValues flatValues() {
      return new FlatValues.Fixed(values, FlatValues.Kind.FLOAT);
    }
  }

  /** Parquet DOUBLE, as its raw bits. */
  static final class Doubles extends Fixed {
    Doubles(Account account, BlockPool pool) {
      super(account, pool, 8);
    }

    @Override
    void appendValue(RowData row, int pos) {
      values.putLong(nextOffset(), Double.doubleToRawLongBits(row.getDouble(pos)));
    }

    @Override
    void write(ColumnWriter writer, int index, int rep, int def) {
      writer.write(Double.longBitsToDouble(values.getLong(8L * index)), rep, def);
    }

    @Override
    boolean mostlyDistinct() {
      DistinctSample sample = new DistinctSample(count);
      for (int i = 0; i < count && !sample.full(); i++) {
        sample.offer(values.getLong(8L * i));
      }
      return sample.mostlyDistinct();
    }

    @Override
    FlatValues flatValues() {
      return new FlatValues.Fixed(values, FlatValues.Kind.DOUBLE);
    }
  }

  /** Parquet BOOLEAN, a byte per value. */
  static final class Booleans extends Fixed {
    Booleans(Account account, BlockPool pool) {
      super(account, pool, 1);
    }

    @Override
    void appendValue(RowData row, int pos) {
      values.putByte(nextOffset(), row.getBoolean(pos) ? (byte) 1 : (byte) 0);
    }

    @Override
    void write(ColumnWriter writer, int index, int rep, int def) {
      writer.write(values.getByte(index) != 0, rep, def);
    }
  }
}
