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
 * {@link ValueFormat} as it was before it formatted into a {@link TextBuffer} (strings of java.time
 * and {@code String.format}), kept unchanged, with the CSV field rule of the CsvRowWriter of then:
 * the reference the output must still match character for character.
 */
final class ValueFormatBefore {
  private static final JsonFactory JSON = new JsonFactory();

  private ValueFormatBefore() {}

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

  /** A CSV field as the CsvRowWriter of then wrote a non-null value. */
  static String csvField(Field field, Object value) {
    String text = text(field, value);
    boolean special = text.isEmpty();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      special |= c == ',' || c == '"' || c == '\r' || c == '\n';
    }
    return special ? '"' + text.replace("\"", "\"\"") + '"' : text;
  }
}
