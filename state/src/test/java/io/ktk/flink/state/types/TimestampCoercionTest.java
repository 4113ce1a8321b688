package io.ktk.flink.state.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.KtkValidationException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Random;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.table.data.TimestampData;
import org.junit.jupiter.api.Test;

class TimestampCoercionTest {
  private static final ArrowType.Timestamp NS = new ArrowType.Timestamp(TimeUnit.NANOSECOND, null);
  private static final ArrowType.Timestamp NS_UTC = new ArrowType.Timestamp(TimeUnit.NANOSECOND, "UTC");
  private static final ArrowType.Timestamp US = new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
  private static final ArrowType.Timestamp MS = new ArrowType.Timestamp(TimeUnit.MILLISECOND, null);
  private static final ArrowType.Timestamp S = new ArrowType.Timestamp(TimeUnit.SECOND, null);
  private static final long JAN_1_2021_MICROS = 1_609_459_200_000_000L;

  @Test
  void rawValuesOfEveryUnitBecomeMicroseconds() {
    assertThat(TimestampCoercion.toMicros("ds", "ts", 1_609_459_200_000_001_000L, NS)).isEqualTo(JAN_1_2021_MICROS + 1);
    assertThat(TimestampCoercion.toMicros("ds", "ts", JAN_1_2021_MICROS, US)).isEqualTo(JAN_1_2021_MICROS);
    assertThat(TimestampCoercion.toMicros("ds", "ts", 1_609_459_200_123L, MS)).isEqualTo(JAN_1_2021_MICROS + 123_000);
    assertThat(TimestampCoercion.toMicros("ds", "ts", 1_609_459_200L, S)).isEqualTo(JAN_1_2021_MICROS);
    assertThat(TimestampCoercion.toMicros("ds", "ts", -1000L, NS)).isEqualTo(-1L);
    assertThat(TimestampCoercion.toMicros("ds", "ts", -1L, MS)).isEqualTo(-1000L);
  }

  /** The example of Kartothek's type system documentation: pd.Timestamp("2021-01-01 00:00:00.0000001") cannot be stored. */
  @Test
  void nanosecondPartIsRejectedNotTruncated() {
    assertThatThrownBy(() -> TimestampCoercion.toMicros("events", "ts", 1_609_459_200_000_000_100L, NS))
        .isInstanceOf(InvalidValueException.class)
        .isInstanceOf(KtkValidationException.class)
        .hasMessage("Cannot write to dataset 'events': column 'ts' holds 2021-01-01T00:00:00.000000100"
            + " (1609459200000000100 ns since the epoch); Kartothek stores timestamps in microseconds;"
            + " this value would lose precision");
  }

  @Test
  void zonedValuesAreShownAsInstants() {
    assertThatThrownBy(() -> TimestampCoercion.toMicros("events", "ts", 1_609_459_200_000_000_100L, NS_UTC))
        .hasMessageContaining("holds 2021-01-01T00:00:00.000000100Z (1609459200000000100 ns since the epoch)");
  }

  @Test
  void negativeValueWithANanosecondPartIsRejected() {
    assertThatThrownBy(() -> TimestampCoercion.toMicros("events", "ts", -1L, NS))
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining("holds 1969-12-31T23:59:59.999999999 (-1 ns since the epoch)");
  }

  @Test
  void valuesBeyondTheMicrosecondRangeAreRejected() {
    assertThatThrownBy(() -> TimestampCoercion.toMicros("events", "ts", Long.MAX_VALUE / 100, MS))
        .isInstanceOf(InvalidValueException.class)
        .hasMessageContaining("column 'ts' holds ")
        .hasMessageContaining("(" + Long.MAX_VALUE / 100 + "000000 ns since the epoch)")
        .hasMessageContaining("it is outside the range of timestamp[us]");
    assertThatThrownBy(() -> TimestampCoercion.toMicros("events", "ts", Long.MIN_VALUE, S))
        .hasMessageContaining(
            "a time beyond the range of java.time (" + Long.MIN_VALUE + "000000000 ns since the epoch)")
        .hasMessageContaining("outside the range of timestamp[us]");
    assertThatThrownBy(() -> TimestampCoercion.toMicros("events", "ts", Instant.MAX))
        .hasMessageContaining("+1000000000-12-31T23:59:59.999999999Z")
        .hasMessageContaining("would lose precision");
    assertThatThrownBy(() -> TimestampCoercion.toMicros("events", "ts", Instant.MAX.truncatedTo(ChronoUnit.SECONDS)))
        .hasMessageContaining("+1000000000-12-31T23:59:59Z")
        .hasMessageContaining("outside the range of timestamp[us]");
  }

  @Test
  void extremesOfTheMicrosecondRangeAreExact() {
    Instant min = Instant.EPOCH.plus(Long.MIN_VALUE, ChronoUnit.MICROS);
    Instant max = Instant.EPOCH.plus(Long.MAX_VALUE, ChronoUnit.MICROS);
    assertThat(TimestampCoercion.toMicros("ds", "ts", min)).isEqualTo(Long.MIN_VALUE);
    assertThat(TimestampCoercion.toMicros("ds", "ts", max)).isEqualTo(Long.MAX_VALUE);
    assertThat(TimestampCoercion.toMicros("ds", "ts", LocalDateTime.ofInstant(min, ZoneOffset.UTC)))
        .isEqualTo(Long.MIN_VALUE);
    assertThat(TimestampCoercion.toMicros("ds", "ts", TimestampData.fromInstant(max))).isEqualTo(Long.MAX_VALUE);
    assertThatThrownBy(() -> TimestampCoercion.toMicros("ds", "ts", min.minus(1, ChronoUnit.MICROS)))
        .hasMessageContaining("outside the range of timestamp[us]");
    assertThatThrownBy(() -> TimestampCoercion.toMicros("ds", "ts", max.plus(1, ChronoUnit.MICROS)))
        .hasMessageContaining("outside the range of timestamp[us]");
  }

