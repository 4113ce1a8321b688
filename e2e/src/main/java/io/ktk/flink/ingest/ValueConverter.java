package io.ktk.flink.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
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
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
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
 * A value is never stored as something else: a number too large for FLOAT or DOUBLE (literal
 * {@code Infinity} is fine), a DECIMAL with more digits than declared (JSON numbers are read as
 * exact decimals), a date beyond 32-bit days, a timestamp beyond 64-bit microseconds, a string
 * with an unpaired surrogate (a lone JSON escape of one, e.g. backslash-u-d800), a binary value
 * longer than declared: each is refused with column, value and rule.
 */
final class ValueConverter {
  private static final LocalDate MIN_DATE = LocalDate.ofEpochDay(Integer.MIN_VALUE);
  private static final LocalDate MAX_DATE = LocalDate.ofEpochDay(Integer.MAX_VALUE);
  /** The range of a signed 64-bit count of microseconds, what Kartothek stores for timestamps. */
  private static final Instant MIN_INSTANT = Instant.EPOCH.plus(Long.MIN_VALUE, ChronoUnit.MICROS);
  private static final Instant MAX_INSTANT = Instant.EPOCH.plus(Long.MAX_VALUE, ChronoUnit.MICROS);
  private static final LocalDateTime MIN_TIMESTAMP = LocalDateTime.ofInstant(MIN_INSTANT, ZoneOffset.UTC);
  private static final LocalDateTime MAX_TIMESTAMP = LocalDateTime.ofInstant(MAX_INSTANT, ZoneOffset.UTC);
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
          return floating(node.asText(), node.toString(), type, column);
        }
        if (node.isTextual() && isSpecialFloat(node.textValue())) {
          return floating(node.textValue(), node.toString(), type, column);
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
        // JSON numbers are exact decimals here (StrictJson), never doubles
        return node.isNumber() ? decimal(node.decimalValue(), node.toString(), type, column)
            : decimal(node.textValue(), type, column);
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
          return floating(text, quote(text), type, column);
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
          int surrogate = unpairedSurrogate(text);
          if (surrogate >= 0) {
            // only a JSON escape (backslash-u-d800) can make one; UTF-8 would store it as '?'
            throw InvalidRecordException.of(column, quote(text), String.format("has the unpaired surrogate "
                + "\\u%04x at character %d, which is no Unicode character (UTF-8 cannot store it)",
                (int) text.charAt(surrogate), surrogate + 1));
          }
          return StringData.fromString(text);
        }
        case BINARY, VARBINARY -> {
          byte[] bytes = Base64.getDecoder().decode(text);
          int length = type instanceof BinaryType b ? b.getLength() : ((VarBinaryType) type).getLength();
          if (bytes.length > length) {
            throw InvalidRecordException.of(column, quote(text), "is " + bytes.length + " bytes long, longer than "
                + describe(type) + " allows");
          }
          return bytes;
        }
        case DECIMAL -> {
          return decimal(text, type, column);
        }
        case DATE -> {
          long day = LocalDate.parse(text).toEpochDay();
          if (day < Integer.MIN_VALUE || day > Integer.MAX_VALUE) {
            throw InvalidRecordException.of(column, quote(text), "is outside the range of a DATE (" + MIN_DATE + " to "
                + MAX_DATE + ": days since 1970-01-01 in 32 bits)");
          }
          return (int) day;
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
          LocalDateTime timestamp = LocalDateTime.parse(text.replace(' ', 'T'));
          if (timestamp.isBefore(MIN_TIMESTAMP) || timestamp.isAfter(MAX_TIMESTAMP)) {
            throw outOfTimestampRange(column, text, type, MIN_TIMESTAMP + " to " + MAX_TIMESTAMP);
          }
          return TimestampData.fromLocalDateTime(timestamp);
        }
        case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
          Instant instant = instant(text.replace(' ', 'T'));
          if (instant.isBefore(MIN_INSTANT) || instant.isAfter(MAX_INSTANT)) {
            throw outOfTimestampRange(column, text, type, MIN_INSTANT + " to " + MAX_INSTANT);
          }
          return TimestampData.fromInstant(instant);
        }
        case ARRAY, ROW -> {
          JsonNode node;
          try {
            node = StrictJson.read(text, "it");
          } catch (InvalidRecordException e) {
            throw InvalidRecordException.of(column, quote(text), "is not " + describe(type) + " as JSON: "
                + e.getMessage());
          }
          return fromJson(node, type, column);
        }
        default -> throw InvalidRecordException.of(column, quote(text), "cannot be ingested: type " + type
            + " is not supported");
      }
    } catch (DateTimeException | IllegalArgumentException e) {
      throw InvalidRecordException.of(column, quote(text), "is not " + describe(type) + " (" + e.getMessage() + ")");
    }
  }

  private static InvalidRecordException outOfTimestampRange(String column, String text, LogicalType type,
      String range) {
    return InvalidRecordException.of(column, quote(text), "is outside the range of " + describe(type) + " as stored ("
        + range + ": microseconds since 1970-01-01 in 64 bits)");
  }

  /** The index of the first surrogate char that is not half of a pair, or -1. */
  private static int unpairedSurrogate(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return i;
      }
    }
    return -1;
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

  /** {@code shown} is the value as the input gave it, for messages. */
  private static Object floating(String text, String shown, LogicalType type, String column) {
    double value;
    if (isSpecialFloat(text)) {
      value = text.equals("NaN") ? Double.NaN : text.startsWith("-") ? Double.NEGATIVE_INFINITY
          : Double.POSITIVE_INFINITY;
    } else if (FLOAT.matcher(text).matches()) {
      value = Double.parseDouble(text);
    } else {
      throw InvalidRecordException.of(column, shown, "is not " + describe(type) + " (a number, NaN, "
          + "Infinity or -Infinity)");
    }
    boolean isFloat = type.getTypeRoot() == LogicalTypeRoot.FLOAT;
    if (!isSpecialFloat(text) && (Double.isInfinite(value) || isFloat && Float.isInfinite((float) value))) {
      throw InvalidRecordException.of(column, shown, "is out of the range of " + describe(type) + " (at most "
          + (isFloat ? String.valueOf(Float.MAX_VALUE) : String.valueOf(Double.MAX_VALUE)) + " in magnitude; Infinity only as \"Infinity\")");
    }
    return isFloat ? (Object) (float) value : (Object) value;
  }

  private static boolean isSpecialFloat(String text) {
    return text.equals("NaN") || text.equals("Infinity") || text.equals("-Infinity") || text.equals("+Infinity");
  }

  private static DecimalData decimal(String text, LogicalType type, String column) {
    BigDecimal value;
    try {
      value = new BigDecimal(text);
    } catch (NumberFormatException e) {
      throw InvalidRecordException.of(column, quote(text), "is not " + describe(type) + " (a decimal number)");
    }
    return decimal(value, text, type, column);
  }

  /** {@code shown} is the value as the input gave it, for messages. */
  private static DecimalData decimal(BigDecimal value, String shown, LogicalType type, String column) {
    DecimalType decimalType = (DecimalType) type;
    int scale = decimalType.getScale();
    int precision = decimalType.getPrecision();
    if (value.scale() > scale && value.stripTrailingZeros().scale() > scale) {
      throw InvalidRecordException.of(column, shown, "has more than " + scale + " decimal places, which "
          + describe(type) + " holds");
    }
    // Checked before setScale, which would build all digits of a value like 1E+999999999.
    if (value.signum() != 0 && (long) value.precision() - value.scale() > precision - scale) {
      throw InvalidRecordException.of(column, shown, "has more than " + precision + " digits, which "
          + describe(type) + " holds");
    }
    DecimalData data = DecimalData.fromBigDecimal(value.setScale(scale), precision, scale);
    if (data == null) {
      throw InvalidRecordException.of(column, shown, "has more than " + precision + " digits, which "
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
