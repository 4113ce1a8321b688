package io.ktk.flink.ingest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Turns input values into Flink's internal values of a declared type, from JSON or from CSV text.
 *
 * <pre>
 * type                      JSON                                    CSV text
 * TINYINT .. BIGINT         an integer in range                     digits, e.g. -12
 * FLOAT, DOUBLE             a number, "NaN", "Infinity", "-Infinity" the same as text
 * BOOLEAN                   true, false                             true, false (any case)
 * CHAR, VARCHAR, STRING     a string (no longer than declared)      the field
 * BINARY, VARBINARY, BYTES  base64 string                           base64
 * DECIMAL(p, s)             a number or string, at most s decimals  the same as text
 * DATE                      "2024-01-02"                            2024-01-02
 * TIME(p)                   "03:04:05.123" (milliseconds at most)   the same
 * TIMESTAMP(p)              "2024-01-02T03:04:05.123456" ('T' or ' ') the same
 * TIMESTAMP_LTZ(p)          "2024-01-02T03:04:05Z" (Z or an offset)  the same
 * ARRAY&lt;T&gt;, ROW&lt;...&gt;        JSON array, JSON object by field name   the JSON text
 * </pre>
 *
 * These are the forms {@code ktk read} prints, so what it prints can be ingested again. A null
 * (JSON null, a missing JSON field, an empty unquoted CSV field) is refused for a NOT NULL type.
 */
final class ValueConverter {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern FLOAT = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
  private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");

  private ValueConverter() {}

