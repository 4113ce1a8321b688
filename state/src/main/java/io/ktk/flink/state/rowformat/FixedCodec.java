package io.ktk.flink.state.rowformat;

import static io.ktk.flink.state.rowformat.FixedEncoding.INT_BE;
import static io.ktk.flink.state.rowformat.FixedEncoding.LONG_BE;
import static io.ktk.flink.state.rowformat.FixedEncoding.VALID;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The fixed-width family: a marker byte ({@code 0x01}, or the null byte followed by zeros) and
 * {@code width} value bytes. See {@link FixedEncoding} for the byte rules.
 *
 * <p>Arrow stores these values little-endian in a data buffer of {@code width} bytes per slot
 * (bool: one bit), which is read and written directly, so one codec serves every vector class of
 * the family.
 */
final class FixedCodec extends ColumnCodec {
  enum Kind {
    BOOL,
    /** Any integer-valued type: int, uint, date, time, timestamp. */
    INT,
    FLOAT32,
    FLOAT64,
    DECIMAL128,
    BYTES
  }

  final Kind kind;
  /** Value bytes after the marker. */
  final int width;
  /** XOR applied to the value's bits (sign flip, descending inversion); see {@link FixedEncoding}. */
  final long xorMask;

  private FixedCodec(Field field, boolean descending, boolean nullsFirst, boolean ordered,
      Kind kind, int width, boolean signed) {
    super(field, descending, nullsFirst, ordered);
    this.kind = kind;
    this.width = width;
    this.xorMask = FixedEncoding.xorMask(signed, Math.min(width, 8), this.descending);
  }

  static FixedCodec create(Field field, boolean descending, boolean nullsFirst, boolean ordered) {
    ArrowType type = field.getType();
    Kind kind;
    int width;
    boolean signed = true;
    switch (type.getTypeID()) {
      case Bool -> {
        kind = Kind.BOOL;
        width = 1;
        signed = false;
      }
      case Int -> {
        ArrowType.Int t = (ArrowType.Int) type;
        kind = Kind.INT;
        width = t.getBitWidth() / 8;
        signed = t.getIsSigned();
      }
      case FloatingPoint -> {
        FloatingPointPrecision p = ((ArrowType.FloatingPoint) type).getPrecision();
        if (p == FloatingPointPrecision.HALF) {
          throw unsupported(field, "type float16 is not supported");
        }
        kind = p == FloatingPointPrecision.SINGLE ? Kind.FLOAT32 : Kind.FLOAT64;
        width = p == FloatingPointPrecision.SINGLE ? 4 : 8;
      }
      case Date -> {
        kind = Kind.INT;
        width = ((ArrowType.Date) type).getUnit() == DateUnit.DAY ? 4 : 8;
      }
      case Time -> {
        kind = Kind.INT;
        width = ((ArrowType.Time) type).getBitWidth() / 8;
      }
      case Timestamp -> {
        kind = Kind.INT;
        width = 8;
      }
      case Decimal -> {
        if (((ArrowType.Decimal) type).getBitWidth() != 128) {
          throw unsupported(field, "type " + type + " is not supported, only decimal128");
        }
        kind = Kind.DECIMAL128;
        width = 16;
      }
      case FixedSizeBinary -> {
        kind = Kind.BYTES;
        width = ((ArrowType.FixedSizeBinary) type).getByteWidth();
        signed = false;
      }
      default -> throw new IllegalStateException("Not a fixed-width type: " + type);
    }
    return new FixedCodec(field, descending, nullsFirst, ordered, kind, width, signed);
  }

  @Override
  Encoder prepare(ValueVector vector, int rowCount) {
    BaseFixedWidthVector v = (BaseFixedWidthVector) vector;
    return new Encoder() {
      @Override
      public int fixedLength() {
        return 1 + width;
      }

      @Override
      public void addLengths(int[] lengths) {}

      @Override
      public void encode(byte[] data, int[] cursors) {
        encodeColumn(v, rowCount, data, cursors);
      }
    };
  }

