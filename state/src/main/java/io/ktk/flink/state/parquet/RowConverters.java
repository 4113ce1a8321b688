package io.ktk.flink.state.parquet;

import io.ktk.flink.state.CorruptDatasetException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.LongFunction;
import org.apache.arrow.memory.util.Float16;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * parquet-column converters that assemble typed Java values (the convention of {@link
 * ParquetRowsWriter}) from a file's columns, one converter per Parquet field. A field whose value
 * is null never sees {@code start()} or an {@code add*} call, so its slot keeps null.
 */
final class RowConverters {
  private RowConverters() {}

  /**
   * Materializes rows of the projected fields; {@code slots[i]} is the position in the row of
   * the projection's field {@code i}.
   */
  static final class RowMaterializer extends RecordMaterializer<List<Object>> {
    private final Root root;

    RowMaterializer(MessageType projection, int[] slots, int width) {
      this.root = new Root(projection, slots, width);
    }

    @Override
    public List<Object> getCurrentRecord() {
      return Collections.unmodifiableList(Arrays.asList(root.row));
    }

    @Override
    public GroupConverter getRootConverter() {
      return root;
    }
  }

  private static final class Root extends GroupConverter {
    private final Converter[] converters;
    private final int width;
    private Object[] row;

    Root(MessageType projection, int[] slots, int width) {
      this.width = width;
      this.converters = new Converter[projection.getFieldCount()];
      for (int i = 0; i < converters.length; i++) {
        int slot = slots[i];
        Type field = projection.getType(i);
        converters[i] = converter(field, field.getName(), v -> row[slot] = v);
      }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return converters[fieldIndex];
    }

    @Override
    public void start() {
      row = new Object[width];
    }

    @Override
    public void end() {}
  }

  static Converter converter(Type type, String path, Consumer<Object> sink) {
    if (type.isPrimitive()) {
      return primitive(type.asPrimitiveType(), path, sink);
    }
    GroupType group = type.asGroupType();
    if (group.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
      return new ListConverter(group, path, sink);
    }
    return new StructConverter(group, path, sink);
  }

  private static final class StructConverter extends GroupConverter {
    private final List<String> names = new ArrayList<>();
    private final Converter[] converters;
    private final Consumer<Object> sink;
    private Map<String, Object> members;

    StructConverter(GroupType group, String path, Consumer<Object> sink) {
      this.sink = sink;
      this.converters = new Converter[group.getFieldCount()];
      for (int i = 0; i < converters.length; i++) {
        String name = group.getType(i).getName();
        names.add(name);
        converters[i] = converter(group.getType(i), path + "." + name, v -> members.put(name, v));
      }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return converters[fieldIndex];
    }

    @Override
    public void start() {
      members = new LinkedHashMap<>();
      for (String name : names) {
        members.put(name, null);
      }
    }

    @Override
    public void end() {
      sink.accept(Collections.unmodifiableMap(members));
    }
  }

  /** A LIST group: three levels (list / repeated group / element) or a legacy two-level one. */
  private static final class ListConverter extends GroupConverter {
    private final Converter repeated;
    private final Consumer<Object> sink;
    private List<Object> elements;

    ListConverter(GroupType list, String path, Consumer<Object> sink) {
      this.sink = sink;
      Type repeatedType = list.getType(0);
      if (ArrowParquetSchemas.ListShape.isElementItself(list, repeatedType)) {
        repeated = repeatedType.isPrimitive()
            ? primitive(repeatedType.asPrimitiveType(), path + ".element", v -> elements.add(v))
            : new StructConverter(repeatedType.asGroupType(), path + ".element", v -> elements.add(v));
      } else {
        repeated = new ElementConverter(repeatedType.asGroupType(), path, v -> elements.add(v));
      }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return repeated;
    }

    @Override
    public void start() {
      elements = new ArrayList<>();
    }

    @Override
    public void end() {
      sink.accept(Collections.unmodifiableList(elements));
    }
  }

  /** The repeated middle level of a three-level list: one entry per element, null or not. */
  private static final class ElementConverter extends GroupConverter {
    private final Converter element;
    private final Consumer<Object> sink;
    private Object value;

    ElementConverter(GroupType repeated, String path, Consumer<Object> sink) {
      this.sink = sink;
      this.element = converter(repeated.getType(0), path + ".element", v -> value = v);
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return element;
    }

    @Override
    public void start() {
      value = null;
    }

    @Override
    public void end() {
      sink.accept(value);
    }
  }

  private static PrimitiveConverter primitive(PrimitiveType type, String path, Consumer<Object> sink) {
    LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
    switch (type.getPrimitiveTypeName()) {
      case BOOLEAN:
        return new PrimitiveConverter() {
          @Override
          public void addBoolean(boolean value) {
            sink.accept(value);
          }
        };
      case INT32:
        return ints(sink, int32(annotation, path, type));
      case INT64:
        return longs(sink, int64(annotation, path, type));
      case INT96:
        return binaries(sink, RowConverters::int96);
      case FLOAT:
        return new PrimitiveConverter() {
          @Override
          public void addFloat(float value) {
            sink.accept((double) value);
          }
        };
      case DOUBLE:
        return new PrimitiveConverter() {
          @Override
          public void addDouble(double value) {
            sink.accept(value);
          }
        };
      default:
        return binaries(sink, binary(annotation, type));
    }
  }

