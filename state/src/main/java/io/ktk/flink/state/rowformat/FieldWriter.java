package io.ktk.flink.state.rowformat;

import static io.ktk.flink.state.rowformat.FixedEncoding.INT_BE;
import static io.ktk.flink.state.rowformat.FixedEncoding.VALID;

import io.ktk.flink.state.KtkValidationException;
import java.math.BigInteger;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * Writes one column of a Flink {@link RowData} (or one element of an {@link ArrayData}) in the
 * row format of its {@link ColumnCodec}, appending to a {@link RowBuffer}. The bytes are the same
 * as the batch encoding of the equivalent Arrow value. Built and checked by
 * {@link RowDataEncoder}.
 */
abstract class FieldWriter {
  final String column;

  FieldWriter(String column) {
    this.column = column;
  }

  abstract void writeField(RowData row, int pos, RowBuffer out);

  abstract void writeElement(ArrayData array, int pos, RowBuffer out);

  /** How a fixed-width value is read from Flink's internal data structures. */
  enum Getter {
    BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DATE, TIME, TIMESTAMP, DECIMAL
  }

  /** Every fixed-width type: reads the value as bits and writes them as {@link FixedCodec} does. */
  static final class FixedWriter extends FieldWriter {
    private final FixedCodec codec;
    private final Getter getter;
    /** Flink precision of TIMESTAMP and DECIMAL, scale of DECIMAL. */
    private final int precision;
    private final int scale;
    /** Arrow unit of TIME and TIMESTAMP; for DATE, whether the Arrow type counts milliseconds. */
    private final TimeUnit unit;
    private final boolean dateMillis;

    FixedWriter(String column, FixedCodec codec, Getter getter, int precision, int scale) {
      super(column);
      this.codec = codec;
      this.getter = getter;
      this.precision = precision;
      this.scale = scale;
      ArrowType type = codec.field.getType();
      this.unit = type instanceof ArrowType.Timestamp t ? t.getUnit()
          : type instanceof ArrowType.Time t ? t.getUnit() : null;
      this.dateMillis = type instanceof ArrowType.Date d && d.getUnit() == DateUnit.MILLISECOND;
    }

    @Override
    void writeField(RowData row, int pos, RowBuffer out) {
      if (row.isNullAt(pos)) {
        writeNull(out);
        return;
      }
      switch (getter) {
        case BOOLEAN -> write(out, row.getBoolean(pos) ? 1 : 0);
        case TINYINT -> write(out, row.getByte(pos));
        case SMALLINT -> write(out, row.getShort(pos));
        case INT -> write(out, row.getInt(pos));
        case BIGINT -> write(out, row.getLong(pos));
        case FLOAT -> write(out, FixedEncoding.orderedFloatBits(row.getFloat(pos)));
        case DOUBLE -> write(out, FixedEncoding.orderedDoubleBits(row.getDouble(pos)));
        case DATE -> write(out, date(row.getInt(pos)));
        case TIME -> write(out, time(row.getInt(pos)));
        case TIMESTAMP -> write(out, timestamp(row.getTimestamp(pos, precision)));
        case DECIMAL -> writeDecimal(out, row.getDecimal(pos, precision, scale));
        default -> throw new IllegalStateException("Unexpected getter " + getter);
      }
    }

    @Override
    void writeElement(ArrayData array, int pos, RowBuffer out) {
      if (array.isNullAt(pos)) {
        writeNull(out);
        return;
      }
      switch (getter) {
        case BOOLEAN -> write(out, array.getBoolean(pos) ? 1 : 0);
        case TINYINT -> write(out, array.getByte(pos));
        case SMALLINT -> write(out, array.getShort(pos));
        case INT -> write(out, array.getInt(pos));
        case BIGINT -> write(out, array.getLong(pos));
        case FLOAT -> write(out, FixedEncoding.orderedFloatBits(array.getFloat(pos)));
        case DOUBLE -> write(out, FixedEncoding.orderedDoubleBits(array.getDouble(pos)));
        case DATE -> write(out, date(array.getInt(pos)));
        case TIME -> write(out, time(array.getInt(pos)));
        case TIMESTAMP -> write(out, timestamp(array.getTimestamp(pos, precision)));
        case DECIMAL -> writeDecimal(out, array.getDecimal(pos, precision, scale));
        default -> throw new IllegalStateException("Unexpected getter " + getter);
      }
    }

