package io.ktk.flink.state.types;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The Arrow schema pyarrow would infer from Java values, for data that comes without a declared
 * schema (a column of values, a map of columns). A column that holds only nulls has type {@code
 * null}, as pyarrow gives it; the sink never writes such a column, because it knows each column's
 * declared type and writes that, values or not (plateau reads a {@code null} column back as pandas
 * {@code object}, not as the declared type).
 *
 * <p>Java values map as pyarrow maps the corresponding Python values:
 *
 * <pre>
 * Long -> int64      Integer -> int32   Short -> int16   Byte -> int8
 * Double -> double   Float -> float     Boolean -> bool  String -> string   byte[] -> binary
 * BigDecimal -> decimal128(p, s)  LocalDate -> date32[day]  LocalTime -> time64[us]
 * LocalDateTime -> timestamp[us]  Instant -> timestamp[us, tz=UTC]
 * List -> list&lt;item: T&gt;  (null elements allowed; no non-null element: list&lt;item: null&gt;)
 * Map&lt;String, ?&gt; -> struct&lt;...&gt;  (fields in order of first appearance; absent keys are null)
 * null only -> null
 * </pre>
 *
 * <p>A decimal column gets the largest scale and the largest number of integer digits of its
 * values, as pyarrow does ({@code 123.45} and {@code 1.2345} give {@code decimal128(7, 4)}).
 * Decisions beyond pyarrow, which only knows one integer and one float type: integer boxes
 * widen to the widest one present ({@code Integer} and {@code Long} give {@code int64}) and
 * {@code Float} with {@code Double} gives {@code double}; normalization would erase the
 * difference anyway. Any other mix (e.g. {@code Long} and {@code String}) is an
 * {@link InvalidValueException} naming the column and both types. All inferred fields are
 * nullable.
 */
public final class SchemaInference {
  private static final int MAX_DECIMAL128_PRECISION = 38;

  private SchemaInference() {}

  /** Infers a column's field from its values, as pyarrow infers a column from Python values. */
  public static Field inferField(String column, Iterable<?> values) {
    requireNonNull(column, "column is null");
    requireNonNull(values, "values is null");
    Field field = nullField(column);
    for (Object value : values) {
      field = unify(column, column, field, fieldOf(column, column, column, value));
    }
    return field;
  }

  /** Infers a schema from columns of values, in the map's iteration order. */
  public static Schema inferSchema(Map<String, ? extends Iterable<?>> columns) {
    requireNonNull(columns, "columns is null");
    List<Field> fields = new ArrayList<>(columns.size());
    columns.forEach((name, values) -> fields.add(inferField(name, values)));
    return new Schema(fields);
  }

  private static Field nullField(String name) {
    return new Field(name, FieldType.nullable(ArrowType.Null.INSTANCE), List.of());
  }