  // The output array is new and zeroed, so a null only writes its marker. One loop per kind and
  // width keeps the per-value work free of dispatch.
  private void encodeColumn(BaseFixedWidthVector v, int n, byte[] data, int[] cursors) {
    ArrowBuf buf = v.getDataBuffer();
    boolean mayBeNull = v.getNullCount() > 0;
    int step = 1 + width;
    long mask = xorMask;
    switch (kind) {
      case INT -> {
        if (width == 8) {
          for (int i = 0; i < n; i++) {
            int pos = cursors[i + 1];
            if (mayBeNull && v.isNull(i)) {
              data[pos] = nullByte;
            } else {
              data[pos] = VALID;
              LONG_BE.set(data, pos + 1, buf.getLong((long) i << 3) ^ mask);
            }
            cursors[i + 1] = pos + step;
          }
        } else if (width == 4) {
          for (int i = 0; i < n; i++) {
            int pos = cursors[i + 1];
            if (mayBeNull && v.isNull(i)) {
              data[pos] = nullByte;
            } else {
              data[pos] = VALID;
              INT_BE.set(data, pos + 1, buf.getInt((long) i << 2) ^ (int) mask);
            }
            cursors[i + 1] = pos + step;
          }
        } else {
          for (int i = 0; i < n; i++) {
            int pos = cursors[i + 1];
            if (mayBeNull && v.isNull(i)) {
              data[pos] = nullByte;
            } else {
              data[pos] = VALID;
              long raw = width == 2 ? buf.getShort((long) i << 1) : buf.getByte(i);
              FixedEncoding.putBits(data, pos + 1, raw ^ mask, width);
            }
            cursors[i + 1] = pos + step;
          }
        }
      }
      case FLOAT32 -> {
        for (int i = 0; i < n; i++) {
          int pos = cursors[i + 1];
          if (mayBeNull && v.isNull(i)) {
            data[pos] = nullByte;
          } else {
            data[pos] = VALID;
            int bits = FixedEncoding.orderedFloatBits(buf.getFloat((long) i << 2));
            INT_BE.set(data, pos + 1, bits ^ (int) mask);
          }
          cursors[i + 1] = pos + step;
        }
      }
      case FLOAT64 -> {
        for (int i = 0; i < n; i++) {
          int pos = cursors[i + 1];
          if (mayBeNull && v.isNull(i)) {
            data[pos] = nullByte;
          } else {
            data[pos] = VALID;
            long bits = FixedEncoding.orderedDoubleBits(buf.getDouble((long) i << 3));
            LONG_BE.set(data, pos + 1, bits ^ mask);
          }
          cursors[i + 1] = pos + step;
        }
      }
      case BOOL -> {
        for (int i = 0; i < n; i++) {
          int pos = cursors[i + 1];
          if (mayBeNull && v.isNull(i)) {
            data[pos] = nullByte;
          } else {
            data[pos] = VALID;
            data[pos + 1] = (byte) (BitVectorHelper.get(buf, i) ^ mask);
          }
          cursors[i + 1] = pos + step;
        }
      }
      case DECIMAL128 -> {
        for (int i = 0; i < n; i++) {
          int pos = cursors[i + 1];
          if (mayBeNull && v.isNull(i)) {
            data[pos] = nullByte;
          } else {
            data[pos] = VALID;
            putDecimal(data, pos + 1, buf.getLong((long) i << 4), buf.getLong(((long) i << 4) + 8));
          }
          cursors[i + 1] = pos + step;
        }
      }
      case BYTES -> {
        for (int i = 0; i < n; i++) {
          int pos = cursors[i + 1];
          if (mayBeNull && v.isNull(i)) {
            data[pos] = nullByte;
          } else {
            data[pos] = VALID;
            buf.getBytes((long) i * width, data, pos + 1, width);
            if (descending) {
              FixedEncoding.invert(data, pos + 1, width);
            }
          }
          cursors[i + 1] = pos + step;
        }
      }
      default -> throw new IllegalStateException("Unexpected kind " + kind);
    }
  }

  /** Writes a 128-bit two's complement value given as its two 64-bit halves. */
  void putDecimal(byte[] out, int pos, long low, long high) {
    // the high word carries the sign (flipped by the mask); the low word is unsigned
    long invert = descending ? -1L : 0L;
    LONG_BE.set(out, pos, high ^ xorMask);
    LONG_BE.set(out, pos + 8, low ^ invert);
  }

  @Override
  int decode(byte[] data, int pos, ValueVector vector, int index) {
    if (data[pos] != VALID) {
      if (data[pos] != nullByte) {
        throw new IllegalArgumentException(
            "Cannot decode row: byte " + (data[pos] & 0xFF) + " at " + pos + " is not a marker"
                + " of column '" + field.getName() + "'");
      }
      setNull(vector, index);
      return pos + 1 + width;
    }
    int p = pos + 1;
    if (kind == Kind.BOOL) {
      ((BitVector) vector).setSafe(index, (int) ((data[p] ^ xorMask) & 1));
      return p + 1;
    }
    BaseFixedWidthVector v = (BaseFixedWidthVector) vector;
    while (index >= v.getValueCapacity()) {
      v.reAlloc();
    }
    ArrowBuf buf = v.getDataBuffer();
    long slot = (long) index * width;
    switch (kind) {
      case INT -> {
        long raw = FixedEncoding.getBits(data, p, width) ^ xorMask;
        switch (width) {
          case 8 -> buf.setLong(slot, raw);
          case 4 -> buf.setInt(slot, (int) raw);
          case 2 -> buf.setShort(slot, (short) raw);
          default -> buf.setByte(slot, (byte) raw);
        }
      }
      case FLOAT32 -> buf.setFloat(slot,
          FixedEncoding.floatFromOrderedBits((int) INT_BE.get(data, p) ^ (int) xorMask));
      case FLOAT64 -> buf.setDouble(slot,
          FixedEncoding.doubleFromOrderedBits((long) LONG_BE.get(data, p) ^ xorMask));
      case DECIMAL128 -> {
        long invert = descending ? -1L : 0L;
        buf.setLong(slot + 8, (long) LONG_BE.get(data, p) ^ xorMask);
        buf.setLong(slot, (long) LONG_BE.get(data, p + 8) ^ invert);
      }
      case BYTES -> {
        if (descending) {
          for (int k = 0; k < width; k++) {
            buf.setByte(slot + k, ~data[p + k]);
          }
        } else {
          buf.setBytes(slot, data, p, width);
        }
      }
      default -> throw new IllegalStateException("Unexpected kind " + kind);
    }
    BitVectorHelper.setBit(v.getValidityBuffer(), index);
    return p + width;
  }

  @Override
  void setNull(ValueVector vector, int index) {
    ((BaseFixedWidthVector) vector).setNull(index);
  }
}