    private void writeNull(RowBuffer out) {
      int p = out.reserve(1 + codec.width);
      out.array()[p] = codec.nullByte;
    }

    private void write(RowBuffer out, long bits) {
      int p = out.reserve(1 + codec.width);
      byte[] bytes = out.array();
      bytes[p] = VALID;
      FixedEncoding.putBits(bytes, p + 1, bits ^ codec.xorMask, codec.width);
    }

    private void writeDecimal(RowBuffer out, DecimalData value) {
      long low;
      long high;
      if (DecimalData.isCompact(precision)) {
        low = value.toUnscaledLong();
        high = low >> 63;
      } else {
        BigInteger unscaled = value.toBigDecimal().unscaledValue();
        low = unscaled.longValue();
        high = unscaled.shiftRight(64).longValue();
      }
      int p = out.reserve(1 + codec.width);
      out.array()[p] = VALID;
      codec.putDecimal(out.array(), p + 1, low, high);
    }

    private long date(int days) {
      return dateMillis ? days * 86_400_000L : days;
    }

    private long time(int millisOfDay) {
      return switch (unit) {
        case SECOND -> {
          if (millisOfDay % 1000 != 0) {
            throw lossy("time of day " + millisOfDay + " ms");
          }
          yield millisOfDay / 1000;
        }
        case MILLISECOND -> millisOfDay;
        case MICROSECOND -> millisOfDay * 1_000L;
        case NANOSECOND -> millisOfDay * 1_000_000L;
      };
    }

    private long timestamp(TimestampData value) {
      long millis = value.getMillisecond();
      int nanos = value.getNanoOfMillisecond();
      return switch (unit) {
        case SECOND -> {
          if (Math.floorMod(millis, 1000) != 0 || nanos != 0) {
            throw lossy("timestamp " + value);
          }
          yield Math.floorDiv(millis, 1000);
        }
        case MILLISECOND -> {
          if (nanos != 0) {
            throw lossy("timestamp " + value);
          }
          yield millis;
        }
        case MICROSECOND -> {
          if (nanos % 1000 != 0) {
            throw lossy("timestamp " + value);
          }
          yield scale(millis, 1000L, nanos / 1000, value);
        }
        case NANOSECOND -> scale(millis, 1_000_000L, nanos, value);
      };
    }

    /** {@code millis * factor + fraction} with {@code 0 <= fraction < factor}, exactly. */
    private long scale(long millis, long factor, long fraction, TimestampData value) {
      try {
        // for negative millis the product alone may overflow although the sum fits
        return millis >= 0
            ? Math.addExact(Math.multiplyExact(millis, factor), fraction)
            : Math.addExact(Math.multiplyExact(millis + 1, factor), fraction - factor);
      } catch (ArithmeticException e) {
        throw new KtkValidationException("Cannot encode row key column '" + column + "': timestamp "
            + value + " is out of the range of " + codec.field.getType(), e);
      }
    }

    private KtkValidationException lossy(String value) {
      return new KtkValidationException("Cannot encode row key column '" + column + "': " + value
          + " does not fit " + codec.field.getType() + " without losing precision");
    }
  }

  /** CHAR, VARCHAR, BINARY, VARBINARY. */
  static final class VariableWriter extends FieldWriter {
    private final VariableCodec codec;
    private final boolean string;

    VariableWriter(String column, VariableCodec codec, boolean string) {
      super(column);
      this.codec = codec;
      this.string = string;
    }

    @Override
    void writeField(RowData row, int pos, RowBuffer out) {
      if (row.isNullAt(pos)) {
        writeNull(out);
      } else if (string) {
        writeString(out, row.getString(pos));
      } else {
        writeBytes(out, row.getBinary(pos));
      }
    }

    @Override
    void writeElement(ArrayData array, int pos, RowBuffer out) {
      if (array.isNullAt(pos)) {
        writeNull(out);
      } else if (string) {
        writeString(out, array.getString(pos));
      } else {
        writeBytes(out, array.getBinary(pos));
      }
    }

