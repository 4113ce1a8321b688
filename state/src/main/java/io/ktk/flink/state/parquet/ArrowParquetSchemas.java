package io.ktk.flink.state.parquet;

import static org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit.MICROS;
import static org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit.MILLIS;
import static org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit.NANOS;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BOOLEAN;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.DOUBLE;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.FLOAT;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT32;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT64;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.types.ArrowTypeNames;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.schema.ColumnOrder;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * Maps Arrow schemas to Parquet schemas the way pyarrow (format version 2.6) writes them, and
 * Parquet schemas back to Arrow the way pyarrow reads files that carry no {@code ARROW:schema}.
 *
 * <pre>
 * Arrow                      Parquet
 * int8 / int16               INT32 INTEGER(8|16, signed)
 * int32 / int64              INT32 / INT64, no annotation (as pyarrow writes them)
 * uint8 / uint16 / uint32    INT32 INTEGER(8|16|32, unsigned)
 * uint64                     INT64 INTEGER(64, unsigned)
 * float16 / float32 / float64  FIXED_LEN_BYTE_ARRAY(2) FLOAT16 / FLOAT / DOUBLE (column order TYPE_ORDER)
 * bool                       BOOLEAN
 * string, large_string       BINARY STRING
 * binary, large_binary       BINARY
 * fixed_size_binary[n]       FIXED_LEN_BYTE_ARRAY(n)
 * date32, date64             INT32 DATE
 * timestamp[s|ms]            INT64 TIMESTAMP(MILLIS, isAdjustedToUTC = tz != null)
 * timestamp[us]              INT64 TIMESTAMP(MICROS, isAdjustedToUTC = tz != null)
 * timestamp[ns]              INT64 TIMESTAMP(NANOS, isAdjustedToUTC = tz != null)
 * time32[s|ms]               INT32 TIME(MILLIS, isAdjustedToUTC = false)
 * time64[us|ns]              INT64 TIME(MICROS|NANOS, isAdjustedToUTC = false)
 * decimal128(p, s)           FIXED_LEN_BYTE_ARRAY(w) DECIMAL(p, s), w = bytes for p digits + sign
 * list&lt;T&gt;                    group (LIST) { repeated group list { element } }
 * struct&lt;...&gt;              group { members }
 * null                       INT32 UNKNOWN (optional: every value is null)
 * </pre>
 *
 * <p>A nullable field is {@code optional}, a non-nullable one {@code required}; the root is the
 * message {@code schema}. Dictionary-encoded fields map as their value type. Reading, a Parquet
 * list element becomes a field named {@code element}, like pyarrow names it.
 */
public final class ArrowParquetSchemas {
  private ArrowParquetSchemas() {}

  /** The Parquet schema pyarrow writes for {@code schema}. */
  public static MessageType toParquet(Schema schema) {
    List<Type> fields = new ArrayList<>();
    for (Field field : schema.getFields()) {
      fields.add(toParquet(field, field.getName()));
    }
    return new MessageType("schema", fields);
  }

  /**
   * The byte width pyarrow uses for a decimal of {@code precision} digits: the fewest bytes whose
   * two's complement holds {@code 10^precision - 1}, e.g. 2 for precision 3, 5 for 10, 16 for 38.
   */
  public static int decimalByteWidth(int precision) {
    if (precision < 1) {
      throw new IllegalArgumentException("precision must be positive: " + precision);
    }
    int bits = BigInteger.TEN.pow(precision).subtract(BigInteger.ONE).bitLength() + 1;
    return (bits + 7) / 8;
  }