  private static Field leaf(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), List.of());
  }

  private static Field fieldOf(String column, String path, String name, Object value) {
    if (value == null) {
      return nullField(name);
    }
    if (value instanceof Long) {
      return leaf(name, new ArrowType.Int(64, true));
    } else if (value instanceof Integer) {
      return leaf(name, new ArrowType.Int(32, true));
    } else if (value instanceof Short) {
      return leaf(name, new ArrowType.Int(16, true));
    } else if (value instanceof Byte) {
      return leaf(name, new ArrowType.Int(8, true));
    } else if (value instanceof Double) {
      return leaf(name, new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
    } else if (value instanceof Float) {
      return leaf(name, new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
    } else if (value instanceof Boolean) {
      return leaf(name, ArrowType.Bool.INSTANCE);
    } else if (value instanceof String) {
      return leaf(name, ArrowType.Utf8.INSTANCE);
    } else if (value instanceof byte[]) {
      return leaf(name, ArrowType.Binary.INSTANCE);
    } else if (value instanceof BigDecimal decimal) {
      return leaf(name, decimalType(column, path, decimal));
    } else if (value instanceof LocalDate) {
      return leaf(name, new ArrowType.Date(DateUnit.DAY));
    } else if (value instanceof LocalTime) {
      return leaf(name, new ArrowType.Time(TimeUnit.MICROSECOND, 64));
    } else if (value instanceof LocalDateTime) {
      return leaf(name, new ArrowType.Timestamp(TimeUnit.MICROSECOND, null));
    } else if (value instanceof Instant) {
      return leaf(name, new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"));
    } else if (value instanceof List<?> list) {
      String elementPath = path + "[]";
      Field element = nullField("item");
      for (Object item : list) {
        element = unify(column, elementPath, element, fieldOf(column, elementPath, "item", item));
      }
      return new Field(name, FieldType.nullable(ArrowType.List.INSTANCE), List.of(element));
    } else if (value instanceof Map<?, ?> map) {
      List<Field> children = new ArrayList<>(map.size());
      for (Map.Entry<?, ?> entry : map.entrySet()) {
        if (!(entry.getKey() instanceof String key)) {
          throw new InvalidValueException("Cannot infer the type of column '" + column + "': at '" + path
              + "' a map has the key " + entry.getKey() + " of Java class "
              + (entry.getKey() == null ? "null" : entry.getKey().getClass().getName())
              + "; only maps with String keys become structs");
        }
        children.add(fieldOf(column, path + "." + key, key, entry.getValue()));
      }
      return new Field(name, FieldType.nullable(ArrowType.Struct.INSTANCE), children);
    }
    throw new InvalidValueException("Cannot infer the type of column '" + column + "': "
        + (path.equals(column) ? "" : "at '" + path + "' ") + "the value " + value + " of Java class "
        + value.getClass().getName() + " has no Arrow type; supported are Long, Integer, Short, Byte, Double,"
        + " Float, Boolean, String, byte[], BigDecimal, LocalDate, LocalTime, LocalDateTime, Instant, List"
        + " and Map with String keys");
  }

  /** decimal128(p, s) of one value, computed as pyarrow does for a Python Decimal. */
  private static ArrowType.Decimal decimalType(String column, String path, BigDecimal value) {
    int precision = value.precision();
    int scale = value.scale();
    if (scale < 0) {
      // 1E+3 has one significant digit but four integer digits.
      precision -= scale;
      scale = 0;
    } else {
      // 0.001 has one significant digit but three digits after the point.
      precision = Math.max(precision, scale);
    }
    return decimal(column, path, precision - scale, scale);
  }

  private static ArrowType.Decimal decimal(String column, String path, int integerDigits, int scale) {
    int precision = integerDigits + scale;
    if (precision > MAX_DECIMAL128_PRECISION) {
      throw new InvalidValueException("Cannot infer the type of column '" + column + "': "
          + (path.equals(column) ? "" : "at '" + path + "' ") + "its decimals need " + integerDigits
          + " integer digits and " + scale + " fractional digits, more than decimal128's precision of "
          + MAX_DECIMAL128_PRECISION);
    }
    return new ArrowType.Decimal(precision, scale, 128);
  }

  /** The type that holds the values of both fields, or an error naming both types. */
  private static Field unify(String column, String path, Field a, Field b) {
    ArrowType typeA = a.getType();
    ArrowType typeB = b.getType();
    if (typeB instanceof ArrowType.Null) {
      return a;
    }
    if (typeA instanceof ArrowType.Null) {
      return b;
    }
    if (typeA instanceof ArrowType.Int intA && typeB instanceof ArrowType.Int intB
        && intA.getIsSigned() == intB.getIsSigned()) {
      return intA.getBitWidth() >= intB.getBitWidth() ? a : b;
    }
    if (typeA instanceof ArrowType.FloatingPoint floatA && typeB instanceof ArrowType.FloatingPoint floatB) {
      return floatA.getPrecision().compareTo(floatB.getPrecision()) >= 0 ? a : b;
    }
    if (typeA instanceof ArrowType.Decimal decimalA && typeB instanceof ArrowType.Decimal decimalB) {
      int integerDigits = Math.max(decimalA.getPrecision() - decimalA.getScale(),
          decimalB.getPrecision() - decimalB.getScale());
      int scale = Math.max(decimalA.getScale(), decimalB.getScale());
      return leaf(a.getName(), decimal(column, path, integerDigits, scale));
    }
    if (typeA instanceof ArrowType.List && typeB instanceof ArrowType.List) {
      Field element = unify(column, path + "[]", a.getChildren().get(0), b.getChildren().get(0));
      return new Field(a.getName(), a.getFieldType(), List.of(element));
    }
    if (typeA instanceof ArrowType.Struct && typeB instanceof ArrowType.Struct) {
      Map<String, Field> children = new LinkedHashMap<>();
      a.getChildren().forEach(child -> children.put(child.getName(), child));
      for (Field child : b.getChildren()) {
        children.merge(child.getName(), child,
            (mine, theirs) -> unify(column, path + "." + child.getName(), mine, theirs));
      }
      return new Field(a.getName(), a.getFieldType(), List.copyOf(children.values()));
    }
    if (typeA.equals(typeB)) {
      return a;
    }
    throw new InvalidValueException("Cannot infer the type of column '" + column + "': "
        + (path.equals(column) ? "it" : "at '" + path + "' it") + " holds values of type " + ArrowTypeNames.name(a)
        + " and values of type " + ArrowTypeNames.name(b) + "; all values of a column must have one type");
  }
}
