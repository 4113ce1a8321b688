package io.ktk.flink.sink.writer;

import java.util.Arrays;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * Encodes some columns of a row into bytes that are equal exactly when the values are equal, for
 * hashing (not ordering; the row format of {@code state.rowformat} will replace this). Per column:
 * a null byte ({@code 0} null, {@code 1} a value), then integers as 8 big-endian bytes, floats
 * as the bits of their canonical NaN-folded value, strings and binary as a 4-byte length and the
 * bytes, timestamps as epoch milliseconds and nanoseconds of the millisecond, decimals as their
 * unscaled value.
 */
final class KeyEncoder {
  private final int[] positions;
  private final LogicalTypeRoot[] roots;
  private final int[] precisions;
  private final int[] scales;
  private byte[] buffer = new byte[64];
  private int length;

  KeyEncoder(RowType rowType, int... positions) {
    this.positions = positions.clone();
    this.roots = new LogicalTypeRoot[positions.length];
    this.precisions = new int[positions.length];
    this.scales = new int[positions.length];
    for (int k = 0; k < positions.length; k++) {
      LogicalType type = rowType.getTypeAt(positions[k]);
      roots[k] = type.getTypeRoot();
      if (type.is(LogicalTypeRoot.DECIMAL)) {
        precisions[k] = ((DecimalType) type).getPrecision();
        scales[k] = ((DecimalType) type).getScale();
      } else if (roots[k] == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
          || roots[k] == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
        precisions[k] = LogicalTypeChecks.getPrecision(type);
      }
    }
  }

  /** Encodes the key of {@code row}; read it with {@link #bytes()} and {@link #length()}. */
  void encode(RowData row) {
    length = 0;
    for (int k = 0; k < positions.length; k++) {
      int pos = positions[k];
      if (row.isNullAt(pos)) {
        putByte(0);
        continue;
      }
      putByte(1);
      switch (roots[k]) {
        case BOOLEAN -> putByte(row.getBoolean(pos) ? 1 : 0);
        case TINYINT -> putLong(row.getByte(pos));
        case SMALLINT -> putLong(row.getShort(pos));
        case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE -> putLong(row.getInt(pos));
        case BIGINT -> putLong(row.getLong(pos));
        case FLOAT -> putLong(Float.floatToIntBits(row.getFloat(pos)));
        case DOUBLE -> putLong(Double.doubleToLongBits(row.getDouble(pos)));
        case CHAR, VARCHAR -> putString(row.getString(pos));
        case BINARY, VARBINARY -> putBytes(row.getBinary(pos));
        case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
          TimestampData timestamp = row.getTimestamp(pos, precisions[k]);
          putLong(timestamp.getMillisecond());
          putLong(timestamp.getNanoOfMillisecond());
        }
        case DECIMAL -> {
          DecimalData decimal = row.getDecimal(pos, precisions[k], scales[k]);
          if (decimal.isCompact()) {
            putLong(decimal.toUnscaledLong());
          } else {
            putBytes(decimal.toUnscaledBytes());
          }
        }
        default -> throw new IllegalStateException("Cannot encode a key of type " + roots[k]);
      }
    }
  }

  byte[] bytes() {
    return buffer;
  }

  int length() {
    return length;
  }

  private void putString(StringData string) {
    if (string instanceof BinaryStringData binary) {
      binary.ensureMaterialized();
      int size = binary.getSizeInBytes();
      putInt(size);
      ensure(size);
      BinarySegmentUtils.copyToBytes(binary.getSegments(), binary.getOffset(), buffer, length, size);
      length += size;
    } else {
      putBytes(string.toBytes());
    }
  }

  private void putBytes(byte[] bytes) {
    putInt(bytes.length);
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buffer, length, bytes.length);
    length += bytes.length;
  }

  private void putByte(int value) {
    ensure(1);
    buffer[length++] = (byte) value;
  }

  private void putInt(int value) {
    ensure(4);
    for (int shift = 24; shift >= 0; shift -= 8) {
      buffer[length++] = (byte) (value >>> shift);
    }
  }

  private void putLong(long value) {
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) {
      buffer[length++] = (byte) (value >>> shift);
    }
  }

  private void ensure(int more) {
    if (length + more > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + more));
    }
  }
}