  /** The internal value of a JSON value (null for JSON null or a missing node). */
  static Object fromJson(JsonNode node, LogicalType type, String column) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return checkNull(type, column);
    }
    switch (type.getTypeRoot()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT -> {
        if (!node.isIntegralNumber()) {
          throw InvalidRecordException.of(column, node.toString(), "is not " + describe(type) + " (an integer)");
        }
        return integer(node.bigIntegerValue().toString(), type, column);
      }
      case FLOAT, DOUBLE -> {
        if (node.isNumber()) {
          return floating(node.asText(), type, column);
        }
        if (node.isTextual() && isSpecialFloat(node.textValue())) {
          return floating(node.textValue(), type, column);
        }
        throw InvalidRecordException.of(column, node.toString(), "is not " + describe(type) + " (a number)");
      }
      case BOOLEAN -> {
        if (!node.isBoolean()) {
          throw InvalidRecordException.of(column, node.toString(), "is not a BOOLEAN (true or false)");
        }
        return node.booleanValue();
      }
      case DECIMAL -> {
        if (!node.isNumber() && !node.isTextual()) {
          throw InvalidRecordException.of(column, node.toString(), "is not " + describe(type) + " (a number)");
        }
        return decimal(node.isNumber() ? node.decimalValue().toPlainString() : node.textValue(), type, column);
      }
      case ARRAY -> {
        if (!node.isArray()) {
          throw InvalidRecordException.of(column, node.toString(), "is not " + describe(type) + " (a JSON array)");
        }
        LogicalType element = ((ArrayType) type).getElementType();
        Object[] values = new Object[node.size()];
        for (int i = 0; i < values.length; i++) {
          values[i] = fromJson(node.get(i), element, column + "[" + i + "]");
        }
        return new GenericArrayData(values);
      }
      case ROW -> {
        if (!node.isObject()) {
          throw InvalidRecordException.of(column, node.toString(), "is not " + describe(type) + " (a JSON object)");
        }
        return row(node, (RowType) type, column + ".");
      }
      default -> {
        if (!node.isTextual()) {
          throw InvalidRecordException.of(column, node.toString(), "is not " + describe(type) + " (a JSON string)");
        }
        return fromText(node.textValue(), type, column);
      }
    }
  }

  /** The internal row of a JSON object; a field not in the row type is refused. */
  static GenericRowData row(JsonNode object, RowType type, String prefix) {
    List<String> names = type.getFieldNames();
    Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
    while (fields.hasNext()) {
      String name = fields.next().getKey();
      if (!names.contains(name)) {
        throw new InvalidRecordException("field '" + prefix + name + "' is not a column (columns: "
            + String.join(", ", names) + ")");
      }
    }
    GenericRowData row = new GenericRowData(names.size());
    for (int i = 0; i < names.size(); i++) {
      row.setField(i, fromJson(object.get(names.get(i)), type.getTypeAt(i), prefix + names.get(i)));
    }
    return row;
  }

  /** The internal value of a non-null text (a CSV field, or a JSON string of a text-typed column). */
  static Object fromText(String text, LogicalType type, String column) {
    try {
      switch (type.getTypeRoot()) {
        case TINYINT, SMALLINT, INTEGER, BIGINT -> {
          if (!INTEGER.matcher(text).matches()) {
            throw InvalidRecordException.of(column, quote(text), "is not " + describe(type) + " (an integer)");
          }
          return integer(text, type, column);
        }
        case FLOAT, DOUBLE -> {
          return floating(text, type, column);
        }
        case BOOLEAN -> {
          if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(text);
          }
          throw InvalidRecordException.of(column, quote(text), "is not a BOOLEAN (true or false)");
        }
        case CHAR, VARCHAR -> {
          int length = type instanceof CharType c ? c.getLength() : ((VarCharType) type).getLength();
          if (text.codePointCount(0, text.length()) > length) {
            throw InvalidRecordException.of(column, quote(text), "is longer than " + describe(type) + " allows");
          }
          return StringData.fromString(text);
        }
        case BINARY, VARBINARY -> {
          return Base64.getDecoder().decode(text);
        }
        case DECIMAL -> {
          return decimal(text, type, column);
        }
        case DATE -> {
          return (int) LocalDate.parse(text).toEpochDay();
        }
        case TIME_WITHOUT_TIME_ZONE -> {
          LocalTime time = LocalTime.parse(text);
          if (time.getNano() % 1_000_000 != 0) {
            throw InvalidRecordException.of(column, quote(text), "has a part below milliseconds, which a TIME "
                + "cannot hold in Flink");
          }
          return (int) (time.toNanoOfDay() / 1_000_000);
        }
        case TIMESTAMP_WITHOUT_TIME_ZONE -> {
          return TimestampData.fromLocalDateTime(LocalDateTime.parse(text.replace(' ', 'T')));
        }
        case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
          return TimestampData.fromInstant(instant(text.replace(' ', 'T')));
        }
        case ARRAY, ROW -> {
          return fromJson(JSON.readTree(text), type, column);
        }
        default -> throw InvalidRecordException.of(column, quote(text), "cannot be ingested: type " + type
            + " is not supported");
      }
    } catch (DateTimeException | IllegalArgumentException e) {
      throw InvalidRecordException.of(column, quote(text), "is not " + describe(type) + " (" + e.getMessage() + ")");
    } catch (JsonProcessingException e) {
      throw InvalidRecordException.of(column, quote(text), "is not " + describe(type) + " as JSON ("
          + e.getOriginalMessage() + ")");
    }
  }

  private static Object checkNull(LogicalType type, String column) {
    if (!type.isNullable()) {
      throw new InvalidRecordException("column '" + column + "' is null, which its type " + type + " forbids");
    }
    return null;
  }

  private static Object integer(String digits, LogicalType type, String column) {
    BigDecimal value = new BigDecimal(digits);
    long min;
    long max;
    switch (type.getTypeRoot()) {
      case TINYINT -> { min = Byte.MIN_VALUE; max = Byte.MAX_VALUE; }
      case SMALLINT -> { min = Short.MIN_VALUE; max = Short.MAX_VALUE; }
      case INTEGER -> { min = Integer.MIN_VALUE; max = Integer.MAX_VALUE; }
      default -> { min = Long.MIN_VALUE; max = Long.MAX_VALUE; }
    }
    if (value.compareTo(BigDecimal.valueOf(min)) < 0 || value.compareTo(BigDecimal.valueOf(max)) > 0) {
      throw InvalidRecordException.of(column, digits, "is out of the range of " + describe(type) + " (" + min
          + " to " + max + ")");
    }
    long number = value.longValueExact();
    return switch (type.getTypeRoot()) {
      case TINYINT -> (byte) number;
      case SMALLINT -> (short) number;
      case INTEGER -> (int) number;
      default -> number;
    };
  }

  private static Object floating(String text, LogicalType type, String column) {
    double value;
    if (isSpecialFloat(text)) {
      value = text.equals("NaN") ? Double.NaN : text.startsWith("-") ? Double.NEGATIVE_INFINITY
          : Double.POSITIVE_INFINITY;
    } else if (FLOAT.matcher(text).matches()) {
      value = Double.parseDouble(text);
    } else {
      throw InvalidRecordException.of(column, quote(text), "is not " + describe(type) + " (a number, NaN, "
          + "Infinity or -Infinity)");
    }
    return type.getTypeRoot() == org.apache.flink.table.types.logical.LogicalTypeRoot.FLOAT ? (Object) (float) value
        : (Object) value;
  }

  private static boolean isSpecialFloat(String text) {
    return text.equals("NaN") || text.equals("Infinity") || text.equals("-Infinity") || text.equals("+Infinity");
  }

  private static DecimalData decimal(String text, LogicalType type, String column) {
    DecimalType decimalType = (DecimalType) type;
    BigDecimal value;
    try {
      value = new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw InvalidRecordException.of(column, quote(text), "is not " + describe(type) + " (a decimal number)");
    }
    if (value.scale() > decimalType.getScale()) {
      BigDecimal stripped = value.stripTrailingZeros();
      if (stripped.scale() > decimalType.getScale()) {
        throw InvalidRecordException.of(column, text, "has more than " + decimalType.getScale()
            + " decimal places, which " + describe(type) + " holds");
      }
    }
    DecimalData data = DecimalData.fromBigDecimal(value.setScale(decimalType.getScale()), decimalType.getPrecision(),
        decimalType.getScale());
    if (data == null) {
      throw InvalidRecordException.of(column, text, "has more than " + decimalType.getPrecision() + " digits, which "
          + describe(type) + " holds");
    }
    return data;
  }

  private static Instant instant(String text) {
    return text.endsWith("Z") || text.endsWith("z") ? Instant.parse(text.toUpperCase(java.util.Locale.ROOT))
        : OffsetDateTime.parse(text).toInstant();
  }

  private static String describe(LogicalType type) {
    String name = type.copy(true).asSummaryString();
    return (name.startsWith("A") || name.startsWith("I") ? "an " : "a ") + name;
  }

  private static String quote(String text) {
    return "\"" + text + "\"";
  }
}
