package io.ktk.flink.state.vector;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * What the longs of a {@link LongVector} mean, and so which typed value each one boxes to:
 * integers, dates (days since the epoch), times of day (nanoseconds), timestamps (units since the
 * epoch, with the unit and whether they are UTC instants) or decimals (unscaled, with the scale).
 */
public record LongType(Kind kind, long nanosPerUnit, boolean utc, int scale) {
  /** The interpretations. */
  public enum Kind {
    /** A signed integer, or an unsigned one of up to 32 bits (which fits a long as it is). */
    INTEGER,
    /** An unsigned 64-bit integer, as its bits (the typed value is the long of the same bits). */
    UNSIGNED_64,
    DATE,
    TIME,
    TIMESTAMP,
    DECIMAL
  }

  public static final LongType INTEGER = new LongType(Kind.INTEGER, 0, false, 0);
  public static final LongType UNSIGNED_64 = new LongType(Kind.UNSIGNED_64, 0, false, 0);
  public static final LongType DATE = new LongType(Kind.DATE, 0, false, 0);
  public static final LongType TIME = new LongType(Kind.TIME, 1, false, 0);

  /** Timestamps in units of {@code nanosPerUnit} nanoseconds; {@code utc}: instants, else local. */
  public static LongType timestamp(long nanosPerUnit, boolean utc) {
    return new LongType(Kind.TIMESTAMP, nanosPerUnit, utc, 0);
  }

  public static LongType decimal(int scale) {
    return new LongType(Kind.DECIMAL, 0, false, scale);
  }

  /** The typed value of {@code value}. */
  public Object box(long value) {
    return switch (kind) {
      case INTEGER, UNSIGNED_64 -> value;
      case DATE -> LocalDate.ofEpochDay(value);
      case TIME -> LocalTime.ofNanoOfDay(value);
      case DECIMAL -> BigDecimal.valueOf(value, scale);
      case TIMESTAMP -> {
        long unitsPerSecond = 1_000_000_000L / nanosPerUnit;
        long seconds = Math.floorDiv(value, unitsPerSecond);
        int nanos = (int) (Math.floorMod(value, unitsPerSecond) * nanosPerUnit);
        yield utc ? Instant.ofEpochSecond(seconds, nanos) : LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
      }
    };
  }
}
