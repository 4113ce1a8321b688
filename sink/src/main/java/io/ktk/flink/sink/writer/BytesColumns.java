package io.ktk.flink.sink.writer;

import io.ktk.flink.state.parquet.ArrowParquetSchemas;
import java.util.Arrays;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;

/**
 * Column buffers of byte-valued Parquet types: BINARY (strings, binary) as blocks of bytes with
 * the end offset of each value, FIXED_LEN_BYTE_ARRAY (decimals) as one byte array of fixed-width
 * values. Blocks and arrays are overwritten only after the file their values went into is complete
 * (a buffer is cleared after its file is written), so values are handed to Parquet without copying
 * (but for a value spanning two blocks).
 */
final class BytesColumns {
  private BytesColumns() {}

  /**
   * Variable-length values: value {@code i} is the bytes {@code ends[i - 1] .. ends[i]} of {@code
   * data}, both in {@link ValueBlocks} ({@code ends} as ints), so a value may span two blocks.
   */
  abstract static class Variable extends ColumnBuffer {
    private static final byte[] NO_BLOCK = new byte[0];
    private final ValueBlocks data;
    private final ValueBlocks ends;
    /** The end of the last value: where the next one starts. */
    private int end;
    /** Bytes of data writable without asking the blocks. */
    private long dataCapacity;
    /** The block of ends the next end goes to, and the offsets it covers (as in {@link FixedWidthColumns.Fixed}). */
    private byte[] endsTail = NO_BLOCK;
    private long endsTailStart;
    private long endsTailEnd;

    Variable(Account account, BlockPool pool) {
      super(account);
      this.data = new ValueBlocks(pool, account);
      this.ends = new ValueBlocks(pool, account);
    }

    /** Makes room for a value of {@code length} bytes, records its end, and returns where it starts. */
    final int reserve(int length) {
      long endOffset = 4L * count;
      if (endOffset + 4 > endsTailEnd) {
        endsTail = ends.tailFor(endOffset + 4);
        endsTailStart = endOffset & ~(long) BlockPool.MASK;
        endsTailEnd = endsTailStart + endsTail.length;
      }
      long valueEnd = (long) end + length;
      if (valueEnd > dataCapacity) {
        if (valueEnd > Integer.MAX_VALUE - 8) {
          throw new IllegalStateException("Cannot buffer more than 2 GiB of one column of one partition");
        }
        data.ensure(valueEnd);
        dataCapacity = data.heldBytes();
      }
      int start = end;
      end = (int) valueEnd;
      ValueBlocks.INTS.set(endsTail, (int) (endOffset - endsTailStart), end);
      return start;
    }

    private void dropTails() {
      end = 0;
      dataCapacity = 0;
      endsTail = NO_BLOCK;
      endsTailStart = 0;
      endsTailEnd = 0;
    }

    /** Writes bytes of a value {@link #reserve} made room for. */
    final void put(int start, byte[] source, int from, int length) {
      data.put(start, source, from, length);
    }

    /** The block a value of {@code length} bytes at {@code start} lies in whole, or null when it spans two. */
    final byte[] blockFor(int start, int length) {
      return length > 0 && ValueBlocks.inOneBlock(start, length) ? data.blockOf(start) : null;
    }

    @Override
    final void write(ColumnWriter writer, int index, int rep, int def) {
      int start = index == 0 ? 0 : ends.getInt(4L * (index - 1));
      writer.write(FlatValues.binary(data, start, ends.getInt(4L * index) - start), rep, def);
    }

    /** Judged by a 64-bit hash of each sampled value ({@link FlatValues.Bytes#hash}); a collision merely undercounts. */
    @Override
    final boolean mostlyDistinct() {
      ColumnBuffer.DistinctSample sample = new ColumnBuffer.DistinctSample(count);
      FlatValues values = flatValues();
      for (int i = 0; i < count && !sample.full(); i++) {
        sample.offer(values.bits(i));
      }
      return sample.mostlyDistinct();
    }

    @Override
    final FlatValues flatValues() {
      return new FlatValues.Bytes(data, ends);
    }

