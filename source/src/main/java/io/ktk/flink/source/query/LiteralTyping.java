package io.ktk.flink.source.query;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Types a {@link Literal} by the Arrow type of its column, into the project's value convention
 * ({@code Long}, {@code Double}, {@code String}, {@code byte[]}, {@code LocalDate}, ...), or says
 * what the type takes.
 *
 * <p>Text form: integers for integer columns (in range; unsigned ones from 0 to 2^64-1), any
 * number or {@code nan}/{@code inf}/{@code -inf} for floats, numbers for decimals, {@code
 * true}/{@code false} for bools, quoted text for strings, quoted text (its UTF-8 bytes) or {@code
 * x'..'} for binary, {@code 'YYYY-MM-DD'} for dates, {@code 'YYYY-MM-DD[ |T]HH:MM[:SS[.f]]'} for
 * timestamps (with {@code Z} or an offset for timestamps with a zone), {@code 'HH:MM[:SS[.f]]'}
 * for times. Java values: the convention's class, or {@code Integer}/{@code Short}/{@code
 * Byte}/{@code BigInteger} for integers, {@code Float} and whole numbers for floats, whole numbers
 * for decimals, {@code OffsetDateTime}/{@code ZonedDateTime} for timestamps with a zone, and
 * strings for dates, timestamps and times (read as the text form reads them).
 */
final class LiteralTyping {
  private static final BigInteger UNSIGNED_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

  private LiteralTyping() {}

  /** The typed value, or null when the literal does not fit the type. */
  static Object type(ArrowType type, Literal literal) {
    try {
      if (literal instanceof Literal.Value value) {
        return fromJava(type, value.value());
      }
      return fromText(type, literal);
    } catch (DateTimeParseException | ArithmeticException | IllegalArgumentException e) {
      return null;
    }
  }

  private static Object fromJava(ArrowType type, Object value) {
    if (value instanceof String text && isTemporal(type)) {
      return fromText(type, new Literal.Text(text)); // config values: "2024-01-31" for a date column
    }
    switch (type.getTypeID()) {
      case Int -> {
        BigInteger integer = integer(value);
        if (integer == null) {
          return null;
        }
        boolean signed = ((ArrowType.Int) type).getIsSigned();
        if (!signed && value instanceof Long bits) {
          return bits; // the convention: a Long holds the unsigned bits
        }
        return inRange(integer, signed);
      }
      case FloatingPoint -> {
        if (value instanceof Double || value instanceof Float) {
          return ((Number) value).doubleValue();
        }
        BigInteger integer = integer(value);
        if (integer == null) {
          return null;
        }
        double d = integer.doubleValue();
        return new BigDecimal(d).toBigIntegerExact().equals(integer) ? d : null;
      }
      case Decimal -> {
        if (value instanceof BigDecimal decimal) {
          return decimal;
        }
        BigInteger integer = integer(value);
        return integer == null ? null : new BigDecimal(integer);
      }
      case Bool -> {
        return value instanceof Boolean ? value : null;
      }
      case Utf8, LargeUtf8 -> {
        return value instanceof String ? value : null;
      }
      case Binary, LargeBinary, FixedSizeBinary -> {
        return value instanceof byte[] bytes ? bytes.clone() : null;
      }
      case Date -> {
        return value instanceof LocalDate ? value : null;
      }
      case Timestamp -> {
        if (((ArrowType.Timestamp) type).getTimezone() == null) {
          return value instanceof LocalDateTime ? value : null;
        }
        if (value instanceof Instant) {
          return value;
        }
        if (value instanceof OffsetDateTime offset) {
          return offset.toInstant();
        }
        return value instanceof ZonedDateTime zoned ? zoned.toInstant() : null;
      }
      case Time -> {
        return value instanceof LocalTime ? value : null;
      }
      default -> {
        return null;
      }
    }
  }

  private static boolean isTemporal(ArrowType type) {
    return switch (type.getTypeID()) {
      case Date, Timestamp, Time -> true;
      default -> false;
    };
  }

