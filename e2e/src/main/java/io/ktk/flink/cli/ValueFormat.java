package io.ktk.flink.cli;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.ktk.flink.state.vector.DoubleVector;
import io.ktk.flink.state.vector.LongType;
import io.ktk.flink.state.vector.LongVector;
import io.ktk.flink.state.vector.TypedVector;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * How {@code ktk read} and {@code ktk query} print values, by the Arrow type of their column:
 *
 * <pre>
 * type                    JSON                          text (CSV)
 * int*                    12                            12
 * uint*                   18446744073709551615          18446744073709551615
 * float*                  1.5, 1e+16, "NaN", "Infinity", "-Infinity"   (Python's repr for finite values)
 * bool                    true                          true
 * string                  "a"                           a
 * binary                  "YWI=" (base64)               YWI=
 * date32                  "2024-01-02"                  2024-01-02
 * timestamp               "2024-01-02T03:04:05.123456"  (seconds always; 6 fraction digits, 9 with ns, none when 0)
 * timestamp with zone     "2024-01-02T03:04:05Z"        (UTC)
 * time                    "03:04:05.5" as ISO-8601 local time, same rule for the fraction
 * decimal                 "1.50" (a string, exact)      1.50
 * list, struct            [1, null], {"a": 1}           the JSON text
 * null                    null                          (empty field, see CsvRowWriter)
 * </pre>
 *
 * <p>Values come as typed values (a row of a dataset) or as a row of column vectors (a query's
 * result), which are read without boxing where the vector holds primitives. Text goes into a
 * {@link TextBuffer}, without a string per value.
 */
final class ValueFormat {
  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private ValueFormat() {}

  /** The text of a non-null value. */
  static String text(Field field, Object value) {
    TextBuffer text = new TextBuffer(64);
    append(text, field, value);
    return text.toString();
  }

  /**
   * Appends the text of a non-null value; returns whether it is free text (a string, binary, or
   * the JSON of a list or struct), which CSV may have to quote; numbers, dates and times never
   * need it.
   */
  static boolean append(TextBuffer out, Field field, Object value) {
    if (value instanceof String string) {
      out.append(string);
      return true;
    }
    if (value instanceof Double number) {
      out.appendFloat(number);
    } else if (value instanceof Long number) {
      if (isUnsigned(field.getType())) {
        out.appendUnsignedLong(number);
      } else {
        out.appendLong(number);
      }
    } else if (value instanceof LocalDateTime timestamp) {
      out.appendDate(timestamp.toLocalDate().toEpochDay());
      out.append('T');
      out.appendTimeOfDay(timestamp.toLocalTime().toNanoOfDay());
    } else if (value instanceof Instant instant) {
      out.appendDateTime(instant.getEpochSecond(), instant.getNano());
      out.append('Z');
    } else if (value instanceof LocalDate date) {
      out.appendDate(date.toEpochDay());
    } else if (value instanceof LocalTime time) {
      out.appendTimeOfDay(time.toNanoOfDay());
    } else if (value instanceof Float number) {
      out.appendFloat(number.doubleValue());
    } else if (value instanceof BigDecimal decimal) {
      out.append(decimal.toPlainString());
    } else if (value instanceof byte[] bytes) {
      out.append(Base64.getEncoder().encodeToString(bytes));
      return true; // empty for an empty value, which CSV must tell from a null
    } else if (value instanceof List<?> || value instanceof Map<?, ?>) {
      appendJson(out, field, value);
      return true;
    } else {
      out.append(String.valueOf(value));
      return true;
    }
    return false;
  }

  /**
   * Appends the text of row {@code row} of {@code column}, which is not null, as {@link #append}
   * does for its typed value; returns whether it is free text.
   */
  static boolean append(TextBuffer out, Field field, TypedVector column, int row) {
    if (column instanceof DoubleVector doubles) {
      out.appendFloat(doubles.value(row));
      return false;
    }
    if (column instanceof LongVector longs) {
      LongType type = longs.type();
      long value = longs.value(row);
      switch (type.kind()) {
        case INTEGER, UNSIGNED_64 -> {
          if (isUnsigned(field.getType())) {
            out.appendUnsignedLong(value);
          } else {
            out.appendLong(value);
          }
          return false;
        }
        case DATE -> {
          out.appendDate(value);
          return false;
        }
        case TIME -> {
          out.appendTimeOfDay(value * type.nanosPerUnit());
          return false;
        }
        case TIMESTAMP -> {
          long unitsPerSecond = NANOS_PER_SECOND / type.nanosPerUnit();
          out.appendDateTime(Math.floorDiv(value, unitsPerSecond),
              (int) (Math.floorMod(value, unitsPerSecond) * type.nanosPerUnit()));
          if (type.utc()) {
            out.append('Z');
          }
          return false;
        }
        default -> {
          return append(out, field, column.get(row));
        }
      }
    }
    return append(out, field, column.get(row));
  }

  /** Appends a value (or null) as JSON: compact, strings escaped as Jackson escapes them. */
  static void appendJson(TextBuffer out, Field field, Object value) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String string) {
      appendJsonString(out, string);
    } else if (value instanceof Long number && !isUnsigned(field.getType())) {
      out.appendLong(number);
    } else if (value instanceof Long number) {
      out.appendUnsignedLong(number); // unsigned: the digits of the unsigned value
    } else if (value instanceof Double || value instanceof Float) {
      appendJsonFloat(out, ((Number) value).doubleValue());
    } else if (value instanceof Boolean bool) {
      out.append(bool ? "true" : "false");
    } else if (value instanceof List<?> list) {
      Field element = field.getChildren().isEmpty() ? field : field.getChildren().get(0);
      out.append('[');
      boolean first = true;
      for (Object item : list) {
        if (!first) {
          out.append(',');
        }
        first = false;
        appendJson(out, element, item);
      }
      out.append(']');
    } else if (value instanceof Map<?, ?> struct) {
      out.append('{');
      boolean first = true;
      for (Field child : field.getChildren()) {
        if (!first) {
          out.append(',');
        }
        first = false;
        appendJsonString(out, child.getName());
        out.append(':');
        appendJson(out, child, struct.get(child.getName()));
      }
      out.append('}');
    } else {
      int start = out.length();
      out.append('"');
      if (append(out, field, value) && needsEscapes(out, start + 1)) {
        String text = new String(out.chars(), start + 1, out.length() - start - 1);
        out.setLength(start);
        appendJsonString(out, text);
      } else {
        out.append('"');
      }
    }
  }

  /** Appends row {@code row} of {@code column} (or its null) as JSON, as {@link #appendJson} appends its typed value. */
  static void appendJson(TextBuffer out, Field field, TypedVector column, int row) {
    if (column.isNull(row)) {
      out.append("null");
    } else if (column instanceof DoubleVector doubles) {
      appendJsonFloat(out, doubles.value(row));
    } else if (column instanceof LongVector longs && longs.type().kind() != LongType.Kind.DECIMAL) {
      LongType.Kind kind = longs.type().kind();
      if (kind == LongType.Kind.INTEGER || kind == LongType.Kind.UNSIGNED_64) {
        append(out, field, column, row);
      } else {
        out.append('"');
        append(out, field, column, row);
        out.append('"');
      }
    } else {
      appendJson(out, field, column.get(row));
    }
  }

  /** A JSON string: quotes, and the escapes of Jackson's writers where the text has quotes, backslashes or controls. */
  static void appendJsonString(TextBuffer out, String text) {
    out.append('"');
    int start = out.length();
    out.append(text);
    if (needsEscapes(out, start)) {
      out.setLength(start);
      out.append(JsonStringEncoder.getInstance().quoteAsString(text));
    }
    out.append('"');
  }

  private static boolean needsEscapes(TextBuffer out, int start) {
    char[] chars = out.chars();
    for (int i = start; i < out.length(); i++) {
      char c = chars[i];
      if (c < ' ' || c == '"' || c == '\\') {
        return true;
      }
    }
    return false;
  }

  /** A finite float as a JSON number, the others as the strings {@link TextBuffer#appendFloat} spells. */
  private static void appendJsonFloat(TextBuffer out, double number) {
    if (Double.isFinite(number)) {
      out.appendFloat(number);
    } else {
      out.append('"');
      out.appendFloat(number);
      out.append('"');
    }
  }

  private static boolean isUnsigned(ArrowType type) {
    return type instanceof ArrowType.Int integer && !integer.getIsSigned();
  }
}