  private static Type toParquet(Field field, String path) {
    Type.Repetition repetition = field.isNullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
    ArrowType type = field.getType();
    String name = field.getName();
    switch (type.getTypeID()) {
      case Null:
        return Types.primitive(INT32, Type.Repetition.OPTIONAL).as(LogicalTypeAnnotation.unknownType()).named(name);
      case Bool:
        return Types.primitive(BOOLEAN, repetition).named(name);
      case Int:
        ArrowType.Int i = (ArrowType.Int) type;
        if (i.getIsSigned() && i.getBitWidth() == 32) {
          return Types.primitive(INT32, repetition).named(name);
        }
        if (i.getIsSigned() && i.getBitWidth() == 64) {
          return Types.primitive(INT64, repetition).named(name);
        }
        return Types.primitive(i.getBitWidth() == 64 ? INT64 : INT32, repetition)
            .as(LogicalTypeAnnotation.intType(i.getBitWidth(), i.getIsSigned()))
            .named(name);
      case FloatingPoint:
        FloatingPointPrecision precision = ((ArrowType.FloatingPoint) type).getPrecision();
        if (precision == FloatingPointPrecision.HALF) {
          return Types.primitive(FIXED_LEN_BYTE_ARRAY, repetition)
              .length(2)
              .as(LogicalTypeAnnotation.float16Type())
              .named(name);
        }
        // TYPE_ORDER, as pyarrow writes it: parquet-java's default for floating point,
        // IEEE_754_TOTAL_ORDER, is newer than pyarrow knows (25 at least): it would ignore the
        // bounds, and so would readers built on Arrow C++. Under TYPE_ORDER, parquet-java keeps NaN out of min/max (and
        // counts it in nan_count) and writes a zero bound as -0.0 for min and +0.0 for max, as the
        // format asks.
        return Types.primitive(precision == FloatingPointPrecision.SINGLE ? FLOAT : DOUBLE, repetition)
            .columnOrder(ColumnOrder.typeDefined())
            .named(name);
      case Utf8:
      case LargeUtf8:
        return Types.primitive(BINARY, repetition).as(LogicalTypeAnnotation.stringType()).named(name);
      case Binary:
      case LargeBinary:
        return Types.primitive(BINARY, repetition).named(name);
      case FixedSizeBinary:
        return Types.primitive(FIXED_LEN_BYTE_ARRAY, repetition)
            .length(((ArrowType.FixedSizeBinary) type).getByteWidth())
            .named(name);
      case Date:
        return Types.primitive(INT32, repetition).as(LogicalTypeAnnotation.dateType()).named(name);
      case Timestamp:
        ArrowType.Timestamp ts = (ArrowType.Timestamp) type;
        return Types.primitive(INT64, repetition)
            .as(LogicalTypeAnnotation.timestampType(ts.getTimezone() != null, parquetUnit(ts.getUnit())))
            .named(name);
      case Time:
        TimeUnit timeUnit = ((ArrowType.Time) type).getUnit();
        LogicalTypeAnnotation.TimeUnit parquetUnit = parquetUnit(timeUnit);
        return Types.primitive(parquetUnit == MILLIS ? INT32 : INT64, repetition)
            .as(LogicalTypeAnnotation.timeType(false, parquetUnit))
            .named(name);
      case Decimal:
        ArrowType.Decimal d = (ArrowType.Decimal) type;
        return Types.primitive(FIXED_LEN_BYTE_ARRAY, repetition)
            .length(decimalByteWidth(d.getPrecision()))
            .as(LogicalTypeAnnotation.decimalType(d.getScale(), d.getPrecision()))
            .named(name);
      case List:
      case LargeList:
      case FixedSizeList:
        Field element = field.getChildren().get(0);
        Type parquetElement = toParquet(renamed(element, "element"), path + ".element");
        return Types.buildGroup(repetition)
            .as(LogicalTypeAnnotation.listType())
            .addField(Types.repeatedGroup().addField(parquetElement).named("list"))
            .named(name);
      case Struct:
        if (field.getChildren().isEmpty()) {
          throw unsupported(field, path, "a struct without members cannot be stored in Parquet");
        }
        Types.GroupBuilder<GroupType> group = Types.buildGroup(repetition);
        for (Field child : field.getChildren()) {
          group.addField(toParquet(child, path + "." + child.getName()));
        }
        return group.named(name);
      default:
        throw unsupported(field, path, "the type is not supported");
    }
  }

