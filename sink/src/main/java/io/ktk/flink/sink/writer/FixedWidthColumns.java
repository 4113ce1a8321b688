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

  /**
   * The values of a fixed width in blocks. Appending goes to the block at the tail, which the
   * column keeps at hand: a value costs a bounds check and a store, as in an array.
   */
  abstract static class Fixed extends ColumnBuffer {
    private static final byte[] NO_BLOCK = new byte[0];
    protected final ValueBlocks values;
    private final int width;
    /** The block the next value goes to, and the offsets it covers. */
    private byte[] tail = NO_BLOCK;
    private long tailStart;
    private long tailEnd;

    Fixed(Account account, BlockPool pool, int width) {
      super(account);
      this.values = new ValueBlocks(pool, account);
      this.width = width;
    }

    /** Stores the next value's bits (its low {@code width} bytes, little-endian). */
    final void appendBits(long bits) {
      long offset = (long) width * count;
      if (offset + width > tailEnd) {
        tail = values.tailFor(offset + width);
        tailStart = offset & ~(long) BlockPool.MASK;
        tailEnd = tailStart + tail.length;
      }
      int at = (int) (offset - tailStart);
      switch (width) {
        case 8 -> ValueBlocks.LONGS.set(tail, at, bits);
        case 4 -> ValueBlocks.INTS.set(tail, at, (int) bits);
        default -> tail[at] = (byte) bits;
      }
    }

    private void dropTail() {
      tail = NO_BLOCK;
      tailStart = 0;
      tailEnd = 0;
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
      dropTail();
    }

    @Override
    final void releaseValues() {
      values.release((long) width * count);
      dropTail();
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
      appendBits(reader.read(row, pos));
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
      appendBits(reader.read(row, pos));
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
      appendBits(Float.floatToRawIntBits(row.getFloat(pos)));
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
      appendBits(Double.doubleToRawLongBits(row.getDouble(pos)));
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
      appendBits(row.getBoolean(pos) ? 1 : 0);
    }

    @Override
    void write(ColumnWriter writer, int index, int rep, int def) {
      writer.write(values.getByte(index) != 0, rep, def);
    }
  }
}
