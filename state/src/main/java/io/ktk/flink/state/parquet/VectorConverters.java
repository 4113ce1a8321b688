package io.ktk.flink.state.parquet;

import io.ktk.flink.state.vector.DoubleVector;
import io.ktk.flink.state.vector.LongType;
import io.ktk.flink.state.vector.LongVector;
import io.ktk.flink.state.vector.ObjectVector;
import io.ktk.flink.state.vector.TypedVector;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.LongFunction;
import org.apache.arrow.memory.util.Float16;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/**
 * parquet-column converters that append the values of one flat column to a {@link TypedVector}:
 * integers, dates, times, timestamps and small decimals as longs, floats (of 16, 32 and 64 bits) as
 * doubles, the rest as the typed values {@link RowConverters} makes. A dictionary page is decoded
 * once, so rows that refer to its entries share one decoded value (one {@code String} per distinct
 * string).
 */
final class VectorConverters {
  private VectorConverters() {}

  /** A converter and the vector it fills. */
  abstract static class Filler extends PrimitiveConverter {
    abstract TypedVector vector();

    /**
     * Appends {@code count} plain-encoded values, none null, from {@code data} at {@code from} in
     * one copy if this filler can (values it stores as they are); false if it cannot.
     */
    boolean appendPlain(byte[] data, int from, int count) {
      return false;
    }
  }

  /** A filler for a top-level primitive column of {@code rows} rows. */
  static Filler filler(PrimitiveType type, int rows) {
    LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
    String path = type.getName();
    switch (type.getPrimitiveTypeName()) {
      case INT32: {
        LongType longType = int32Type(annotation);
        if (longType != null) {
          boolean unsigned = annotation instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && !i.isSigned();
          boolean millis = longType.kind() == LongType.Kind.TIME;
          return new Longs(new LongVector(longType, rows), true, unsigned, millis ? 1_000_000L : 1L);
        }
        return new Objects(rows, RowConverters.int32(annotation, path, type), null, null);
      }
      case INT64: {
        LongType longType = int64Type(annotation);
        if (longType != null) {
          long multiplier = annotation instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation time
              ? RowConverters.nanosPerUnit(time.getUnit()) : 1L;
          return new Longs(new LongVector(longType, rows), false, false, multiplier);
        }
        return new Objects(rows, null, RowConverters.int64(annotation, path, type), null);
      }
      case FLOAT:
      case DOUBLE:
        return new Doubles(new DoubleVector(rows), type.getPrimitiveTypeName());
      case BOOLEAN:
        return new Objects(rows, null, null, null);
      case INT96:
        return new Objects(rows, null, null, RowConverters::int96);
      case FIXED_LEN_BYTE_ARRAY:
        if (annotation instanceof LogicalTypeAnnotation.Float16LogicalTypeAnnotation) {
          return new Doubles(new DoubleVector(rows), PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY);
        }
        return new Objects(rows, null, null, RowConverters.binary(annotation, type));
      default:
        return new Objects(rows, null, null, RowConverters.binary(annotation, type));
    }
  }

  /** The long interpretation of an INT32 column, or null when its values are boxed. */
  private static LongType int32Type(LogicalTypeAnnotation annotation) {
    if (annotation == null || annotation instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation) {
      return LongType.INTEGER;
    }
    if (annotation instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
      return LongType.DATE;
    }
    if (annotation instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal) {
      return LongType.decimal(decimal.getScale());
    }
    if (annotation instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation) {
      return LongType.TIME;
    }
    return null;
  }

  /** The long interpretation of an INT64 column, or null when its values are boxed. */
  private static LongType int64Type(LogicalTypeAnnotation annotation) {
    if (annotation == null) {
      return LongType.INTEGER;
    }
    if (annotation instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer) {
      return integer.isSigned() ? LongType.INTEGER : LongType.UNSIGNED_64;
    }
    if (annotation instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal) {
      return LongType.decimal(decimal.getScale());
    }
    if (annotation instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation timestamp) {
      return LongType.timestamp(RowConverters.nanosPerUnit(timestamp.getUnit()), timestamp.isAdjustedToUTC());
    }
    if (annotation instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation) {
      return LongType.TIME;
    }
    return null;
  }

  /**
   * Longs from INT32 or INT64 values; {@code unsigned32} reads INT32 values as unsigned, {@code
   * multiplier} scales times of day to nanoseconds.
   */
  private static final class Longs extends Filler {
    private final LongVector vector;
    private final boolean int32;
    private final boolean unsigned32;
    private final long multiplier;
    private long[] dictionary;

    Longs(LongVector vector, boolean int32, boolean unsigned32, long multiplier) {
      this.vector = vector;
      this.int32 = int32;
      this.unsigned32 = unsigned32;
      this.multiplier = multiplier;
    }

    @Override
    TypedVector vector() {
      return vector;
    }

    @Override
    boolean appendPlain(byte[] data, int from, int count) {
      if (int32 || multiplier != 1) {
        return false;
      }
      vector.append(ByteBuffer.wrap(data, from, count * 8).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer(), count);
      return true;
    }