  private static Field renamed(Field field, String name) {
    return new Field(name, field.getFieldType(), field.getChildren());
  }

  private static LogicalTypeAnnotation.TimeUnit parquetUnit(TimeUnit unit) {
    switch (unit) {
      case SECOND:
      case MILLISECOND:
        return MILLIS;
      case MICROSECOND:
        return MICROS;
      default:
        return NANOS;
    }
  }

  private static KtkValidationException unsupported(Field field, String path, String reason) {
    return new KtkValidationException(
        "Cannot map column " + path + " of type " + ArrowTypeNames.name(field) + " to Parquet: " + reason);
  }

  /**
   * The Arrow schema pyarrow reads from a Parquet schema alone. Throws {@link
   * CorruptDatasetException} for Parquet types this project cannot read (maps, repeated fields
   * outside lists, intervals).
   */
  public static Schema toArrow(MessageType schema) {
    List<Field> fields = new ArrayList<>();
    for (Type field : schema.getFields()) {
      fields.add(toArrow(field, field.getName()));
    }
    return new Schema(fields);
  }

  private static Field toArrow(Type type, String path) {
    if (type.isRepetition(Type.Repetition.REPEATED)) {
      throw unreadable(type, path, "repeated fields outside a LIST are not supported");
    }
    boolean nullable = type.isRepetition(Type.Repetition.OPTIONAL);
    if (type.isPrimitive()) {
      ArrowType arrowType = primitiveToArrow(type.asPrimitiveType(), path);
      return new Field(type.getName(), new FieldType(nullable, arrowType, null), null);
    }
    GroupType group = type.asGroupType();
    LogicalTypeAnnotation annotation = group.getLogicalTypeAnnotation();
    if (annotation instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
      Field element = listElement(group, path);
      return new Field(type.getName(), new FieldType(nullable, ArrowType.List.INSTANCE, null), List.of(element));
    }
    if (annotation != null) {
      throw unreadable(type, path, "groups annotated " + annotation + " are not supported");
    }
    List<Field> children = new ArrayList<>();
    for (Type child : group.getFields()) {
      children.add(toArrow(child, path + "." + child.getName()));
    }
    return new Field(type.getName(), new FieldType(nullable, ArrowType.Struct.INSTANCE, null), children);
  }

  /**
   * The element of a LIST group, following the format's backward-compatibility rules: the
   * standard three levels, a repeated primitive, or a repeated group that is itself the element.
   */
  private static Field listElement(GroupType list, String path) {
    if (list.getFieldCount() != 1 || !list.getType(0).isRepetition(Type.Repetition.REPEATED)) {
      throw unreadable(list, path, "a LIST group must have exactly one repeated field");
    }
    Type repeated = list.getType(0);
    if (ListShape.isElementItself(list, repeated)) {
      Type required = repeated.isPrimitive()
          ? Types.required(repeated.asPrimitiveType().getPrimitiveTypeName())
              .length(repeated.asPrimitiveType().getTypeLength())
              .as(repeated.getLogicalTypeAnnotation())
              .named("element")
          : Types.requiredGroup().addFields(repeated.asGroupType().getFields().toArray(new Type[0])).named("element");
      return toArrow(required, path + ".element");
    }
    Type element = repeated.asGroupType().getType(0);
    Field field = toArrow(element, path + ".element");
    return new Field("element", field.getFieldType(), field.getChildren());
  }

