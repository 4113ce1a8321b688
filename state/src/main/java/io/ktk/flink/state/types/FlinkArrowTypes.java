package io.ktk.flink.state.types;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.NullType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Maps Flink SQL types to Arrow fields (for writing) and back (for reading).
 *
 * <p>Flink to Arrow (nullability follows the Flink type):
 * <pre>
 * TINYINT -> int8     SMALLINT -> int16     INT -> int32     BIGINT -> int64
 * FLOAT -> float      DOUBLE -> double      BOOLEAN -> bool
 * CHAR(n), VARCHAR(n) -> string             BINARY(n), VARBINARY(n) -> binary
 * DATE -> date32[day]                       TIME(p) -> time64[us]
 * TIMESTAMP(p) -> timestamp[us]             TIMESTAMP_LTZ(p) -> timestamp[us, tz=UTC]
 * DECIMAL(p, s) -> decimal128(p, s)         NULL -> null
 * ARRAY&lt;T&gt; -> list&lt;item: T&gt;              ROW&lt;a T, b U&gt; -> struct&lt;a: T, b: U&gt;
 * MULTISET, MAP, TIMESTAMP WITH TIME ZONE, INTERVAL, RAW, structured types, ... -> UnsupportedTypeException
 * </pre>
 *
 * <p>Timestamps are {@code us} whatever their precision, because Kartothek stores microseconds
 * (values with a finer part are rejected by {@link TimestampCoercion}). {@code TIME(p)} is
 * {@code time64[us]} for every {@code p}: it is what pyarrow infers for Python's
 * {@code datetime.time}, and one fixed unit keeps all writers of a dataset in one type
 * (Kartothek does not normalize {@code time32} and {@code time64}). The list element field is
 * named {@code item}, as pyarrow names it.
 *
 * <p>Arrow to Flink, for reading stored data (a dictionary-encoded field maps like its values):
 * <pre>
 * int8/16/32/64 -> TINYINT/SMALLINT/INT/BIGINT
 * uint8 -> SMALLINT   uint16 -> INT   uint32 -> BIGINT   uint64 -> DECIMAL(20, 0)
 *   (unsigned types take the next type that holds every value)
 * halffloat, float -> FLOAT   double -> DOUBLE   bool -> BOOLEAN
 * string, large_string, string_view -> STRING   binary, large_binary, binary_view -> BYTES
 * fixed_size_binary[n] -> BINARY(n)   date32, date64 -> DATE
 * time32[s]/time32[ms]/time64[us]/time64[ns] -> TIME(0)/TIME(3)/TIME(6)/TIME(9)
 * timestamp[unit] -> TIMESTAMP(0/3/6/9)   timestamp[unit, tz=any zone] -> TIMESTAMP_LTZ(0/3/6/9)
 * decimal(p, s) with p &lt;= 38 -> DECIMAL(p, s)   null -> NULL
 * list, large_list, fixed_size_list -> ARRAY   struct -> ROW
 * </pre>
 */
public final class FlinkArrowTypes {
  private static final String SUPPORTED_FLINK = "TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, BOOLEAN, CHAR,"
      + " VARCHAR, BINARY, VARBINARY, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ, DECIMAL, NULL, ARRAY and ROW";

  private FlinkArrowTypes() {}

  /** The Arrow schema of a Flink row type: one field per row field, in order. */
  public static Schema toSchema(RowType rowType) {
    requireNonNull(rowType, "rowType is null");
    List<Field> fields = new ArrayList<>(rowType.getFieldCount());
    for (RowType.RowField field : rowType.getFields()) {
      fields.add(toField(field.getName(), field.getType()));
    }
    return new Schema(fields);
  }

  /** The Arrow field of a column {@code name} of Flink type {@code type}. */
  public static Field toField(String name, LogicalType type) {
    requireNonNull(name, "name is null");
    requireNonNull(type, "type is null");
    return toField(name, name, name, type);
  }

  /** The Flink row type of an Arrow schema, for reading. */
  public static RowType toRowType(Schema schema) {
    requireNonNull(schema, "schema is null");
    List<RowType.RowField> fields = new ArrayList<>(schema.getFields().size());
    for (Field field : schema.getFields()) {
      fields.add(new RowType.RowField(field.getName(), toLogicalType(field)));
    }
    return new RowType(false, fields);
  }

  /** The Flink type of an Arrow field, for reading; nullability follows the field. */
  public static LogicalType toLogicalType(Field field) {
    requireNonNull(field, "field is null");
    return toLogicalType(field.getName(), field.getName(), field);
  }

