package io.ktk.flink.state.rowformat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * Random column types and values, biased to the edges the row format must get right: nulls,
 * NaN (with payloads and sign), -0.0, infinities, integer extremes, empty strings and lists,
 * bytes 0x00 and 0xFF inside values, lengths around the 32-byte block size, nested lists and
 * structs. Columns draw most values from a small pool so that equal values, and so later
 * columns, get compared.
 *
 * <p>Java values per Arrow type: bool Boolean; every integer, date, time and timestamp Long
 * (unsigned: the bits, zero-extended); float32 Float; float64 Double; decimal BigDecimal of the
 * type's scale; utf8 String; binary and fixed_size_binary byte[]; struct and list List.
 */
final class RandomColumns {
  static final List<ArrowType> SCALARS = List.of(
      ArrowType.Bool.INSTANCE,
      new ArrowType.Int(8, true), new ArrowType.Int(16, true),
      new ArrowType.Int(32, true), new ArrowType.Int(64, true),
      new ArrowType.Int(8, false), new ArrowType.Int(16, false),
      new ArrowType.Int(32, false), new ArrowType.Int(64, false),
      new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE),
      new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE),
      new ArrowType.Date(DateUnit.DAY), new ArrowType.Date(DateUnit.MILLISECOND),
      new ArrowType.Time(TimeUnit.SECOND, 32), new ArrowType.Time(TimeUnit.MILLISECOND, 32),
      new ArrowType.Time(TimeUnit.MICROSECOND, 64), new ArrowType.Time(TimeUnit.NANOSECOND, 64),
      new ArrowType.Timestamp(TimeUnit.SECOND, null),
      new ArrowType.Timestamp(TimeUnit.MILLISECOND, null),
      new ArrowType.Timestamp(TimeUnit.MICROSECOND, null),
      new ArrowType.Timestamp(TimeUnit.NANOSECOND, null),
      new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"),
      new ArrowType.Decimal(38, 4, 128), new ArrowType.Decimal(10, 2, 128),
      new ArrowType.FixedSizeBinary(1), new ArrowType.FixedSizeBinary(5),
      new ArrowType.FixedSizeBinary(33),
      ArrowType.Utf8.INSTANCE, ArrowType.LargeUtf8.INSTANCE,
      ArrowType.Binary.INSTANCE, ArrowType.LargeBinary.INSTANCE);

  /** Value lengths (bytes, or code points for strings) around the block size of 32. */
  private static final int[] LENGTHS = {0, 0, 1, 1, 2, 3, 7, 31, 32, 33, 64, 65, 1000};
  private static final byte[] BYTES = {0, 0, (byte) 0xFF, (byte) 0xFF, 1, (byte) 0xFE, 0x7F,
      (byte) 0x80, 'a', 'b'};
  private static final int[] CODE_POINTS = {0, 'a', 'a', 'b', 'z', 0x7F, 0xFF, 0x100, 0x20AC,
      0xFFFD, 0xFFFF, 0x1F600, 0x10FFFF};

  private final Random random;
  private int names;

  RandomColumns(long seed) {
    this.random = new Random(seed);
  }

  Random random() {
    return random;
  }

  /** A random field; nested up to {@code depth} levels; only Flink-mapped types if asked. */
  Field field(int depth, boolean flinkTypes) {
    String name = "c" + names++;
    int pick = random.nextInt(10);
    if (depth > 0 && pick == 0) {
      int count = 1 + random.nextInt(3);
      List<Field> children = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        children.add(field(depth - 1, flinkTypes));
      }
      return new Field(name, FieldType.nullable(ArrowType.Struct.INSTANCE), children);
    }
    if (depth > 0 && pick == 1) {
      return new Field(name, FieldType.nullable(ArrowType.List.INSTANCE),
          List.of(field(depth - 1, flinkTypes)));
    }
    List<ArrowType> types = flinkTypes ? FlinkTestValues.SCALARS : SCALARS;
    return scalar(name, types.get(random.nextInt(types.size())));
  }

  static Field scalar(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }

  /** {@code n} values: mostly from a small pool, some fresh. */
  List<Object> column(Field field, int n) {
    List<Object> pool = new ArrayList<>();
    int poolSize = 1 + random.nextInt(12);
    for (int i = 0; i < poolSize; i++) {
      pool.add(value(field));
    }
    List<Object> values = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      values.add(random.nextInt(8) == 0 ? value(field) : pool.get(random.nextInt(poolSize)));
    }
    return values;
  }

  Object value(Field field) {
    if (random.nextInt(7) == 0) {
      return null;
    }
    ArrowType type = field.getType();
    switch (type.getTypeID()) {
      case Struct: {
        List<Object> values = new ArrayList<>();
        field.getChildren().forEach(child -> values.add(value(child)));
        return values;
      }
      case List: {
        int[] sizes = {0, 0, 1, 1, 2, 3, 4, 6, 9};
        int size = random.nextInt(20) == 0 ? 20 + random.nextInt(20) : sizes[random.nextInt(9)];
        List<Object> values = new ArrayList<>();
        for (int k = 0; k < size; k++) {
          values.add(value(field.getChildren().get(0)));
        }
        return values;
      }
      case Bool:
        return random.nextBoolean();
      case Int: {
        ArrowType.Int t = (ArrowType.Int) type;
        return integer(t.getBitWidth(), t.getIsSigned());
      }
      case FloatingPoint:
        // not a ?: expression, which would widen the Float to a Double
        if (((ArrowType.FloatingPoint) type).getPrecision() == FloatingPointPrecision.SINGLE) {
          return float32();
        }
        return float64();
      case Date:
        return ((ArrowType.Date) type).getUnit() == DateUnit.DAY
            ? integer(32, true) : integer(64, true);
      case Time: {
        long perDay = switch (((ArrowType.Time) type).getUnit()) {
          case SECOND -> 86_400L;
          case MILLISECOND -> 86_400_000L;
          case MICROSECOND -> 86_400_000_000L;
          case NANOSECOND -> 86_400_000_000_000L;
        };
        return random.nextInt(5) == 0 ? perDay - 1 : Math.floorMod(random.nextLong(), perDay);
      }
      case Timestamp:
        return random.nextBoolean()
            ? integer(64, true) : 1_700_000_000_000_000L + random.nextInt(2000) - 1000;
      case Decimal: {
        ArrowType.Decimal t = (ArrowType.Decimal) type;
        BigInteger max = BigInteger.TEN.pow(t.getPrecision()).subtract(BigInteger.ONE);
        BigInteger unscaled = switch (random.nextInt(6)) {
          case 0 -> max;
          case 1 -> max.negate();
          case 2 -> BigInteger.valueOf(random.nextInt(3) - 1);
          default -> new BigInteger(max.bitLength() + 2, random).mod(max.add(BigInteger.ONE))
              .multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1));
        };
        return new BigDecimal(unscaled, t.getScale());
      }
      case FixedSizeBinary:
        return bytes(((ArrowType.FixedSizeBinary) type).getByteWidth());
      case Binary:
      case LargeBinary:
        return bytes(length());
      case Utf8:
      case LargeUtf8:
        return string(length());
      default:
        throw new IllegalArgumentException("No values for " + type);
    }
  }

  private int length() {
    int length = LENGTHS[random.nextInt(LENGTHS.length)];
    // the longest values are rare, so that a seed stays fast
    return length == 1000 && random.nextBoolean() ? 3 : length;
  }

  private byte[] bytes(int length) {
    byte[] b = new byte[length];
    for (int k = 0; k < length; k++) {
      b[k] = random.nextInt(3) == 0 ? (byte) random.nextInt() : BYTES[random.nextInt(BYTES.length)];
    }
    return b;
  }

  private String string(int codePoints) {
    StringBuilder s = new StringBuilder();
    for (int k = 0; k < codePoints; k++) {
      int cp = random.nextInt(4) == 0
          ? random.nextInt(0xD800) : CODE_POINTS[random.nextInt(CODE_POINTS.length)];
      s.appendCodePoint(cp);
    }
    return s.toString();
  }

  private long integer(int bits, boolean signed) {
    long mask = bits == 64 ? -1L : (1L << bits) - 1;
    long min = signed ? -(1L << (bits - 1)) : 0;
    long max = signed ? (1L << (bits - 1)) - 1 : mask;
    return switch (random.nextInt(8)) {
      case 0 -> min;
      case 1 -> max;
      case 2 -> 0;
      case 3 -> signed ? -1 : 1L << (bits - 1);
      case 4 -> random.nextInt(5);
      default -> signed ? (random.nextLong() << (64 - bits)) >> (64 - bits) : random.nextLong() & mask;
    };
  }

  private Float float32() {
    float[] specials = {0f, -0f, Float.NaN, Float.intBitsToFloat(0x7FC00001),
        Float.intBitsToFloat(0xFFC00000), Float.intBitsToFloat(0xFF800001),
        Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE, -Float.MIN_VALUE,
        Float.MAX_VALUE, -Float.MAX_VALUE, 1f, -1f};
    return switch (random.nextInt(3)) {
      case 0 -> specials[random.nextInt(specials.length)];
      case 1 -> Float.intBitsToFloat(random.nextInt());
      default -> (float) random.nextGaussian();
    };
  }

  private Double float64() {
    double[] specials = {0d, -0d, Double.NaN, Double.longBitsToDouble(0x7FF8000000000001L),
        Double.longBitsToDouble(0xFFF8000000000000L), Double.longBitsToDouble(0xFFF0000000000001L),
        Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MIN_VALUE,
        Double.MAX_VALUE, -Double.MAX_VALUE, 1d, -1d};
    return switch (random.nextInt(3)) {
      case 0 -> specials[random.nextInt(specials.length)];
      case 1 -> Double.longBitsToDouble(random.nextLong());
      default -> random.nextGaussian();
    };
  }
}