    private void writeNull(RowBuffer out) {
      int p = out.reserve(codec.ordered ? 1 : 4);
      codec.encodeNull(out.array(), p);
    }

    private void writeString(RowBuffer out, StringData value) {
      if (!(value instanceof BinaryStringData binary)) {
        writeBytes(out, value.toBytes());
        return;
      }
      // copy straight from Flink's memory segments into the row: no byte[] per value
      binary.ensureMaterialized();
      int length = binary.getSizeInBytes();
      int p = reserveValue(out, length);
      BinarySegmentUtils.copyToBytes(
          binary.getSegments(), binary.getOffset(), out.array(), p + header(), length);
      finishValue(out, p, length);
    }

    private void writeBytes(RowBuffer out, byte[] value) {
      int p = reserveValue(out, value.length);
      System.arraycopy(value, 0, out.array(), p + header(), value.length);
      finishValue(out, p, value.length);
    }

    private int header() {
      return codec.ordered ? 1 : 4;
    }

    private int reserveValue(RowBuffer out, int length) {
      return out.reserve(codec.ordered
          ? VariableEncoding.orderedLength(length, VariableEncoding.BLOCK_SIZE)
          : 4 + length);
    }

    private void finishValue(RowBuffer out, int p, int length) {
      if (codec.ordered) {
        VariableEncoding.encodeInPlace(
            out.array(), p, length, codec.descending, VariableEncoding.BLOCK_SIZE);
      } else {
        INT_BE.set(out.array(), p, length);
      }
    }
  }

  /** ROW as struct. */
  static final class StructWriter extends FieldWriter {
    private final StructCodec codec;
    private final FieldWriter[] children;

    StructWriter(String column, StructCodec codec, FieldWriter[] children) {
      super(column);
      this.codec = codec;
      this.children = children;
    }

    @Override
    void writeField(RowData row, int pos, RowBuffer out) {
      write(row.isNullAt(pos) ? null : row.getRow(pos, children.length), out);
    }

    @Override
    void writeElement(ArrayData array, int pos, RowBuffer out) {
      write(array.isNullAt(pos) ? null : array.getRow(pos, children.length), out);
    }

    private void write(RowData value, RowBuffer out) {
      int p = out.reserve(1);
      if (value == null) {
        out.array()[p] = codec.nullByte;
        return;
      }
      out.array()[p] = VALID;
      for (int c = 0; c < children.length; c++) {
        children[c].writeField(value, c, out);
      }
    }
  }

  /** ARRAY as list. */
  static final class ListWriter extends FieldWriter {
    private final ListCodec codec;
    private final FieldWriter element;

    ListWriter(String column, ListCodec codec, FieldWriter element) {
      super(column);
      this.codec = codec;
      this.element = element;
    }

    @Override
    void writeField(RowData row, int pos, RowBuffer out) {
      write(row.isNullAt(pos) ? null : row.getArray(pos), out);
    }

    @Override
    void writeElement(ArrayData array, int pos, RowBuffer out) {
      write(array.isNullAt(pos) ? null : array.getArray(pos), out);
    }

    private void write(ArrayData value, RowBuffer out) {
      if (!codec.ordered) {
        int p = out.reserve(4);
        INT_BE.set(out.array(), p, value == null ? VariableEncoding.UNORDERED_NULL : value.size());
        for (int k = 0; value != null && k < value.size(); k++) {
          element.writeElement(value, k, out);
        }
        return;
      }
      int p = out.reserve(1);
      if (value == null) {
        out.array()[p] = codec.nullByte;
        return;
      }
      // The elements are appended right after the marker, then spread into blocks in place.
      for (int k = 0; k < value.size(); k++) {
        element.writeElement(value, k, out);
      }
      int bytes = out.length() - (p + 1);
      int encoded = VariableEncoding.orderedLength(bytes, VariableEncoding.BLOCK_SIZE);
      out.reserve(encoded - 1 - bytes);
      VariableEncoding.encodeInPlace(
          out.array(), p, bytes, codec.descending, VariableEncoding.BLOCK_SIZE);
    }
  }
}