    @Override
    final long usedBytes() {
      return end + 4L * count;
    }

    @Override
    final long valueBytes() {
      return data.heldBytes() + ends.heldBytes();
    }

    @Override
    final void clearValues() {
      data.clear();
      ends.clear();
      dropTails();
    }

    @Override
    final void releaseValues() {
      data.release(end);
      ends.release(4L * count);
      dropTails();
    }
  }

  /** CHAR and VARCHAR, as UTF-8, copied straight from Flink's binary strings. */
  static final class Strings extends Variable {
    Strings(Account account, BlockPool pool) {
      super(account, pool);
    }

    @Override
    void appendValue(RowData row, int pos) {
      StringData string = row.getString(pos);
      if (string instanceof BinaryStringData binary) {
        binary.ensureMaterialized();
        int size = binary.getSizeInBytes();
        int start = reserve(size);
        MemorySegment[] segments = binary.getSegments();
        byte[] block = blockFor(start, size);
        if (segments.length == 1 && !segments[0].isOffHeap()) {
          // a plain array copy: Flink's copy goes through Unsafe with checks that cost more than short strings
          if (block != null) {
            System.arraycopy(segments[0].getArray(), binary.getOffset(), block, ValueBlocks.within(start), size);
          } else {
            put(start, segments[0].getArray(), binary.getOffset(), size);
          }
        } else if (block != null) {
          BinarySegmentUtils.copyToBytes(segments, binary.getOffset(), block, ValueBlocks.within(start), size);
        } else {
          put(start, BinarySegmentUtils.copyToBytes(segments, binary.getOffset(), size), 0, size);
        }
      } else {
        byte[] bytes = string.toBytes();
        put(reserve(bytes.length), bytes, 0, bytes.length);
      }
    }
  }

  /** BINARY and VARBINARY. */
  static final class Binaries extends Variable {
    Binaries(Account account, BlockPool pool) {
      super(account, pool);
    }

    @Override
    void appendValue(RowData row, int pos) {
      byte[] bytes = row.getBinary(pos);
      put(reserve(bytes.length), bytes, 0, bytes.length);
    }
  }

  /**
   * DECIMAL(p, s) as Parquet FIXED_LEN_BYTE_ARRAY of the width pyarrow uses for {@code p}: the
   * unscaled value in big-endian two's complement.
   */
  static final class Decimals extends ColumnBuffer {
    private final int precision;
    private final int scale;
    private final int width;
    private byte[] data = new byte[0];

    Decimals(Account account, DecimalType type) {
      super(account);
      this.precision = type.getPrecision();
      this.scale = type.getScale();
      this.width = ArrowParquetSchemas.decimalByteWidth(precision);
    }

    @Override
    void appendValue(RowData row, int pos) {
      if ((long) (count + 1) * width > data.length) {
        int capacity = (int) Math.min(Integer.MAX_VALUE - 8, (long) grownValues(data.length / width) * width);
        account.grew(capacity - data.length);
        data = Arrays.copyOf(data, capacity);
      }
      DecimalData decimal = row.getDecimal(pos, precision, scale);
      int offset = count * width;
      if (decimal.isCompact()) {
        long unscaled = decimal.toUnscaledLong();
        for (int i = width - 1; i >= 0; i--) {
          data[offset + i] = (byte) unscaled;
          unscaled >>= 8;
        }
      } else {
        byte[] unscaled = decimal.toUnscaledBytes();
        byte sign = unscaled[0] < 0 ? (byte) -1 : 0;
        int padding = width - unscaled.length;
        Arrays.fill(data, offset, offset + padding, sign);
        System.arraycopy(unscaled, 0, data, offset + padding, unscaled.length);
      }
    }

    @Override
    void write(ColumnWriter writer, int index, int rep, int def) {
      writer.write(Binary.fromConstantByteArray(data, index * width, width), rep, def);
    }

    @Override
    long valueBytes() {
      return data.length;
    }

    @Override
    void releaseValues() {
      data = new byte[0];
    }
  }
}
