package io.ktk.flink.state.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.types.ArrowTypeNames;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

class PartitionValuesTest {
  static final Field INT64 = field("p", new ArrowType.Int(64, true));
  static final Field INT8 = field("p", new ArrowType.Int(8, true));
  static final Field UINT64 = field("p", new ArrowType.Int(64, false));
  static final Field FLOAT64 = field("f", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  static final Field FLOAT32 = field("f", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
  static final Field STRING = field("s", ArrowType.Utf8.INSTANCE);
  static final Field LARGE_STRING = field("s", ArrowType.LargeUtf8.INSTANCE);
  static final Field BINARY = field("b", ArrowType.Binary.INSTANCE);
  static final Field DATE = field("d", new ArrowType.Date(DateUnit.DAY));
  static final Field TIMESTAMP = field("t", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null));
  static final Field TIMESTAMP_NS = field("t", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null));
  static final Field TIMESTAMP_UTC = field("t", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"));
  static final Field TIMESTAMP_BERLIN = field("t", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "Europe/Berlin"));
  static final Field DECIMAL = field("m", new ArrowType.Decimal(5, 2, 128));
  static final Field BOOL = field("flag", ArrowType.Bool.INSTANCE);

  static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.notNullable(type), null);
  }

  @Test
  void integersRenderAsPythonIntsIncludingUnsignedAboveLongMax() {
    assertThat(PartitionValues.encode(INT64, 1L)).isEqualTo("1");
    assertThat(PartitionValues.encode(INT64, -42L)).isEqualTo("-42");
    assertThat(PartitionValues.encode(INT64, Long.MIN_VALUE)).isEqualTo("-9223372036854775808");
    assertThat(PartitionValues.encode(UINT64, -1L)).isEqualTo("18446744073709551615");
    assertThat(PartitionValues.decode("p=18446744073709551615/x", UINT64, "18446744073709551615")).isEqualTo(-1L);
  }

  @Test
  void floatsRenderAsPythonRepr() {
    assertThat(PartitionValues.render(FLOAT64, 1.5)).isEqualTo("1.5");
    assertThat(PartitionValues.render(FLOAT64, 1.0)).isEqualTo("1.0");
    assertThat(PartitionValues.render(FLOAT64, 1e20)).isEqualTo("1e+20");
    assertThat(PartitionValues.render(FLOAT64, 1e16)).isEqualTo("1e+16");
    assertThat(PartitionValues.render(FLOAT64, 1e15)).isEqualTo("1000000000000000.0");
    assertThat(PartitionValues.render(FLOAT64, 0.0001)).isEqualTo("0.0001");
    assertThat(PartitionValues.render(FLOAT64, 0.00001)).isEqualTo("1e-05");
    assertThat(PartitionValues.render(FLOAT64, Double.NaN)).isEqualTo("nan");
    assertThat(PartitionValues.render(FLOAT64, Double.POSITIVE_INFINITY)).isEqualTo("inf");
    assertThat(PartitionValues.render(FLOAT64, Double.NEGATIVE_INFINITY)).isEqualTo("-inf");
    assertThat(PartitionValues.render(FLOAT64, -0.0)).isEqualTo("-0.0");
    // Java 17 prints 2.0E-3 as "0.002" but some values non-shortest; Python prints the shortest
    assertThat(PartitionValues.render(FLOAT64, 2e23)).isEqualTo("2e+23");
    assertThat(PartitionValues.render(FLOAT64, 0.1 + 0.2)).isEqualTo("0.30000000000000004");
    assertThat(PartitionValues.encode(FLOAT64, 1e20)).isEqualTo("1e%2B20");
    assertThat(PartitionValues.render(FLOAT32, (double) 0.1f)).isEqualTo("0.10000000149011612");
  }

  @Test
  void datesAndTimestampsRenderAsPandasStr() {
    assertThat(PartitionValues.render(DATE, LocalDate.of(2020, 1, 2))).isEqualTo("2020-01-02");
    assertThat(PartitionValues.render(TIMESTAMP, LocalDateTime.of(2020, 1, 2, 3, 4, 5, 123_456_000)))
        .isEqualTo("2020-01-02 03:04:05.123456");
    assertThat(PartitionValues.render(TIMESTAMP, LocalDateTime.of(2020, 1, 2, 3, 4, 5)))
        .isEqualTo("2020-01-02 03:04:05");
    assertThat(PartitionValues.render(TIMESTAMP, LocalDateTime.of(2020, 1, 2, 0, 0)))
        .isEqualTo("2020-01-02 00:00:00");
    assertThat(PartitionValues.render(TIMESTAMP, LocalDateTime.of(2020, 1, 2, 3, 4, 5, 120_000_000)))
        .isEqualTo("2020-01-02 03:04:05.120000");
    assertThat(PartitionValues.render(TIMESTAMP_NS, LocalDateTime.of(2020, 1, 2, 3, 4, 5, 1)))
        .isEqualTo("2020-01-02 03:04:05.000000001");
    assertThat(PartitionValues.render(TIMESTAMP_UTC, Instant.parse("2020-01-02T03:04:05Z")))
        .isEqualTo("2020-01-02 03:04:05+00:00");
    assertThat(PartitionValues.render(TIMESTAMP_BERLIN, Instant.parse("2020-07-02T03:04:05.5Z")))
        .isEqualTo("2020-07-02 05:04:05.500000+02:00");
    assertThat(PartitionValues.encode(TIMESTAMP, LocalDateTime.of(2020, 1, 2, 3, 4, 5, 123_456_000)))
        .isEqualTo("2020-01-02%2003%3A04%3A05.123456");
  }

  @Test
  void stringsArePercentEncodedKeepingOnlyUnreservedCharactersIncludingSlash() {
    assertThat(PartitionValues.encode(STRING, "a")).isEqualTo("a");
    assertThat(PartitionValues.encode(STRING, "a b/c=d%e+f")).isEqualTo("a%20b%2Fc%3Dd%25e%2Bf");
    assertThat(PartitionValues.encode(STRING, "AZaz09-_.~")).isEqualTo("AZaz09-_.~");
    assertThat(PartitionValues.encode(LARGE_STRING, "ü日😀")).isEqualTo("%C3%BC%E6%97%A5%F0%9F%98%80");
    assertThat(PartitionValues.encode(STRING, "")).as("plateau writes p=/<file id>").isEmpty();
    assertThat(PartitionValues.decode("s=/x", STRING, "")).isEqualTo("");
    assertThat(PartitionValues.decode("s=a%2fb/x", STRING, "a%2fb")).as("lowercase hex").isEqualTo("a/b");
  }

  @Test
  void binaryValuesAreTheirRawBytesAndMustBeUtf8() {
    assertThat(PartitionValues.encode(BINARY, new byte[] {'a', '/'})).isEqualTo("a%2F");
    assertThat((byte[]) PartitionValues.decode("b=a%2F/x", BINARY, "a%2F")).containsExactly('a', '/');
    assertThatThrownBy(() -> PartitionValues.encode(BINARY, new byte[] {(byte) 0xFF}))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("column b")
        .hasMessageContaining("UTF-8");
  }

  @Test
  void decimalsDecodeButAreNotWrittenBecausePlateauCannotIndexThem() {
    assertThat(PartitionValues.render(DECIMAL, new BigDecimal("1.5"))).isEqualTo("1.50");
    assertThat(PartitionValues.decode("m=1.50/x", DECIMAL, "1.50")).isEqualTo(new BigDecimal("1.50"));
    assertThatThrownBy(() -> PartitionValues.encode(DECIMAL, new BigDecimal("1.50")))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("column m")
        .hasMessageContaining("decimal");
    assertThatThrownBy(() -> PartitionValues.decode("m=1.505/x", DECIMAL, "1.505"))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("m=1.505/x");
  }

  @Test
  void boolPartitionColumnsAreRefusedBothWays() {
    assertThatThrownBy(() -> PartitionValues.encode(BOOL, true))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("column flag")
        .hasMessageContaining("type bool")
        .hasMessageContaining("plateau reads bool partition values back wrongly");
    assertThatThrownBy(() -> PartitionValues.decode("flag=True/x", BOOL, "True"))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("column flag");
    assertThatThrownBy(() -> PartitionValues.checkPartitionColumn(BOOL)).isInstanceOf(KtkValidationException.class);
    assertThatThrownBy(() -> PartitionValues.checkPartitionColumn(field("tm", new ArrowType.Time(TimeUnit.MICROSECOND, 64))))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("column tm");
  }

  @Test
  void nullValuesAreRefused() {
    assertThatThrownBy(() -> PartitionValues.encode(STRING, null))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("column s")
        .hasMessageContaining("cannot be null");
  }

  @Test
  void valuesPlateauCannotReadBackAreRefused() {
    assertThatThrownBy(() -> PartitionValues.encode(TIMESTAMP, LocalDateTime.of(1500, 1, 1, 0, 0)))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("column t")
        .hasMessageContaining("1677-09-21");
    assertThatThrownBy(() -> PartitionValues.encode(DATE, LocalDate.of(10000, 1, 1)))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("years 1 to 9999");
    assertThatThrownBy(() -> PartitionValues.encode(STRING, "a\uD800"))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("unpaired surrogate");
  }

  @Test
  void segmentsThatDoNotFitTheColumnTypeAreCorrupt() {
    assertCorrupt(INT64, "abc", "int64");
    assertCorrupt(INT64, "1.0", "int64");
    assertCorrupt(INT8, "300", "out of range");
    assertCorrupt(UINT64, "-1", "out of range");
    assertCorrupt(UINT64, "18446744073709551616", "out of range");
    assertCorrupt(FLOAT64, "1.5d", "not a float");
    assertCorrupt(FLOAT64, "0x1p3", "not a float");
    assertCorrupt(DATE, "2020-13-01", "MonthOfYear");
    assertCorrupt(DATE, "2020-01-02 00:00:00", "not a date");
    assertCorrupt(TIMESTAMP, "2020-01-02T03%3A04%3A05", "not a timestamp");
    assertCorrupt(TIMESTAMP, "2020-01-02%2003%3A04%3A05%2B00%3A00", "no UTC offset");
    assertCorrupt(TIMESTAMP_UTC, "2020-01-02%2003%3A04%3A05", "offset is missing");
    assertCorrupt(TIMESTAMP, "2020-01-02%2003%3A04%3A05.000000001", "more precision");
    assertCorrupt(STRING, "a%2", "not followed by two hex digits");
    assertCorrupt(STRING, "a%zz", "not followed by two hex digits");
    assertCorrupt(STRING, "%FF", "not valid UTF-8");
  }

  private static void assertCorrupt(Field column, String segment, String reason) {
    String label = column.getName() + "=" + segment + "/0123456789abcdef0123456789abcdef";
    assertThatThrownBy(() -> PartitionValues.decode(label, column, segment))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("Cannot read partition label " + label)
        .hasMessageContaining("column " + column.getName())
        .hasMessageContaining(ArrowTypeNames.name(column.getType()))
        .hasMessageContaining(reason);
  }

  @Test
  void decodingAcceptsWhatPythonStrProducesForEveryType() {
    List<Object[]> cases = List.of(
        new Object[] {INT64, "-7", -7L},
        new Object[] {FLOAT64, "nan", Double.NaN},
        new Object[] {FLOAT64, "-inf", Double.NEGATIVE_INFINITY},
        new Object[] {FLOAT64, "1e%2B20", 1e20},
        new Object[] {FLOAT64, "-0.0", -0.0},
        new Object[] {DATE, "0001-01-01", LocalDate.of(1, 1, 1)},
        new Object[] {TIMESTAMP, "2020-01-02%2003%3A04%3A05", LocalDateTime.of(2020, 1, 2, 3, 4, 5)},
        new Object[] {TIMESTAMP_UTC, "2020-01-02%2003%3A04%3A05.000001%2B00%3A00", Instant.parse("2020-01-02T03:04:05.000001Z")},
        new Object[] {TIMESTAMP_BERLIN, "2020-01-02%2004%3A04%3A05%2B01%3A00", Instant.parse("2020-01-02T03:04:05Z")});
    for (Object[] c : cases) {
      assertThat(PartitionValues.decode("x", (Field) c[0], (String) c[1])).as((String) c[1]).isEqualTo(c[2]);
    }
  }
}