  private static ArrowType primitiveToArrow(PrimitiveType type, String path) {
    LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
    switch (type.getPrimitiveTypeName()) {
      case BOOLEAN:
        if (annotation == null) {
          return ArrowType.Bool.INSTANCE;
        }
        break;
      case INT32:
      case INT64:
        boolean is64 = type.getPrimitiveTypeName() == INT64;
        if (annotation == null) {
          return new ArrowType.Int(is64 ? 64 : 32, true);
        }
        if (annotation instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation) {
          LogicalTypeAnnotation.IntLogicalTypeAnnotation i =
              (LogicalTypeAnnotation.IntLogicalTypeAnnotation) annotation;
          return new ArrowType.Int(i.getBitWidth(), i.isSigned());
        }
        if (annotation instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) {
          return decimal((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) annotation);
        }
        if (!is64 && annotation instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
          return new ArrowType.Date(DateUnit.DAY);
        }
        if (!is64 && annotation instanceof LogicalTypeAnnotation.UnknownLogicalTypeAnnotation) {
          return ArrowType.Null.INSTANCE;
        }
        if (annotation instanceof LogicalTypeAnnotation.TimeLogicalTypeAnnotation) {
          LogicalTypeAnnotation.TimeUnit unit =
              ((LogicalTypeAnnotation.TimeLogicalTypeAnnotation) annotation).getUnit();
          if ((unit == MILLIS) != is64) {
            return new ArrowType.Time(arrowUnit(unit), is64 ? 64 : 32);
          }
        }
        if (is64 && annotation instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) {
          LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts =
              (LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) annotation;
          return new ArrowType.Timestamp(arrowUnit(ts.getUnit()), ts.isAdjustedToUTC() ? "UTC" : null);
        }
        break;
      case INT96:
        return new ArrowType.Timestamp(TimeUnit.NANOSECOND, null);
      case FLOAT:
        if (annotation == null) {
          return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
        }
        break;
      case DOUBLE:
        if (annotation == null) {
          return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
        }
        break;
      case BINARY:
        if (annotation == null || annotation instanceof LogicalTypeAnnotation.BsonLogicalTypeAnnotation) {
          return ArrowType.Binary.INSTANCE;
        }
        if (annotation instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
            || annotation instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
            || annotation instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
          return ArrowType.Utf8.INSTANCE;
        }
        if (annotation instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) {
          return decimal((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) annotation);
        }
        break;
      case FIXED_LEN_BYTE_ARRAY:
        if (annotation == null || annotation instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation) {
          return new ArrowType.FixedSizeBinary(type.getTypeLength());
        }
        if (annotation instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) {
          return decimal((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) annotation);
        }
        if (annotation instanceof LogicalTypeAnnotation.Float16LogicalTypeAnnotation && type.getTypeLength() == 2) {
          return new ArrowType.FloatingPoint(FloatingPointPrecision.HALF);
        }
        break;
      default:
        break;
    }
    throw unreadable(type, path, "the type is not supported");
  }

  private static ArrowType decimal(LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
    return new ArrowType.Decimal(d.getPrecision(), d.getScale(), d.getPrecision() > 38 ? 256 : 128);
  }

  private static TimeUnit arrowUnit(LogicalTypeAnnotation.TimeUnit unit) {
    switch (unit) {
      case MILLIS:
        return TimeUnit.MILLISECOND;
      case MICROS:
        return TimeUnit.MICROSECOND;
      default:
        return TimeUnit.NANOSECOND;
    }
  }

  private static CorruptDatasetException unreadable(Type type, String path, String reason) {
    return new CorruptDatasetException(
        "Cannot map Parquet column " + path + " (" + type.toString().trim() + ") to Arrow: " + reason);
  }

  /** How a LIST group nests its element; shared by the schema mapping and the row reader. */
  static final class ListShape {
    private ListShape() {}

    /**
     * Whether the repeated field of a LIST group is the element itself (legacy two-level lists)
     * rather than a wrapper around it: true for a repeated primitive, a repeated group of several
     * fields, or one named {@code array} or {@code <list>_tuple}.
     */
    static boolean isElementItself(GroupType list, Type repeated) {
      if (repeated.isPrimitive()) {
        return true;
      }
      GroupType group = repeated.asGroupType();
      return group.getFieldCount() != 1
          || group.getName().equals("array")
          || group.getName().equals(list.getName() + "_tuple");
    }
  }
}
