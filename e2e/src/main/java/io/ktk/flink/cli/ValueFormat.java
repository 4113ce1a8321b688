package io.ktk.flink.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.ktk.flink.state.metadata.PythonFloats;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * How {@code ktk read} prints values, by the Arrow type of their column:
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
 */
final class ValueFormat {
  private static final JsonFactory JSON = new JsonFactory();

  private ValueFormat() {}

  /** The text of a non-null value. */
  static String text(Field field, Object value) {
    ArrowType type = field.getType();
    if (value instanceof List<?> || value instanceof Map<?, ?>) {
      StringWriter text = new StringWriter();
      try (JsonGenerator json = JSON.createGenerator(text)) {
        write(json, field, value);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return text.toString();
    }
    if (value instanceof Long number) {
      return isUnsigned(type) ? Long.toUnsignedString(number) : Long.toString(number);
    }
    if (value instanceof Double number) {
      return floatText(number);
    }
    if (value instanceof Float number) {
      return floatText(number.doubleValue());
    }
    if (value instanceof byte[] bytes) {
      return Base64.getEncoder().encodeToString(bytes);
    }
    if (value instanceof LocalDateTime timestamp) {
      return timestamp.toLocalDate() + "T" + time(timestamp.toLocalTime());
    }
    if (value instanceof Instant instant) {
      LocalDateTime utc = LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
      return utc.toLocalDate() + "T" + time(utc.toLocalTime()) + "Z";
    }
    if (value instanceof LocalTime time) {
      return time(time);
    }
    if (value instanceof LocalDate date) {
      return date.toString();
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    return String.valueOf(value);
  }

  /** Writes a value (or null) as JSON. */
  static void write(JsonGenerator json, Field field, Object value) throws IOException {
    if (value == null) {
      json.writeNull();
    } else if (value instanceof Long number && !isUnsigned(field.getType())) {
      json.writeNumber(number);
    } else if (value instanceof Long) {
      json.writeNumber(text(field, value)); // unsigned: the digits of the unsigned value
    } else if (value instanceof Double || value instanceof Float) {
      double number = ((Number) value).doubleValue();
      if (Double.isFinite(number)) {
        json.writeNumber(floatText(number));
      } else {
        json.writeString(floatText(number));
      }
    } else if (value instanceof Boolean bool) {
      json.writeBoolean(bool);
    } else if (value instanceof List<?> list) {
      Field element = field.getChildren().isEmpty() ? field : field.getChildren().get(0);
      json.writeStartArray();
      for (Object item : list) {
        write(json, element, item);
      }
      json.writeEndArray();
    } else if (value instanceof Map<?, ?> struct) {
      json.writeStartObject();
      for (Field child : field.getChildren()) {
        json.writeFieldName(child.getName());
        write(json, child, struct.get(child.getName()));
      }
      json.writeEndObject();
    } else {
      json.writeString(text(field, value));
    }
  }

  private static boolean isUnsigned(ArrowType type) {
    return type instanceof ArrowType.Int integer && !integer.getIsSigned();
  }

  /** Python's repr for finite values; NaN, Infinity and -Infinity as JSON writers commonly spell them. */
  private static String floatText(double value) {
    if (Double.isNaN(value)) {
      return "NaN";
    }
    if (Double.isInfinite(value)) {
      return value > 0 ? "Infinity" : "-Infinity";
    }
    return PythonFloats.repr(value);
  }

  /** {@code HH:MM:SS}, then {@code .ffffff}, or {@code .fffffffff} with nanoseconds, unless zero. */
  private static String time(LocalTime time) {
    String seconds = String.format("%02d:%02d:%02d", time.getHour(), time.getMinute(), time.getSecond());
    int nanos = time.getNano();
    if (nanos == 0) {
      return seconds;
    }
    return nanos % 1000 == 0 ? seconds + String.format(".%06d", nanos / 1000) : seconds + String.format(".%09d", nanos);
  }
}