    @Override
    public void addInt(int value) {
      vector.append((unsigned32 ? Integer.toUnsignedLong(value) : value) * multiplier);
    }

    @Override
    public void addLong(long value) {
      vector.append(value * multiplier);
    }

    @Override
    public boolean hasDictionarySupport() {
      return true;
    }

    @Override
    public void setDictionary(Dictionary pageDictionary) {
      dictionary = new long[pageDictionary.getMaxId() + 1];
      for (int id = 0; id < dictionary.length; id++) {
        long value = int32 ? (unsigned32 ? Integer.toUnsignedLong(pageDictionary.decodeToInt(id))
            : pageDictionary.decodeToInt(id)) : pageDictionary.decodeToLong(id);
        dictionary[id] = value * multiplier;
      }
    }

    @Override
    public void addValueFromDictionary(int dictionaryId) {
      vector.append(dictionary[dictionaryId]);
    }
  }

  /** Doubles from FLOAT, DOUBLE or FLOAT16 (2-byte FIXED_LEN_BYTE_ARRAY) values, all widened exactly. */
  private static final class Doubles extends Filler {
    private final DoubleVector vector;
    private final PrimitiveType.PrimitiveTypeName physical;
    private double[] dictionary;

    Doubles(DoubleVector vector, PrimitiveType.PrimitiveTypeName physical) {
      this.vector = vector;
      this.physical = physical;
    }

    @Override
    TypedVector vector() {
      return vector;
    }

    @Override
    boolean appendPlain(byte[] data, int from, int count) {
      if (physical != PrimitiveType.PrimitiveTypeName.DOUBLE) {
        return false;
      }
      vector.append(ByteBuffer.wrap(data, from, count * 8).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer(), count);
      return true;
    }

    @Override
    public void addFloat(float value) {
      vector.append(value);
    }

    @Override
    public void addDouble(double value) {
      vector.append(value);
    }

    @Override
    public void addBinary(Binary value) {
      vector.append(half(value));
    }

    @Override
    public boolean hasDictionarySupport() {
      return true;
    }

    @Override
    public void setDictionary(Dictionary pageDictionary) {
      dictionary = new double[pageDictionary.getMaxId() + 1];
      for (int id = 0; id < dictionary.length; id++) {
        dictionary[id] = switch (physical) {
          case FLOAT -> pageDictionary.decodeToFloat(id);
          case DOUBLE -> pageDictionary.decodeToDouble(id);
          default -> half(pageDictionary.decodeToBinary(id));
        };
      }
    }

    @Override
    public void addValueFromDictionary(int dictionaryId) {
      vector.append(dictionary[dictionaryId]);
    }
  }

  private static double half(Binary value) {
    return Float16.toFloat(value.get2BytesLittleEndian());
  }

  /**
   * Typed values, converted from the column's physical values by the one of {@code ints}, {@code
   * longs} and {@code binaries} that fits it (all null for booleans).
   */
  private static final class Objects extends Filler {
    private final ObjectVector vector;
    private final IntFunction<Object> ints;
    private final LongFunction<Object> longs;
    private final Function<Binary, Object> binaries;
    private Object[] dictionary;
    /** Whether rows share the dictionary's entries (immutable values), which the vector then knows by id. */
    private boolean sharedEntries;

    Objects(int rows, IntFunction<Object> ints, LongFunction<Object> longs, Function<Binary, Object> binaries) {
      this.vector = new ObjectVector(rows);
      this.ints = ints;
      this.longs = longs;
      this.binaries = binaries;
    }

    @Override
    TypedVector vector() {
      return vector;
    }

    @Override
    public void addBoolean(boolean value) {
      vector.append(value);
    }

    @Override
    public void addInt(int value) {
      vector.append(ints.apply(value));
    }

    @Override
    public void addLong(long value) {
      vector.append(longs.apply(value));
    }

    @Override
    public void addBinary(Binary value) {
      vector.append(binaries.apply(value));
    }

    @Override
    public boolean hasDictionarySupport() {
      return true;
    }

    @Override
    public void setDictionary(Dictionary pageDictionary) {
      dictionary = new Object[pageDictionary.getMaxId() + 1];
      boolean shared = true;
      for (int id = 0; id < dictionary.length; id++) {
        dictionary[id] = ints != null ? ints.apply(pageDictionary.decodeToInt(id))
            : longs != null ? longs.apply(pageDictionary.decodeToLong(id))
            : binaries.apply(pageDictionary.decodeToBinary(id));
        shared &= !(dictionary[id] instanceof byte[]);
      }
      // byte arrays are mutable: each row gets its own, as from the row readers
      sharedEntries = shared;
      if (shared) {
        vector.useDictionary(dictionary);
      }
    }

    @Override
    public void addValueFromDictionary(int dictionaryId) {
      if (sharedEntries) {
        vector.appendEntry(dictionaryId);
        return;
      }
      Object value = dictionary[dictionaryId];
      vector.append(value instanceof byte[] bytes ? bytes.clone() : value);
    }
  }
}
