package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.types.ArrowTypeNames;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Partition values as they appear in partition labels: {@code <column>=<value>} segments, e.g.
 * {@code p=1/q=a%20b/<file id>}.
 *
 * <p>A value is first rendered as Python's {@code str()} renders the value pandas hands to plateau
 * ({@link #render}), then percent-encoded keeping only {@code A-Z a-z 0-9 - _ . ~} ({@link
 * #encode}). {@link #decode} is the exact inverse, typed by the column's Arrow type. Values use the
 * project's typed-value convention (int* and uint* as {@code Long}, floats as {@code Double}, ...).
 *
 * <table>
 *   <caption>Rendering by type</caption>
 *   <tr><th>Arrow type</th><th>value</th><th>label segment</th></tr>
 *   <tr><td>int8..int64</td><td>{@code -12L}</td><td>{@code -12}</td></tr>
 *   <tr><td>uint64</td><td>{@code -1L} (bits)</td><td>{@code 18446744073709551615}</td></tr>
 *   <tr><td>float16/32/64</td><td>{@code 1e20}</td><td>{@code 1e%2B20}; also {@code nan}, {@code inf},
 *       {@code -0.0}, {@code 1.0}</td></tr>
 *   <tr><td>utf8, large_utf8</td><td>{@code "a/b c"}</td><td>{@code a%2Fb%20c}; the empty string is
 *       the empty segment {@code p=}, as in plateau</td></tr>
 *   <tr><td>binary, large_binary, fixed_size_binary</td><td>bytes {@code 61 2F}</td><td>{@code a%2F}: the raw
 *       bytes, as plateau's {@code quote(bytes)}; only UTF-8 bytes are accepted, because plateau decodes
 *       every segment as UTF-8</td></tr>
 *   <tr><td>date32, date64</td><td>{@code 2020-01-02}</td><td>{@code 2020-01-02}</td></tr>
 *   <tr><td>timestamp (naive)</td><td>{@code 2020-01-02T03:04:05.123456}</td>
 *       <td>{@code 2020-01-02%2003%3A04%3A05.123456} ({@code str(pd.Timestamp)}: no fraction when it is
 *       zero, 6 digits, or 9 when there are nanoseconds)</td></tr>
 *   <tr><td>timestamp with zone</td><td>an {@code Instant}</td><td>the local time in that zone plus
 *       its offset, e.g. {@code 2020-01-02 03:04:05+00:00} (percent-encoded)</td></tr>
 *   <tr><td>decimal128(p, s)</td><td>{@code 1.50}</td><td>{@code 1.50} ({@code str(Decimal)}); decoded only,
 *       see below</td></tr>
 * </table>
 *
 * <p>Refused with a {@link KtkValidationException}: bool (plateau reads {@code False} back as true), decimal
 * when encoding (plateau cannot build partition indices for decimals and reads them back as strings), time,
 * nested and null types, null values, dates outside years 1 to 9999, and timestamps outside pandas'
 * nanosecond range 1677-09-21 to 2262-04-11 (plateau reads partition timestamps back as nanoseconds).
 */
public final class PartitionValues {
  private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
  private static final Pattern FLOAT =
      Pattern.compile("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");
  private static final Pattern DATE = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}");
  private static final Pattern TIMESTAMP =
      Pattern.compile(
          "([0-9]{4}-[0-9]{2}-[0-9]{2}) ([0-9]{2}:[0-9]{2}:[0-9]{2})(\\.[0-9]{6}|\\.[0-9]{9})?"
              + "([+-][0-9]{2}:[0-9]{2}(?::[0-9]{2})?)?");
  private static final LocalDateTime PANDAS_MIN = LocalDateTime.of(1677, 9, 21, 0, 12, 43, 145_224_192);
  private static final LocalDateTime PANDAS_MAX = LocalDateTime.of(2262, 4, 11, 23, 47, 16, 854_775_807);
  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  private PartitionValues() {}

  /**
   * The percent-encoded label segment of a value: {@code quote(str(value))}.
   *
   * @throws KtkValidationException when the column's type or the value cannot be a partition value
   */
  public static String encode(Field column, Object value) {
    checkPartitionColumn(column);
    String rendered = render(column, value);
    if (value instanceof byte[] bytes) {
      return PercentEncoding.quote(bytes);
    }
    if (value instanceof LocalDateTime local) {
      checkPandasRange(column, local);
    } else if (value instanceof Instant instant) {
      checkPandasRange(column, LocalDateTime.ofInstant(instant, ZoneOffset.UTC));
    }
    return PercentEncoding.quote(rendered);
  }

  /**
   * Refuses a column whose type this project does not write as a partition column: bool, decimal,
   * time, nested and null types, and timestamps with an unknown zone.
   *
   * @throws KtkValidationException naming the column, its type and the reason
   */
  public static void checkPartitionColumn(Field column) {
    requireNonNull(column, "column is null");
    ArrowType type = column.getType();
    if (type instanceof ArrowType.Decimal) {
      throw refuse(column, "decimal partition columns are not supported (plateau cannot build partition indices"
          + " for decimals and reads their values back as strings)");
    }
    if (!isSupportedForDecoding(type)) {
      throw unsupported(column);
    }
    if (type instanceof ArrowType.Timestamp ts && ts.getTimezone() != null) {
      zone(column, ts);
    }
  }

  /** Encodes a column name for a label or a key component (same percent-encoding as values). */
  public static String encodeColumnName(String column) {
    requireNonNull(column, "column is null");
    try {
      return PercentEncoding.quote(column);
    } catch (IllegalArgumentException e) {
      throw new KtkValidationException("Cannot use column name '" + column + "' in a partition label: " + e.getMessage());
    }
  }

  /**
   * Renders a value as Python's {@code str()} renders it (before percent-encoding). Binary values are
   * rendered as their UTF-8 text.
   *
   * @throws KtkValidationException when the column's type or the value cannot be a partition value
   * @throws IllegalArgumentException when the value's Java class does not fit the Arrow type
   */
  public static String render(Field column, Object value) {
    requireNonNull(column, "column is null");
    if (value == null) {
      throw rejectValue(column, null, "partition values cannot be null");
    }
    ArrowType type = column.getType();
    if (type instanceof ArrowType.Int intType) {
      long v = integer(column, value);
      checkIntRange(column, intType, v);
      return !intType.getIsSigned() && intType.getBitWidth() == 64 ? Long.toUnsignedString(v) : Long.toString(v);
    }
    if (type instanceof ArrowType.FloatingPoint) {
      if (value instanceof Double d) {
        return PythonFloats.repr(d);
      }
      if (value instanceof Float f) {
        return PythonFloats.repr(f);
      }
      throw wrongClass(column, value, "Double");
    }
    if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8) {
      if (!(value instanceof String s)) {
        throw wrongClass(column, value, "String");
      }
      try {
        PercentEncoding.utf8(s);
      } catch (IllegalArgumentException e) {
        throw rejectValue(column, value, e.getMessage());
      }
      return s;
    }
    if (isBinary(type)) {
      if (!(value instanceof byte[] bytes)) {
        throw wrongClass(column, value, "byte[]");
      }
      if (type instanceof ArrowType.FixedSizeBinary fixed && bytes.length != fixed.getByteWidth()) {
        throw new IllegalArgumentException("Cannot render a partition value of column " + column.getName() + ": "
            + bytes.length + " bytes for " + ArrowTypeNames.name(type));
      }
      if (!PercentEncoding.isValidUtf8(bytes)) {
        throw rejectValue(column, "0x" + HexFormat.of().formatHex(bytes),
            "binary partition values must be UTF-8 text (plateau decodes label values as UTF-8)");
      }
      return new String(bytes, StandardCharsets.UTF_8);
    }
    if (type instanceof ArrowType.Date) {
      if (!(value instanceof LocalDate date)) {
        throw wrongClass(column, value, "LocalDate");
      }
      if (date.getYear() < 1 || date.getYear() > 9999) {
        throw rejectValue(column, date, "dates are limited to Python's years 1 to 9999");
      }
      return date.toString();
    }
    if (type instanceof ArrowType.Timestamp ts) {
      if (ts.getTimezone() == null) {
        if (!(value instanceof LocalDateTime local)) {
          throw wrongClass(column, value, "LocalDateTime");
        }
        return renderLocal(column, local);
      }
      if (!(value instanceof Instant instant)) {
        throw wrongClass(column, value, "Instant");
      }
      ZoneId zone = zone(column, ts);
      ZoneOffset offset = zone.getRules().getOffset(instant);
      LocalDateTime local = LocalDateTime.ofInstant(instant, offset);
      return renderLocal(column, local) + (offset.equals(ZoneOffset.UTC) ? "+00:00" : offset.getId());
    }
    if (type instanceof ArrowType.Decimal decimal) {
      if (!(value instanceof BigDecimal d)) {
        throw wrongClass(column, value, "BigDecimal");
      }
      // pyarrow hands pandas a Decimal with exponent -scale; Java's toString follows the same rule as
      // Python's Decimal.__str__ for non-negative scales (scientific when the adjusted exponent < -6).
      try {
        return d.setScale(decimal.getScale(), RoundingMode.UNNECESSARY).toString();
      } catch (ArithmeticException e) {
        throw new IllegalArgumentException("Cannot render partition value " + d + " of column " + column.getName()
            + ": it does not fit " + ArrowTypeNames.name(type));
      }
    }
    throw unsupported(column);
  }

  /**
   * Decodes one label segment's value (still percent-encoded) to the typed value of the column.
   *
   * @param label the whole partition label, for the error message
   * @throws CorruptDatasetException when the segment is not a valid value of the column's type
   * @throws KtkValidationException when the column's type cannot be a partition column (e.g. bool)
   */
  public static Object decode(String label, Field column, String segment) {
    requireNonNull(label, "label is null");
    requireNonNull(column, "column is null");
    requireNonNull(segment, "segment is null");
    ArrowType type = column.getType();
    if (!isSupportedForDecoding(type)) {
      throw unsupported(column);
    }
    try {
      if (isBinary(type)) {
        byte[] bytes = PercentEncoding.unquoteBytes(segment);
        if (type instanceof ArrowType.FixedSizeBinary fixed && bytes.length != fixed.getByteWidth()) {
          throw new IllegalArgumentException(bytes.length + " bytes instead of " + fixed.getByteWidth());
        }
        return bytes;
      }
      String text = PercentEncoding.unquote(segment);
      return parse(column, type, text);
    } catch (IllegalArgumentException | DateTimeException | ArithmeticException e) {
      throw new CorruptDatasetException("Cannot read partition label " + label + ": value '" + segment
          + "' of column " + column.getName() + " is not a valid " + ArrowTypeNames.name(type) + " (" + e.getMessage() + ")");
    }
  }

  private static Object parse(Field column, ArrowType type, String text) {
    if (type instanceof ArrowType.Int intType) {
      if (!INTEGER.matcher(text).matches()) {
        throw new IllegalArgumentException("not an integer");
      }
      BigInteger v = new BigInteger(text);
      int bits = intType.getBitWidth();
      BigInteger min = intType.getIsSigned() ? BigInteger.ONE.shiftLeft(bits - 1).negate() : BigInteger.ZERO;
      BigInteger max = intType.getIsSigned()
          ? BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE)
          : BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
      if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
        throw new IllegalArgumentException("out of range");
      }
      return v.compareTo(TWO_64.shiftRight(1)) >= 0 ? v.subtract(TWO_64).longValueExact() : v.longValueExact();
    }
    if (type instanceof ArrowType.FloatingPoint fp) {
      double d = parseFloat(text);
      return fp.getPrecision() == FloatingPointPrecision.SINGLE ? (double) (float) d : d;
    }
    if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8) {
      return text;
    }
    if (type instanceof ArrowType.Date) {
      if (!DATE.matcher(text).matches()) {
        throw new IllegalArgumentException("not a date YYYY-MM-DD");
      }
      return LocalDate.parse(text);
    }
    if (type instanceof ArrowType.Timestamp ts) {
      Matcher m = TIMESTAMP.matcher(text);
      if (!m.matches()) {
        throw new IllegalArgumentException("not a timestamp YYYY-MM-DD HH:MM:SS[.ffffff]");
      }
      LocalDateTime local = LocalDateTime.parse(m.group(1) + "T" + m.group(2) + (m.group(3) == null ? "" : m.group(3)));
      if (truncate(local, ts).compareTo(local) != 0) {
        throw new IllegalArgumentException("more precision than " + ArrowTypeNames.name(ts));
      }
      if (ts.getTimezone() == null) {
        if (m.group(4) != null) {
          throw new IllegalArgumentException("a naive timestamp has no UTC offset");
        }
        return local;
      }
      if (m.group(4) == null) {
        throw new IllegalArgumentException("the UTC offset is missing");
      }
      return local.toInstant(ZoneOffset.of(m.group(4)));
    }
    if (type instanceof ArrowType.Decimal decimal) {
      BigDecimal d = new BigDecimal(text).setScale(decimal.getScale(), RoundingMode.UNNECESSARY);
      if (d.precision() > decimal.getPrecision() && d.signum() != 0) {
        throw new IllegalArgumentException("more than " + decimal.getPrecision() + " digits");
      }
      return d;
    }
    throw new IllegalStateException("unreachable: " + type);
  }

  private static double parseFloat(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    String unsigned = lower.startsWith("-") || lower.startsWith("+") ? lower.substring(1) : lower;
    boolean negative = lower.startsWith("-");
    switch (unsigned) {
      case "nan":
        return Double.NaN;
      case "inf":
      case "infinity":
        return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
      default:
        if (!FLOAT.matcher(text).matches()) {
          throw new IllegalArgumentException("not a float");
        }
        return Double.parseDouble(text);
    }
  }

  private static String renderLocal(Field column, LocalDateTime local) {
    if (local.getYear() < 1 || local.getYear() > 9999) {
      throw rejectValue(column, local, "timestamps are limited to Python's years 1 to 9999");
    }
    String date = local.toLocalDate().toString();
    String time = String.format("%02d:%02d:%02d", local.getHour(), local.getMinute(), local.getSecond());
    int nanos = local.getNano();
    if (nanos == 0) {
      return date + " " + time;
    }
    if (nanos % 1000 == 0) {
      return date + " " + time + String.format(".%06d", nanos / 1000);
    }
    return date + " " + time + String.format(".%09d", nanos);
  }

  private static void checkPandasRange(Field column, LocalDateTime utc) {
    if (utc.isBefore(PANDAS_MIN) || utc.isAfter(PANDAS_MAX)) {
      throw rejectValue(column, utc, "it is outside pandas' nanosecond range " + PANDAS_MIN + " to " + PANDAS_MAX
          + " (UTC), in which plateau reads partition timestamps back");
    }
  }

  private static LocalDateTime truncate(LocalDateTime local, ArrowType.Timestamp ts) {
    switch (ts.getUnit()) {
      case SECOND:
        return local.truncatedTo(ChronoUnit.SECONDS);
      case MILLISECOND:
        return local.truncatedTo(ChronoUnit.MILLIS);
      case MICROSECOND:
        return local.truncatedTo(ChronoUnit.MICROS);
      default:
        return local;
    }
  }

  private static ZoneId zone(Field column, ArrowType.Timestamp ts) {
    try {
      return ZoneId.of(ts.getTimezone());
    } catch (DateTimeException e) {
      throw refuse(column, "time zone '" + ts.getTimezone() + "' is unknown");
    }
  }

  private static long integer(Field column, Object value) {
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    throw wrongClass(column, value, "Long");
  }

  private static void checkIntRange(Field column, ArrowType.Int type, long v) {
    int bits = type.getBitWidth();
    if (bits == 64) {
      return;
    }
    boolean ok = type.getIsSigned()
        ? v >= -(1L << (bits - 1)) && v < (1L << (bits - 1))
        : v >= 0 && v < (1L << bits);
    if (!ok) {
      throw new IllegalArgumentException("Cannot render partition value " + v + " of column " + column.getName()
          + ": it does not fit " + ArrowTypeNames.name(type));
    }
  }

  private static boolean isBinary(ArrowType type) {
    return type instanceof ArrowType.Binary
        || type instanceof ArrowType.LargeBinary
        || type instanceof ArrowType.FixedSizeBinary;
  }

  private static boolean isSupportedForDecoding(ArrowType type) {
    return type instanceof ArrowType.Int
        || type instanceof ArrowType.FloatingPoint
        || type instanceof ArrowType.Utf8
        || type instanceof ArrowType.LargeUtf8
        || isBinary(type)
        || type instanceof ArrowType.Date
        || type instanceof ArrowType.Timestamp
        || type instanceof ArrowType.Decimal;
  }

  private static KtkValidationException unsupported(Field column) {
    ArrowType type = column.getType();
    return refuse(column, "type " + ArrowTypeNames.name(type) + " is not supported for partition columns"
        + (type instanceof ArrowType.Bool ? " (plateau reads bool partition values back wrongly: 'False' as true)" : ""));
  }

  private static KtkValidationException refuse(Field column, String reason) {
    return new KtkValidationException("Cannot use column " + column.getName() + " as a partition column: " + reason);
  }

  private static KtkValidationException rejectValue(Field column, Object value, String reason) {
    return new KtkValidationException("Cannot encode partition value " + value + " of column " + column.getName() + ": "
        + reason);
  }

  private static IllegalArgumentException wrongClass(Field column, Object value, String expected) {
    return new IllegalArgumentException("Cannot render a partition value of column " + column.getName() + " ("
        + ArrowTypeNames.name(column.getType()) + "): expected a " + expected + ", got a " + value.getClass().getName());
  }
}
