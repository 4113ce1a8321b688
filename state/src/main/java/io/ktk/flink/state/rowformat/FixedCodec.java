package io.ktk.flink.state.rowformat;

import static io.ktk.flink.state.rowformat.FixedEncoding.LONG_BE;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The fixed-width family: a marker byte ({@code 0x01}, or the null byte followed by zeros) and
 * {@code width} value bytes. See {@link FixedEncoding} for the byte rules.
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

  /** Writes a 128-bit two's complement value given as its two 64-bit halves. */
  void putDecimal(byte[] out, int pos, long low, long high) {
    // the high word carries the sign (flipped by the mask); the low word is unsigned
    long invert = descending ? -1L : 0L;
    LONG_BE.set(out, pos, high ^ xorMask);
    LONG_BE.set(out, pos + 8, low ^ invert);
  }
}
