package io.ktk.flink.state.parquet;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.types.ArrowTypeNames;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.util.Float16;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * Turns typed Java values (the project's value convention, see {@link ParquetRowsWriter}) into
 * Parquet record-consumer calls for the schema {@link ArrowParquetSchemas#toParquet} derives. The
 * tree of writers is built once per schema so that no type is inspected per value.
 */
final class ValueWriters {
  private ValueWriters() {}

  /** Writes one non-null value of a field; throws {@link KtkValidationException} for a bad value. */
  interface ValueWriter {
    void write(RecordConsumer consumer, Object value);
  }

  /** One field of a group: its position, its name, and how to write its value. */
  private record Member(String name, int index, boolean nullable, String path, ValueWriter writer) {
    void write(RecordConsumer consumer, Object value) {
      if (value == null) {
        if (!nullable) {
          throw new KtkValidationException("Cannot write null to column " + path + ": the column is not nullable");
        }
        return;
      }
      consumer.startField(name, index);
      writer.write(consumer, value);
      consumer.endField(name, index);
    }
  }

  /** Writes rows of the schema's fields, one {@code List} of values per row. */
  static final class RowWriter {
    private final List<Member> members;

    RowWriter(Schema schema) {
      List<Member> list = new ArrayList<>();
      List<Field> fields = schema.getFields();
      for (int i = 0; i < fields.size(); i++) {
        Field field = fields.get(i);
        list.add(member(field, field.getName(), i, field.getName()));
      }
      this.members = List.copyOf(list);
    }

    void write(RecordConsumer consumer, List<?> row) {
      if (row.size() != members.size()) {
        throw new KtkValidationException(
            "Cannot write a row of " + row.size() + " values: the schema has " + members.size() + " columns");
      }
      consumer.startMessage();
      for (int i = 0; i < members.size(); i++) {
        members.get(i).write(consumer, row.get(i));
      }
      consumer.endMessage();
    }
  }

  private static Member member(Field field, String name, int index, String path) {
    boolean nullable = field.isNullable() || field.getType().getTypeID() == ArrowType.ArrowTypeID.Null;
    return new Member(name, index, nullable, path, writer(field, path));
  }

  static ValueWriter writer(Field field, String path) {
    ArrowType type = field.getType();
    String typeName = ArrowTypeNames.name(field);
    switch (type.getTypeID()) {
      case Null:
        return (c, v) -> {
          throw bad(path, typeName, v, "a column of type null holds only nulls");
        };
      case Bool:
        return (c, v) -> c.addBoolean(cast(v, Boolean.class, path, typeName));
      case Int:
        return intWriter((ArrowType.Int) type, path, typeName);
      case FloatingPoint:
        return floatWriter(((ArrowType.FloatingPoint) type).getPrecision(), path, typeName);
      case Utf8:
      case LargeUtf8:
        return (c, v) -> c.addBinary(Binary.fromString(cast(v, String.class, path, typeName)));
      case Binary:
      case LargeBinary:
        return (c, v) -> c.addBinary(Binary.fromReusedByteArray(cast(v, byte[].class, path, typeName)));
      case FixedSizeBinary:
        int width = ((ArrowType.FixedSizeBinary) type).getByteWidth();
        return (c, v) -> {
          byte[] bytes = cast(v, byte[].class, path, typeName);
          if (bytes.length != width) {
            throw bad(path, typeName, v, "it has " + bytes.length + " bytes, the type " + width);
          }
          c.addBinary(Binary.fromReusedByteArray(bytes));
        };
      case Date:
        return (c, v) -> {
          long day = cast(v, LocalDate.class, path, typeName).toEpochDay();
          if (day != (int) day) {
            throw bad(path, typeName, v, "it is out of range");
          }
          c.addInteger((int) day);
        };
      case Timestamp:
        return timestampWriter((ArrowType.Timestamp) type, path, typeName);
      case Time:
        return timeWriter(((ArrowType.Time) type).getUnit(), path, typeName);
      case Decimal:
        return decimalWriter((ArrowType.Decimal) type, path, typeName);
      case List:
      case LargeList:
      case FixedSizeList:
        return listWriter(field, path, typeName);
      case Struct:
        return structWriter(field, path, typeName);
      default:
        throw new KtkValidationException(
            "Cannot write column " + path + " of type " + typeName + ": the type is not supported");
    }
  }

  private static ValueWriter intWriter(ArrowType.Int type, String path, String typeName) {
    int bits = type.getBitWidth();
    boolean signed = type.getIsSigned();
    long min = bits == 64 ? Long.MIN_VALUE : signed ? -(1L << (bits - 1)) : 0;
    long max = bits == 64 ? Long.MAX_VALUE : signed ? (1L << (bits - 1)) - 1 : (1L << bits) - 1;
    boolean checkRange = bits < 64;
    return (c, v) -> {
      long value = integral(v, path, typeName);
      if (checkRange && (value < min || value > max)) {
        throw bad(path, typeName, v, "it is out of range [" + min + ", " + max + "]");
      }
      if (bits == 64) {
        c.addLong(value);
      } else {
        c.addInteger((int) value);
      }
    };
  }

  private static long integral(Object v, String path, String typeName) {
    if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
      return ((Number) v).longValue();
    }
    throw bad(path, typeName, v, "expected a Long");
  }

  private static ValueWriter floatWriter(FloatingPointPrecision precision, String path, String typeName) {
    switch (precision) {
      case HALF:
        return (c, v) -> {
          short bits = Float16.toFloat16((float) floating(v, path, typeName));
          c.addBinary(Binary.fromConstantByteArray(new byte[] {(byte) bits, (byte) (bits >> 8)}));
        };
      case SINGLE:
        return (c, v) -> c.addFloat((float) floating(v, path, typeName));
      default:
        return (c, v) -> c.addDouble(floating(v, path, typeName));
    }
  }

  private static double floating(Object v, String path, String typeName) {
    if (v instanceof Double || v instanceof Float) {
      return ((Number) v).doubleValue();
    }
    throw bad(path, typeName, v, "expected a Double");
  }

  private static ValueWriter timestampWriter(ArrowType.Timestamp type, String path, String typeName) {
    // Seconds are stored as milliseconds, as pyarrow does: Parquet has no second unit.
    TimeUnit unit = type.getUnit() == TimeUnit.SECOND ? TimeUnit.MILLISECOND : type.getUnit();
    boolean zoned = type.getTimezone() != null;
    return (c, v) -> {
      long seconds;
      int nanos;
      if (zoned) {
        Instant instant = cast(v, Instant.class, path, typeName);
        seconds = instant.getEpochSecond();
        nanos = instant.getNano();
      } else {
        LocalDateTime dateTime = cast(v, LocalDateTime.class, path, typeName);
        seconds = dateTime.toEpochSecond(ZoneOffset.UTC);
        nanos = dateTime.getNano();
      }
      c.addLong(epochUnits(seconds, nanos, unit, v, path, typeName));
    };
  }

  private static long epochUnits(long seconds, int nanos, TimeUnit unit, Object v, String path, String typeName) {
    long nanosPerUnit = nanosPerUnit(unit);
    if (nanos % nanosPerUnit != 0) {
      throw bad(path, typeName, v, "it has more precision than the unit " + unit + " holds");
    }
    try {
      return Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L / nanosPerUnit), nanos / nanosPerUnit);
    } catch (ArithmeticException e) {
      throw bad(path, typeName, v, "it is out of range");
    }
  }

  static long nanosPerUnit(TimeUnit unit) {
    switch (unit) {
      case SECOND:
        return 1_000_000_000L;
      case MILLISECOND:
        return 1_000_000L;
      case MICROSECOND:
        return 1_000L;
      default:
        return 1L;
    }
  }

  private static ValueWriter timeWriter(TimeUnit arrowUnit, String path, String typeName) {
    TimeUnit unit = arrowUnit == TimeUnit.SECOND ? TimeUnit.MILLISECOND : arrowUnit;
    long nanosPerUnit = nanosPerUnit(unit);
    return (c, v) -> {
      long nanoOfDay = cast(v, LocalTime.class, path, typeName).toNanoOfDay();
      if (nanoOfDay % nanosPerUnit != 0) {
        throw bad(path, typeName, v, "it has more precision than the unit " + arrowUnit + " holds");
      }
      if (unit == TimeUnit.MILLISECOND) {
        c.addInteger((int) (nanoOfDay / nanosPerUnit));
      } else {
        c.addLong(nanoOfDay / nanosPerUnit);
      }
    };
  }

  private static ValueWriter decimalWriter(ArrowType.Decimal type, String path, String typeName) {
    int precision = type.getPrecision();
    int scale = type.getScale();
    int width = ArrowParquetSchemas.decimalByteWidth(precision);
    BigInteger limit = BigInteger.TEN.pow(precision);
    return (c, v) -> {
      BigDecimal decimal = cast(v, BigDecimal.class, path, typeName);
      BigInteger unscaled;
      try {
        unscaled = decimal.setScale(scale).unscaledValue();
      } catch (ArithmeticException e) {
        throw bad(path, typeName, v, "it has more than " + scale + " digits after the point");
      }
      if (unscaled.abs().compareTo(limit) >= 0) {
        throw bad(path, typeName, v, "it has more than " + precision + " digits");
      }
      c.addBinary(Binary.fromConstantByteArray(twosComplement(unscaled, width)));
    };
  }

  /** Big-endian two's complement of {@code value} in exactly {@code width} bytes. */
  static byte[] twosComplement(BigInteger value, int width) {
    byte[] minimal = value.toByteArray();
    byte[] bytes = new byte[width];
    byte fill = (byte) (value.signum() < 0 ? 0xFF : 0);
    int pad = width - minimal.length;
    for (int i = 0; i < pad; i++) {
      bytes[i] = fill;
    }
    System.arraycopy(minimal, 0, bytes, pad, minimal.length);
    return bytes;
  }

  private static ValueWriter listWriter(Field field, String path, String typeName) {
    Field element = field.getChildren().get(0);
    Member member = member(element, "element", 0, path + ".element");
    Integer fixedSize = field.getType() instanceof ArrowType.FixedSizeList
        ? ((ArrowType.FixedSizeList) field.getType()).getListSize()
        : null;
    return (c, v) -> {
      List<?> list = cast(v, List.class, path, typeName);
      if (fixedSize != null && list.size() != fixedSize) {
        throw bad(path, typeName, v, "it has " + list.size() + " elements, the type " + fixedSize);
      }
      c.startGroup();
      if (!list.isEmpty()) {
        c.startField("list", 0);
        for (Object item : list) {
          c.startGroup();
          member.write(c, item);
          c.endGroup();
        }
        c.endField("list", 0);
      }
      c.endGroup();
    };
  }

  private static ValueWriter structWriter(Field field, String path, String typeName) {
    List<Field> children = field.getChildren();
    List<Member> members = new ArrayList<>();
    for (int i = 0; i < children.size(); i++) {
      Field child = children.get(i);
      members.add(member(child, child.getName(), i, path + "." + child.getName()));
    }
    return (c, v) -> {
      Map<?, ?> map = cast(v, Map.class, path, typeName);
      for (Object key : map.keySet()) {
        if (members.stream().noneMatch(m -> m.name().equals(key))) {
          throw bad(path, typeName, v, "it has no member named " + key);
        }
      }
      c.startGroup();
      for (Member m : members) {
        m.write(c, map.get(m.name()));
      }
      c.endGroup();
    };
  }

  private static <T> T cast(Object v, Class<T> type, String path, String typeName) {
    if (!type.isInstance(v)) {
      throw bad(path, typeName, v, "expected a " + type.getSimpleName());
    }
    return type.cast(v);
  }

  private static KtkValidationException bad(String path, String typeName, Object v, String reason) {
    return new KtkValidationException(
        "Cannot write value " + describe(v) + " to column " + path + " of type " + typeName + ": " + reason);
  }

  /** A value for a message: its text (at most 100 characters) and its Java type. */
  static String describe(Object v) {
    if (v == null) {
      return "null";
    }
    String text;
    if (v instanceof byte[]) {
      byte[] bytes = (byte[]) v;
      text = "0x" + HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, 48));
    } else if (v instanceof String) {
      text = "'" + v + "'";
    } else {
      text = String.valueOf(v);
    }
    if (text.length() > 100) {
      text = text.substring(0, 97) + "...";
    }
    return text + " (" + v.getClass().getSimpleName() + ")";
  }
}
