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
 * Column buffers of byte-valued Parquet types: BINARY (strings, binary) as one byte array with
 * the end offset of each value, FIXED_LEN_BYTE_ARRAY (decimals) as one byte array of fixed-width
 * values. The arrays are overwritten only after the file their values went into is complete (a
 * buffer is cleared after its file is written), so values are handed to Parquet without copying.
 */
final class BytesColumns {
  private BytesColumns() {}

  /** Variable-length values: {@code data[ends[i - 1] .. ends[i])} is value {@code i}. */
  abstract static class Variable extends ColumnBuffer {
    private byte[] data = new byte[0];
    private int[] ends = new int[0];
    /** Bytes held when last released, as {@link ColumnBuffer#grownValues} remembers values. */
    private int dataHint;

    Variable(Account account) {
      super(account);
    }

    /** Makes room for a value of {@code length} bytes and returns where it starts. */
    final int reserve(int length) {
      if (count == ends.length) {
        int capacity = grownValues(ends.length);
        account.grew(4L * (capacity - ends.length));
        ends = Arrays.copyOf(ends, capacity);
      }
      int start = count == 0 ? 0 : ends[count - 1];
      long end = (long) start + length;
      if (end > data.length) {
        if (end > Integer.MAX_VALUE - 8) {
          throw new IllegalStateException("Cannot buffer more than 2 GiB of one column of one partition");
        }
        long hinted = data.length == 0 ? dataHint + dataHint / 8 : 0;
        int capacity = (int) Math.min(Integer.MAX_VALUE - 8,
            Math.max(Math.max(end, hinted), Math.max(64L, 2L * data.length)));
        account.grew(capacity - data.length);
        data = Arrays.copyOf(data, capacity);
      }
      ends[count] = (int) end;
      return start;
    }

    final byte[] data() {
      return data;
    }

    @Override
    final void write(ColumnWriter writer, int index, int rep, int def) {
      int start = index == 0 ? 0 : ends[index - 1];
      writer.write(Binary.fromConstantByteArray(data, start, ends[index] - start), rep, def);
    }

    /** Judged by a 64-bit hash of each sampled value (FNV-1a); a collision merely undercounts. */
    @Override
    final boolean mostlyDistinct() {
      ColumnBuffer.DistinctSample sample = new ColumnBuffer.DistinctSample(count);
      for (int i = 0; i < count && !sample.full(); i++) {
        long hash = 0xcbf29ce484222325L;
        for (int b = i == 0 ? 0 : ends[i - 1]; b < ends[i]; b++) {
          hash = (hash ^ (data[b] & 0xff)) * 0x100000001b3L;
        }
        sample.offer(hash);
      }
      return sample.mostlyDistinct();
    }

    @Override
    final FlatValues flatValues() {
      return new FlatValues.Bytes(data, ends);
    }

    @Override
    final long usedBytes() {
      return (count == 0 ? 0 : ends[count - 1]) + 4L * count;
    }

    @Override
    final long valueBytes() {
      return data.length + 4L * ends.length;
    }

    @Override
    final void releaseValues() {
      int used = count == 0 ? 0 : ends[count - 1];
      dataHint = (int) Math.min(used, (long) MAX_HINT * 32);
      data = new byte[0];
      ends = new int[0];
    }
  }

  /** CHAR and VARCHAR, as UTF-8, copied straight from Flink's binary strings. */
  static final class Strings extends Variable {
    Strings(Account account) {
      super(account);
    }

    @Override
    void appendValue(RowData row, int pos) {
      StringData string = row.getString(pos);
      if (string instanceof BinaryStringData binary) {
        binary.ensureMaterialized();
        int size = binary.getSizeInBytes();
        int start = reserve(size);
        MemorySegment[] segments = binary.getSegments();
        if (segments.length == 1 && !segments[0].isOffHeap()) {
          // a plain array copy: Flink's copy goes through Unsafe with checks that cost more than short strings
          System.arraycopy(segments[0].getArray(), binary.getOffset(), data(), start, size);
        } else {
          BinarySegmentUtils.copyToBytes(segments, binary.getOffset(), data(), start, size);
        }
      } else {
        byte[] bytes = string.toBytes();
        int start = reserve(bytes.length);
        System.arraycopy(bytes, 0, data(), start, bytes.length);
      }
    }
  }

  /** BINARY and VARBINARY. */
  static final class Binaries extends Variable {
    Binaries(Account account) {
      super(account);
    }

    @Override
    void appendValue(RowData row, int pos) {
      byte[] bytes = row.getBinary(pos);
      int start = reserve(bytes.length);
      System.arraycopy(bytes, 0, data(), start, bytes.length);
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