  private static BigInteger integer(Object value) {
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return BigInteger.valueOf(((Number) value).longValue());
    }
    return value instanceof BigInteger integer ? integer : null;
  }

  private static Long inRange(BigInteger value, boolean signed) {
    BigInteger min = signed ? BigInteger.valueOf(Long.MIN_VALUE) : BigInteger.ZERO;
    BigInteger max = signed ? BigInteger.valueOf(Long.MAX_VALUE) : UNSIGNED_MAX;
    return value.compareTo(min) >= 0 && value.compareTo(max) <= 0 ? value.longValue() : null;
  }

  private static Object fromText(ArrowType type, Literal literal) {
    switch (type.getTypeID()) {
      case Int -> {
        if (!(literal instanceof Literal.Number number) || !number.text().matches("[+-]?[0-9]+")) {
          return null;
        }
        return inRange(new BigInteger(number.text()), ((ArrowType.Int) type).getIsSigned());
      }
      case FloatingPoint -> {
        if (literal instanceof Literal.Number number) {
          return Double.parseDouble(number.text());
        }
        if (literal instanceof Literal.Word word) {
          return switch (word.word()) {
            case "nan" -> Double.NaN;
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            default -> null;
          };
        }
        return null;
      }
      case Decimal -> {
        return literal instanceof Literal.Number number ? new BigDecimal(number.text()) : null;
      }
      case Bool -> {
        if (literal instanceof Literal.Word word) {
          return word.word().equals("true") ? Boolean.TRUE : word.word().equals("false") ? Boolean.FALSE : null;
        }
        return null;
      }
      case Utf8, LargeUtf8 -> {
        return literal instanceof Literal.Text text ? text.value() : null;
      }
      case Binary, LargeBinary, FixedSizeBinary -> {
        if (literal instanceof Literal.Bytes bytes) {
          return bytes.bytes();
        }
        return literal instanceof Literal.Text text ? text.value().getBytes(StandardCharsets.UTF_8) : null;
      }
      case Date -> {
        return literal instanceof Literal.Text text ? LocalDate.parse(text.value()) : null;
      }
      case Timestamp -> {
        if (!(literal instanceof Literal.Text text)) {
          return null;
        }
        String value = text.value();
        String iso = value.length() == 10 ? value + "T00:00:00" : value.replaceFirst(" ", "T");
        if (((ArrowType.Timestamp) type).getTimezone() == null) {
          return LocalDateTime.parse(iso);
        }
        return OffsetDateTime.parse(iso.endsWith("z") ? iso.substring(0, iso.length() - 1) + "Z" : iso).toInstant();
      }
      case Time -> {
        return literal instanceof Literal.Text text ? LocalTime.parse(text.value()) : null;
      }
      default -> {
        return null;
      }
    }
  }

  /** What literals a column of {@code type} takes, for messages. */
  static String expected(ArrowType type) {
    return switch (type.getTypeID()) {
      case Int -> ((ArrowType.Int) type).getIsSigned()
          ? "use a whole number from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE
          : "use a whole number from 0 to " + UNSIGNED_MAX;
      case FloatingPoint -> "use a number, nan, inf or -inf";
      case Decimal -> "use a number";
      case Bool -> "use true or false";
      case Utf8, LargeUtf8 -> "use text in quotes, e.g. 'abc'";
      case Binary, LargeBinary, FixedSizeBinary -> "use text in quotes (its UTF-8 bytes) or hex bytes, e.g. x'0aff'";
      case Date -> "use a date in quotes, e.g. '2024-01-31'";
      case Timestamp -> ((ArrowType.Timestamp) type).getTimezone() == null
          ? "use a timestamp in quotes, e.g. '2024-01-31 12:00:00' or '2024-01-31T12:00:00.5'"
          : "use a timestamp with a zone offset in quotes, e.g. '2024-01-31T12:00:00Z' or '2024-01-31 12:00:00+01:00'";
      case Time -> "use a time in quotes, e.g. '12:30:00'";
      default -> "conditions support columns of primitive types only";
    };
  }
}