  private static Field toField(String column, String path, String name, LogicalType type) {
    boolean nullable = type.isNullable();
    ArrowType arrowType = switch (type.getTypeRoot()) {
      case TINYINT -> new ArrowType.Int(8, true);
      case SMALLINT -> new ArrowType.Int(16, true);
      case INTEGER -> new ArrowType.Int(32, true);
      case BIGINT -> new ArrowType.Int(64, true);
      case FLOAT -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
      case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case BOOLEAN -> ArrowType.Bool.INSTANCE;
      case CHAR, VARCHAR -> ArrowType.Utf8.INSTANCE;
      case BINARY, VARBINARY -> ArrowType.Binary.INSTANCE;
      case DATE -> new ArrowType.Date(DateUnit.DAY);
      case TIME_WITHOUT_TIME_ZONE -> new ArrowType.Time(TimeUnit.MICROSECOND, 64);
      case TIMESTAMP_WITHOUT_TIME_ZONE -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");
      case DECIMAL -> {
        DecimalType decimal = (DecimalType) type;
        yield new ArrowType.Decimal(decimal.getPrecision(), decimal.getScale(), 128);
      }
      case NULL -> ArrowType.Null.INSTANCE;
      case ARRAY -> ArrowType.List.INSTANCE;
      case ROW -> ArrowType.Struct.INSTANCE;
      default -> throw new UnsupportedTypeException("Cannot map column '" + column + "' to an Arrow type: "
          + (path.equals(column) ? "it has " : "its field '" + path + "' has ") + "Flink type " + type.asSummaryString()
          + ", which Kartothek datasets do not support; supported are " + SUPPORTED_FLINK);
    };
    List<Field> children = List.of();
    if (type instanceof ArrayType array) {
      children = List.of(toField(column, path + "[]", "item", array.getElementType()));
    } else if (type instanceof RowType row) {
      List<Field> fields = new ArrayList<>(row.getFieldCount());
      for (RowType.RowField field : row.getFields()) {
        fields.add(toField(column, path + "." + field.getName(), field.getName(), field.getType()));
      }
      children = fields;
    }
    return new Field(name, new FieldType(nullable, arrowType, null), children);
  }

  private static LogicalType toLogicalType(String column, String path, Field field) {
    ArrowType type = field.getType();
    boolean nullable = field.isNullable();
    if (type instanceof ArrowType.ExtensionType) {
      throw unsupported(column, path, field);
    }
    return switch (type.getTypeID()) {
      case Int -> integerType((ArrowType.Int) type, nullable);
      case FloatingPoint -> ((ArrowType.FloatingPoint) type).getPrecision() == FloatingPointPrecision.DOUBLE
          ? new DoubleType(nullable)
          : new FloatType(nullable);
      case Bool -> new BooleanType(nullable);
      case Utf8, LargeUtf8, Utf8View -> new VarCharType(nullable, VarCharType.MAX_LENGTH);
      case Binary, LargeBinary, BinaryView -> new VarBinaryType(nullable, VarBinaryType.MAX_LENGTH);
      case FixedSizeBinary -> new BinaryType(nullable, ((ArrowType.FixedSizeBinary) type).getByteWidth());
      case Date -> new DateType(nullable);
      case Time -> new TimeType(nullable, precision(((ArrowType.Time) type).getUnit()));
      case Timestamp -> {
        ArrowType.Timestamp timestamp = (ArrowType.Timestamp) type;
        int precision = precision(timestamp.getUnit());
        yield timestamp.getTimezone() == null
            ? new TimestampType(nullable, precision)
            : new LocalZonedTimestampType(nullable, precision);
      }
      case Decimal -> {
        ArrowType.Decimal decimal = (ArrowType.Decimal) type;
        if (decimal.getPrecision() > DecimalType.MAX_PRECISION) {
          throw unsupported(column, path, field);
        }
        yield new DecimalType(nullable, decimal.getPrecision(), decimal.getScale());
      }
      case Null -> new NullType();
      case List, LargeList, FixedSizeList ->
          new ArrayType(nullable, toLogicalType(column, path + "[]", field.getChildren().get(0)));
      case Struct -> {
        List<RowType.RowField> fields = new ArrayList<>(field.getChildren().size());
        for (Field child : field.getChildren()) {
          fields.add(new RowType.RowField(child.getName(),
              toLogicalType(column, path + "." + child.getName(), child)));
        }
        yield new RowType(nullable, fields);
      }
      default -> throw unsupported(column, path, field);
    };
  }

  private static LogicalType integerType(ArrowType.Int type, boolean nullable) {
    // Unsigned types take the next wider signed type, so that every value fits.
    int bits = type.getIsSigned() ? type.getBitWidth() : type.getBitWidth() * 2;
    return switch (bits) {
      case 8 -> new TinyIntType(nullable);
      case 16 -> new SmallIntType(nullable);
      case 32 -> new IntType(nullable);
      case 64 -> new BigIntType(nullable);
      default -> new DecimalType(nullable, 20, 0);
    };
  }

  private static int precision(TimeUnit unit) {
    return switch (unit) {
      case SECOND -> 0;
      case MILLISECOND -> 3;
      case MICROSECOND -> 6;
      case NANOSECOND -> 9;
    };
  }

  private static UnsupportedTypeException unsupported(String column, String path, Field field) {
    return new UnsupportedTypeException("Cannot map column '" + column + "' to a Flink type: "
        + (path.equals(column) ? "it has " : "its field '" + path + "' has ") + "Arrow type "
        + ArrowTypeNames.name(field) + ", which Kartothek datasets do not support");
  }
}