  @Test
  void instantsLocalDateTimesAndFlinkTimestampsBecomeMicroseconds() {
    Instant instant = Instant.parse("2021-01-01T00:00:00.000001Z");
    assertThat(TimestampCoercion.toMicros("ds", "ts", instant)).isEqualTo(JAN_1_2021_MICROS + 1);
    assertThat(TimestampCoercion.toMicros("ds", "ts", LocalDateTime.parse("2021-01-01T00:00:00.000001")))
        .isEqualTo(JAN_1_2021_MICROS + 1);
    assertThat(TimestampCoercion.toMicros("ds", "ts", TimestampData.fromEpochMillis(1_609_459_200_000L, 1_000)))
        .isEqualTo(JAN_1_2021_MICROS + 1);
    assertThat(TimestampCoercion.toMicros("ds", "ts", TimestampData.fromEpochMillis(-1L, 999_000)))
        .isEqualTo(-1L);
  }

  @Test
  void subMicrosecondInstantsLocalDateTimesAndFlinkTimestampsAreRejected() {
    Instant instant = Instant.parse("2021-01-01T00:00:00.000000100Z");
    assertThatThrownBy(() -> TimestampCoercion.toMicros("events", "ts", instant))
        .isInstanceOf(InvalidValueException.class)
        .hasMessage("Cannot write to dataset 'events': column 'ts' holds 2021-01-01T00:00:00.000000100Z"
            + " (1609459200000000100 ns since the epoch); Kartothek stores timestamps in microseconds;"
            + " this value would lose precision");
    LocalDateTime localDateTime = LocalDateTime.parse("2021-01-01T00:00:00.000000100");
    assertThatThrownBy(() -> TimestampCoercion.toMicros("events", "ts", localDateTime))
        .hasMessageContaining("holds 2021-01-01T00:00:00.000000100 (1609459200000000100 ns since the epoch)");
    TimestampData timestampData = TimestampData.fromEpochMillis(1_609_459_200_000L, 100);
    assertThatThrownBy(() -> TimestampCoercion.toMicros("events", "ts", timestampData))
        .hasMessageContaining("holds 2021-01-01T00:00:00.000000100 (1609459200000000100 ns since the epoch)");
  }

  @Test
  void objectsAreDispatchedByClass() {
    Object[] values = {Instant.ofEpochSecond(0, 2_000), LocalDateTime.ofEpochSecond(0, 2_000, ZoneOffset.UTC),
        TimestampData.fromEpochMillis(0, 2_000)};
    for (Object value : values) {
      assertThat(TimestampCoercion.toMicros("ds", "ts", value)).as("%s", value).isEqualTo(2L);
    }
    assertThatThrownBy(() -> TimestampCoercion.toMicros("ds", "ts", (Object) "2021-01-01"))
        .isInstanceOf(InvalidValueException.class)
        .hasMessage("Cannot write to dataset 'ds': column 'ts' holds 2021-01-01 of Java class java.lang.String"
            + " where a timestamp (Instant, LocalDateTime or TimestampData) is expected");
  }

  /** Seeded: every form of a random microsecond count gives it back; a sub-microsecond offset never passes. */
  @Test
  void randomTimestampsRoundTripAndSubMicrosecondOffsetsAreRejected() {
    long seed = new Random().nextLong();
    Random random = new Random(seed);
    for (int i = 0; i < 10_000; i++) {
      long micros = i % 2 == 0 ? random.nextLong() : random.nextLong() / 1_000_000;
      Instant instant = Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
      String description = "seed " + seed + ", micros " + micros;
      assertThat(TimestampCoercion.toMicros("ds", "ts", instant)).as(description).isEqualTo(micros);
      assertThat(TimestampCoercion.toMicros("ds", "ts", LocalDateTime.ofInstant(instant, ZoneOffset.UTC)))
          .as(description).isEqualTo(micros);
      assertThat(TimestampCoercion.toMicros("ds", "ts", TimestampData.fromInstant(instant))).as(description)
          .isEqualTo(micros);
      int offset = 1 + random.nextInt(999);
      assertThatThrownBy(() -> TimestampCoercion.toMicros("ds", "ts", instant.plusNanos(offset))).as(description)
          .isInstanceOf(InvalidValueException.class);
      if (Math.abs(micros) < Long.MAX_VALUE / 1000) {
        assertThat(TimestampCoercion.toMicros("ds", "ts", micros * 1000, NS)).as(description).isEqualTo(micros);
        assertThatThrownBy(() -> TimestampCoercion.toMicros("ds", "ts", micros * 1000 + offset, NS)).as(description)
            .isInstanceOf(InvalidValueException.class);
      }
    }
  }
}