  static IntFunction<Object> int32(LogicalTypeAnnotation annotation, String path, PrimitiveType type) {
    if (annotation == null) {
      return v -> (long) v;
    }
    if (annotation instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation) {
      return ((LogicalTypeAnnotation.IntLogicalTypeAnnotation) annotation).isSigned()
          ? v -> (long) v
          : v -> Integer.toUnsignedLong(v);
    }
    if (annotation instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
      return v -> LocalDate.ofEpochDay(v);
    }
    if (annotation instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) {
      int scale = ((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) annotation).getScale();
      return v -> BigDecimal.valueOf(v, scale);
    }
    if (annotation instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation) {
      return v -> LocalTime.ofNanoOfDay(v * 1_000_000L);
    }
    if (annotation instanceof LogicalTypeAnnotation.UnknownLogicalTypeAnnotation) {
      return v -> null;
    }
    throw unreadable(path, type);
  }

  static LongFunction<Object> int64(LogicalTypeAnnotation annotation, String path, PrimitiveType type) {
    if (annotation == null || annotation instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation) {
      return v -> v;
    }
    if (annotation instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) {
      int scale = ((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) annotation).getScale();
      return v -> BigDecimal.valueOf(v, scale);
    }
    if (annotation instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) {
      LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts =
          (LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) annotation;
      long nanosPerUnit = nanosPerUnit(ts.getUnit());
      long unitsPerSecond = 1_000_000_000L / nanosPerUnit;
      if (ts.isAdjustedToUTC()) {
        return v -> Instant.ofEpochSecond(
            Math.floorDiv(v, unitsPerSecond), Math.floorMod(v, unitsPerSecond) * nanosPerUnit);
      }
      return v -> LocalDateTime.ofEpochSecond(
          Math.floorDiv(v, unitsPerSecond), (int) (Math.floorMod(v, unitsPerSecond) * nanosPerUnit), ZoneOffset.UTC);
    }
    if (annotation instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation) {
      long nanosPerUnit = nanosPerUnit(((LogicalTypeAnnotation.TimeLogicalTypeAnnotation) annotation).getUnit());
      return v -> LocalTime.ofNanoOfDay(v * nanosPerUnit);
    }
    throw unreadable(path, type);
  }

  static Function<Binary, Object> binary(LogicalTypeAnnotation annotation, PrimitiveType type) {
    if (annotation instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
        || annotation instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
        || annotation instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
      return Binary::toStringUsingUTF8;
    }
    if (annotation instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) {
      int scale = ((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) annotation).getScale();
      return b -> new BigDecimal(new BigInteger(b.getBytes()), scale);
    }
    if (annotation instanceof LogicalTypeAnnotation.Float16LogicalTypeAnnotation) {
      return b -> (double) Float16.toFloat(b.get2BytesLittleEndian());
    }
    return b -> b.getBytes().clone();
  }

  /** An INT96 timestamp (legacy): 8 bytes nanosecond of day, 4 bytes Julian day, little-endian. */
  static Object int96(Binary binary) {
    ByteBuffer bytes = binary.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    long nanoOfDay = bytes.getLong();
    long julianDay = bytes.getInt();
    long epochDay = julianDay - 2_440_588L;
    return LocalDateTime.of(LocalDate.ofEpochDay(epochDay), LocalTime.MIDNIGHT).plusNanos(nanoOfDay);
  }

  static long nanosPerUnit(LogicalTypeAnnotation.TimeUnit unit) {
    switch (unit) {
      case MILLIS:
        return 1_000_000L;
      case MICROS:
        return 1_000L;
      default:
        return 1L;
    }
  }

  private static PrimitiveConverter ints(Consumer<Object> sink, IntFunction<Object> convert) {
    return new PrimitiveConverter() {
      @Override
      public void addInt(int value) {
        sink.accept(convert.apply(value));
      }
    };
  }

  private static PrimitiveConverter longs(Consumer<Object> sink, LongFunction<Object> convert) {
    return new PrimitiveConverter() {
      @Override
      public void addLong(long value) {
        sink.accept(convert.apply(value));
      }
    };
  }

  private static PrimitiveConverter binaries(Consumer<Object> sink, Function<Binary, Object> convert) {
    return new PrimitiveConverter() {
      @Override
      public void addBinary(Binary value) {
        sink.accept(convert.apply(value));
      }
    };
  }

  private static CorruptDatasetException unreadable(String path, PrimitiveType type) {
    return new CorruptDatasetException(
        "Cannot read Parquet column " + path + " (" + type.toString().trim() + "): the type is not supported");
  }
}
