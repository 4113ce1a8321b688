package io.ktk.flink.state.types;

import static java.util.Objects.requireNonNull;

import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.table.data.TimestampData;

/**
 * Coerces timestamp values to microseconds since the epoch, the unit Kartothek stores
 * ({@code timestamp[us]}, Parquet {@code TIMESTAMP(MICROS)}), as plateau does with pyarrow's
 * {@code coerce_timestamps="us"}.
 *
 * <p>Never truncates: a value with a sub-microsecond part is an {@link InvalidValueException},
 * just as pyarrow raises {@code ArrowInvalid: Casting from timestamp[ns] to timestamp[us] would
 * lose data: 1609459200000000100}. So is a value outside the range of a signed 64-bit count of
 * microseconds (about ±292,000 years). Example message:
 *
 * <pre>
 * Cannot write to dataset 'events': column 'ts' holds 2021-01-01T00:00:00.000000100
 * (1609459200000000100 ns since the epoch); Kartothek stores timestamps in microseconds;
 * this value would lose precision
 * </pre>
 *
 * <p>Naive values ({@link LocalDateTime}, {@code TimestampData} of a Flink {@code TIMESTAMP},
 * a {@code timestamp} without zone) count microseconds of the wall clock as if it were UTC,
 * which is what Arrow and Parquet store for timestamps without a time zone. {@link Instant}s
 * and zoned Arrow timestamps count microseconds since 1970-01-01T00:00:00Z. Values are shown
 * in ISO-8601 form, with a {@code Z} when they are instants ({@code TimestampData} does not say
 * whether it is one, so it is always shown without).
 */
public final class TimestampCoercion {
  private static final String PRECISION_RULE =
      "Kartothek stores timestamps in microseconds; this value would lose precision";
  private static final String RANGE_RULE =
      "it is outside the range of timestamp[us] (a signed 64-bit count of microseconds since the epoch)";
  private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000L);

  private TimestampCoercion() {}

  /**
   * Microseconds of a raw Arrow timestamp value {@code value} of type {@code type} (unit
   * {@code s}, {@code ms}, {@code us} or {@code ns}; the zone only affects how errors show it).
   */
  public static long toMicros(String dataset, String column, long value, ArrowType.Timestamp type) {
    requireNonNull(type, "type is null");
    TimeUnit unit = type.getUnit();
    boolean zoned = type.getTimezone() != null;
    return switch (unit) {
      case MICROSECOND -> value;
      case NANOSECOND -> {
        if (Math.floorMod(value, 1000L) != 0) {
          throw invalid(dataset, column, BigInteger.valueOf(value), zoned, PRECISION_RULE);
        }
        yield Math.floorDiv(value, 1000L);
      }
      case MILLISECOND -> scaleExactly(dataset, column, value, 1000L, 1_000_000L, zoned);
      case SECOND -> scaleExactly(dataset, column, value, 1_000_000L, 1_000_000_000L, zoned);
    };
  }

  /** Microseconds since the epoch of {@code value}. */
  public static long toMicros(String dataset, String column, Instant value) {
    requireNonNull(value, "value is null");
    return micros(dataset, column, value.getEpochSecond(), value.getNano(), true);
  }

  /** Microseconds since the epoch of {@code value} read as a UTC wall clock. */
  public static long toMicros(String dataset, String column, LocalDateTime value) {
    requireNonNull(value, "value is null");
    return micros(dataset, column, value.toEpochSecond(ZoneOffset.UTC), value.getNano(), false);
  }

  /** Microseconds of a Flink timestamp (epoch milliseconds plus nanoseconds of the millisecond). */
  public static long toMicros(String dataset, String column, TimestampData value) {
    requireNonNull(value, "value is null");
    long millis = value.getMillisecond();
    int nanoOfMillisecond = value.getNanoOfMillisecond();
    return micros(dataset, column, Math.floorDiv(millis, 1000L),
        (int) Math.floorMod(millis, 1000L) * 1_000_000 + nanoOfMillisecond, false);
  }

  /**
   * Microseconds of an {@link Instant}, {@link LocalDateTime} or {@link TimestampData};
   * anything else is an {@link InvalidValueException}.
   */
  public static long toMicros(String dataset, String column, Object value) {
    requireNonNull(value, "value is null");
    if (value instanceof Instant instant) {
      return toMicros(dataset, column, instant);
    } else if (value instanceof LocalDateTime localDateTime) {
      return toMicros(dataset, column, localDateTime);
    } else if (value instanceof TimestampData timestampData) {
      return toMicros(dataset, column, timestampData);
    }
    throw new InvalidValueException("Cannot write to dataset '" + dataset + "': column '" + column + "' holds "
        + value + " of Java class " + value.getClass().getName()
        + " where a timestamp (Instant, LocalDateTime or TimestampData) is expected");
  }

  private static long scaleExactly(String dataset, String column, long value, long toMicros, long toNanos,
      boolean zoned) {
    try {
      return Math.multiplyExact(value, toMicros);
    } catch (ArithmeticException overflow) {
      throw invalid(dataset, column, BigInteger.valueOf(value).multiply(BigInteger.valueOf(toNanos)), zoned,
          RANGE_RULE);
    }
  }

  private static long micros(String dataset, String column, long epochSecond, int nanoOfSecond, boolean zoned) {
    if (nanoOfSecond % 1000 != 0) {
      throw invalid(dataset, column, nanos(epochSecond, nanoOfSecond), zoned, PRECISION_RULE);
    }
    try {
      if (epochSecond < 0 && nanoOfSecond > 0) {
        // Near the lower end of the range, epochSecond * 10^6 alone overflows although the sum does not.
        return Math.addExact(Math.multiplyExact(epochSecond + 1, 1_000_000L), nanoOfSecond / 1000 - 1_000_000L);
      }
      return Math.addExact(Math.multiplyExact(epochSecond, 1_000_000L), nanoOfSecond / 1000);
    } catch (ArithmeticException overflow) {
      throw invalid(dataset, column, nanos(epochSecond, nanoOfSecond), zoned, RANGE_RULE);
    }
  }

  private static BigInteger nanos(long epochSecond, int nanoOfSecond) {
    return BigInteger.valueOf(epochSecond).multiply(NANOS_PER_SECOND).add(BigInteger.valueOf(nanoOfSecond));
  }

  private static InvalidValueException invalid(String dataset, String column, BigInteger nanos, boolean zoned,
      String rule) {
    return new InvalidValueException("Cannot write to dataset '" + dataset + "': column '" + column + "' holds "
        + iso(nanos, zoned) + " (" + nanos + " ns since the epoch); " + rule);
  }

  private static String iso(BigInteger nanos, boolean zoned) {
    BigInteger[] secondsAndNanos = nanos.divideAndRemainder(NANOS_PER_SECOND);
    BigInteger seconds = secondsAndNanos[0];
    BigInteger nanoOfSecond = secondsAndNanos[1];
    if (nanoOfSecond.signum() < 0) {
      seconds = seconds.subtract(BigInteger.ONE);
      nanoOfSecond = nanoOfSecond.add(NANOS_PER_SECOND);
    }
    try {
      Instant instant = Instant.ofEpochSecond(seconds.longValueExact(), nanoOfSecond.longValue());
      return zoned ? instant.toString() : LocalDateTime.ofInstant(instant, ZoneOffset.UTC).toString();
    } catch (ArithmeticException | DateTimeException beyondJavaTime) {
      return "a time beyond the range of java.time";
    }
  }
}
