package io.ktk.flink.source.reader;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.metadata.IndexFile;
import io.ktk.flink.state.rowformat.RowBuffer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

/**
 * Cell keys order and compare exactly like the values, as the indices order them ({@link
 * IndexFile#valueOrder}, the reference): for every type a cell column can have, seeded random pairs.
 */
class KeyEncoderTest {
  private static final long SEED = 7;

  private static void check(ArrowType type, Supplier<Object> values) {
    Field field = new Field("k", FieldType.nullable(type), null);
    KeyEncoder encoder = new KeyEncoder(List.of(field));
    Comparator<Object> reference = IndexFile.valueOrder(type);
    RowBuffer a = new RowBuffer();
    RowBuffer b = new RowBuffer();
    for (int i = 0; i < 2000; i++) {
      Object x = values.get();
      Object y = i % 5 == 0 ? x : values.get();
      encoder.encode(new Object[] {x}, new int[] {0}, a);
      byte[] ka = a.toByteArray();
      encoder.encode(new Object[] {y}, new int[] {0}, b);
      int keys = Integer.signum(Arrays.compareUnsigned(ka, b.toByteArray()));
      assertThat(keys).as("%s: %s vs %s", type, show(x), show(y)).isEqualTo(Integer.signum(reference.compare(x, y)));
    }
  }

  private static String show(Object value) {
    return value instanceof byte[] bytes ? Arrays.toString(bytes) : String.valueOf(value);
  }

  @Test
  void keysOrderLikeTheValuesForEveryCellColumnType() {
    Random r = new Random(SEED);
    long[] edges = {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE};
    check(new ArrowType.Int(64, true), () -> r.nextBoolean() ? edges[r.nextInt(5)] : (long) r.nextInt(7) - 3);
    check(new ArrowType.Int(64, false), () -> r.nextBoolean() ? edges[r.nextInt(5)] : r.nextLong());
    double[] doubles = {Double.NaN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -0.0, 0.0, -1.5, 2.5,
        Double.MIN_VALUE, -Double.MAX_VALUE};
    check(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), () -> doubles[r.nextInt(doubles.length)]);
    check(ArrowType.Bool.INSTANCE, r::nextBoolean);
    String[] strings = {"", "a", "ab", "b", "é", "\uD83D\uDE00", "a".repeat(40), "a".repeat(40) + "b", "A"};
    check(ArrowType.Utf8.INSTANCE, () -> strings[r.nextInt(strings.length)]);
    check(ArrowType.Binary.INSTANCE, () -> {
      byte[] bytes = new byte[r.nextInt(40)];
      r.nextBytes(bytes);
      return bytes;
    });
    check(new ArrowType.Date(DateUnit.DAY), () -> LocalDate.ofEpochDay(r.nextInt(200_000) - 100_000));
    check(new ArrowType.Timestamp(TimeUnit.MICROSECOND, null), () -> LocalDateTime.ofEpochSecond(
        r.nextInt(2000) - 1000, r.nextBoolean() ? 0 : r.nextInt(1_000_000_000), ZoneOffset.UTC));
    check(new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"),
        () -> Instant.ofEpochSecond(r.nextInt(2000) - 1000, r.nextInt(3) * 999_999_999L / 2));
    check(new ArrowType.Time(TimeUnit.NANOSECOND, 64), () -> LocalTime.ofNanoOfDay(Math.floorMod(r.nextLong(),
        86_400_000_000_000L)));
    check(new ArrowType.Decimal(20, 3, 128), () -> new BigDecimal(new BigInteger(60, r).subtract(BigInteger.ONE.shiftLeft(59)), 3));
  }

  @Test
  void severalColumnsOrderColumnByColumn() {
    Field text = new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null);
    Field number = new Field("n", FieldType.nullable(new ArrowType.Int(64, true)), null);
    KeyEncoder encoder = new KeyEncoder(List.of(text, number));
    List<Object[]> rows = new ArrayList<>(List.of(
        new Object[] {"b", 1L}, new Object[] {"a", 2L}, new Object[] {"a", -5L}, new Object[] {"", 9L}));
    RowBuffer buffer = new RowBuffer();
    rows.sort((x, y) -> {
      encoder.encode(x, new int[] {0, 1}, buffer);
      byte[] kx = buffer.toByteArray();
      encoder.encode(y, new int[] {0, 1}, buffer);
      return Arrays.compareUnsigned(kx, buffer.toByteArray());
    });
    assertThat(rows).extracting(row -> row[0] + ":" + row[1]).containsExactly(":9", "a:-5", "a:2", "b:1");
  }
}
