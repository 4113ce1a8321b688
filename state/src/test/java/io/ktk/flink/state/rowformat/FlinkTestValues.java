package io.ktk.flink.state.rowformat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

/** Test-side Flink types and internal values for the Arrow types and Java values of the tests. */
final class FlinkTestValues {
  /** The scalar Arrow types a Flink type maps to exactly. */
  static final List<ArrowType> SCALARS = List.of(
      ArrowType.Bool.INSTANCE,
      new ArrowType.Int(8, true), new ArrowType.Int(16, true),
      new ArrowType.Int(32, true), new ArrowType.Int(64, true),
      new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE),
      new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE),
      new ArrowType.Date(DateUnit.DAY),
      new ArrowType.Time(TimeUnit.MILLISECOND, 32),
      new ArrowType.Timestamp(TimeUnit.MICROSECOND, null),
      new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"),
      new ArrowType.Decimal(38, 4, 128), new ArrowType.Decimal(10, 2, 128),
      ArrowType.Utf8.INSTANCE, ArrowType.LargeUtf8.INSTANCE,
      ArrowType.Binary.INSTANCE, ArrowType.LargeBinary.INSTANCE);

  private FlinkTestValues() {}

  /** The Flink type of a field, or null if none maps to it exactly. */
  static LogicalType logicalType(Field field) {
    ArrowType type = field.getType();
    if (type instanceof ArrowType.Struct) {
      List<RowType.RowField> fields = new ArrayList<>();
      for (Field child : field.getChildren()) {
        LogicalType t = logicalType(child);
        if (t == null) {
          return null;
        }
        fields.add(new RowType.RowField(child.getName(), t));
      }
      return new RowType(fields);
    }
    if (type instanceof ArrowType.List) {
      LogicalType element = logicalType(field.getChildren().get(0));
      return element == null ? null : new ArrayType(element);
    }
    if (!SCALARS.contains(type)) {
      return null;
    }
    return switch (type.getTypeID()) {
      case Bool -> new BooleanType();
      case Int -> switch (((ArrowType.Int) type).getBitWidth()) {
        case 8 -> new TinyIntType();
        case 16 -> new SmallIntType();
        case 32 -> new IntType();
        default -> new BigIntType();
      };
      case FloatingPoint -> ((ArrowType.FloatingPoint) type).getPrecision()
          == FloatingPointPrecision.SINGLE ? new FloatType() : new DoubleType();
      case Date -> new DateType();
      case Time -> new TimeType(3);
      case Timestamp -> ((ArrowType.Timestamp) type).getTimezone() == null
          ? new TimestampType(6) : new LocalZonedTimestampType(6);
      case Decimal -> new DecimalType(
          ((ArrowType.Decimal) type).getPrecision(), ((ArrowType.Decimal) type).getScale());
      case Utf8, LargeUtf8 -> new VarCharType(VarCharType.MAX_LENGTH);
      case Binary, LargeBinary -> new VarBinaryType(VarBinaryType.MAX_LENGTH);
      default -> null;
    };
  }

  /** Flink's internal value for a Java value of the tests. */
  static Object internal(Field field, Object value, boolean stringsFromBytes) {
    if (value == null) {
      return null;
    }
    ArrowType type = field.getType();
    switch (type.getTypeID()) {
      case Struct: {
        List<?> values = (List<?>) value;
        GenericRowData row = new GenericRowData(values.size());
        for (int c = 0; c < values.size(); c++) {
          row.setField(c, internal(field.getChildren().get(c), values.get(c), stringsFromBytes));
        }
        return row;
      }
      case List: {
        List<?> values = (List<?>) value;
        Object[] elements = new Object[values.size()];
        for (int k = 0; k < elements.length; k++) {
          elements[k] = internal(field.getChildren().get(0), values.get(k), stringsFromBytes);
        }
        return new GenericArrayData(elements);
      }
      case Int: {
        long v = (Long) value;
        return switch (((ArrowType.Int) type).getBitWidth()) {
          case 8 -> (byte) v;
          case 16 -> (short) v;
          case 32 -> (int) v;
          default -> v;
        };
      }
      case Date:
      case Time:
        return (int) (long) (Long) value;
      case Timestamp: {
        long micros = (Long) value;
        return TimestampData.fromEpochMillis(
            Math.floorDiv(micros, 1000), (int) Math.floorMod(micros, 1000) * 1000);
      }
      case Decimal: {
        ArrowType.Decimal t = (ArrowType.Decimal) type;
        return DecimalData.fromBigDecimal((BigDecimal) value, t.getPrecision(), t.getScale());
      }
      case Utf8:
      case LargeUtf8:
        return stringsFromBytes
            ? BinaryStringData.fromBytes(((String) value).getBytes(StandardCharsets.UTF_8))
            : StringData.fromString((String) value);
      default:
        return value; // Boolean, Float, Double, byte[]
    }
  }
}
