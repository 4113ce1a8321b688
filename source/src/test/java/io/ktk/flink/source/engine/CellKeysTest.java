package io.ktk.flink.source.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.metadata.IndexFile;
import io.ktk.flink.state.vector.LongType;
import io.ktk.flink.state.vector.LongVector;
import io.ktk.flink.state.vector.ObjectVector;
import io.ktk.flink.state.vector.TypedVector;
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
import java.util.stream.IntStream;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

/**
 * Cell keys compare exactly like the values, as the indices order them ({@link
 * IndexFile#valueOrder}, the reference; nulls first), for every type a cell column can have and
 * however the values were read (typed values or longs in any unit); and {@link KeySort} orders rows
 * like a stable sort by that reference.
 */
class CellKeysTest {
  private static final long SEED = 7;

  private static ArrowType.Timestamp micros(String zone) {
    return new ArrowType.Timestamp(TimeUnit.MICROSECOND, zone);
  }

  /** Encodes {@code values} as one key column and checks the order of random pairs against the reference. */
  private static void check(ArrowType type, List<Object> values, Random random) {
    ObjectVector vector = new ObjectVector(values.size());
    values.forEach(vector::append);
    CellKeys keys = encode(List.of(type), List.of(vector));
    Comparator<Object> reference = Comparator.nullsFirst(IndexFile.valueOrder(type));
    for (int i = 0; i < 4000; i++) {
      int x = random.nextInt(values.size());
      int y = i % 5 == 0 ? x : random.nextInt(values.size());
      assertThat(Integer.signum(keys.compare(x, keys, y)))
          .as("%s: %s vs %s", type, show(values.get(x)), show(values.get(y)))
          .isEqualTo(Integer.signum(reference.compare(values.get(x), values.get(y))));
    }
  }

  private static CellKeys encode(List<ArrowType> types, List<TypedVector> vectors) {
    List<KeyKind> kinds = types.stream().map(t -> KeyKind.of(new Field("k", FieldType.nullable(t), null))).toList();
    KeyRanks[] ranks = new KeyRanks[kinds.size()];
    for (int c = 0; c < ranks.length; c++) {
      ranks[c] = kinds.get(c) == KeyKind.RANKED ? new KeyRanks() : null;
    }
    CellKeys keys = CellKeys.encode(kinds, vectors, vectors.get(0).size(), ranks);
    keys.resolveRanks(kinds, ranks);
    return keys;
  }

  private static List<Object> values(int n, Random random, Supplier<Object> value) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      values.add(random.nextInt(10) == 0 ? null : value.get());
    }
    return values;
  }

  private static String show(Object value) {
    return value instanceof byte[] bytes ? Arrays.toString(bytes) : String.valueOf(value);
  }

  @Test
  void keysOrderLikeTheValuesForEveryCellColumnType() {
    Random r = new Random(SEED);
    long[] edges = {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE};
    check(new ArrowType.Int(64, true), values(300, r, () -> r.nextBoolean() ? edges[r.nextInt(5)] : (long) r.nextInt(7) - 3), r);
    check(new ArrowType.Int(64, false), values(300, r, () -> r.nextBoolean() ? edges[r.nextInt(5)] : r.nextLong()), r);
    double[] doubles = {Double.NaN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -0.0, 0.0, -1.5, 2.5,
        Double.MIN_VALUE, -Double.MAX_VALUE};
    check(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), values(300, r, () -> doubles[r.nextInt(doubles.length)]), r);
    check(ArrowType.Bool.INSTANCE, values(300, r, r::nextBoolean), r);
    String[] strings = {"", "a", "ab", "b", "é", "\uD83D\uDE00", "\uFFFD", "\uE000x", "a".repeat(40), "a".repeat(40) + "b", "A"};
    check(ArrowType.Utf8.INSTANCE, values(300, r, () -> strings[r.nextInt(strings.length)]), r);
    check(ArrowType.Binary.INSTANCE, values(300, r, () -> {
      byte[] bytes = new byte[r.nextInt(4)];
      r.nextBytes(bytes);
      return bytes;
    }), r);
    check(new ArrowType.Date(DateUnit.DAY), values(300, r, () -> LocalDate.ofEpochDay(r.nextInt(200_000) - 100_000)), r);
    check(micros(null), values(300, r, () -> LocalDateTime.ofEpochSecond(
        r.nextInt(2000) - 1000, r.nextBoolean() ? 0 : r.nextInt(1_000_000_000), ZoneOffset.UTC)), r);
    check(micros("UTC"), values(300, r, () -> Instant.ofEpochSecond(r.nextInt(2000) - 1000, r.nextInt(3) * 999_999_999L / 2)), r);
    check(new ArrowType.Time(TimeUnit.NANOSECOND, 64),
        values(300, r, () -> LocalTime.ofNanoOfDay(Math.floorMod(r.nextLong(), 86_400_000_000_000L))), r);
    check(new ArrowType.Decimal(20, 3, 128),
        values(300, r, () -> new BigDecimal(new BigInteger(60, r).subtract(BigInteger.ONE.shiftLeft(59)), 3)), r);
  }

  @Test
  void timestampsReadInDifferentUnitsGiveEqualKeys() {
    // the same instants as milliseconds (one file) and as nanoseconds (another), and as typed values
    long[] millis = {-1_500, -1, 0, 1, 1_700_000_000_123L};
    LongVector inMillis = new LongVector(LongType.timestamp(1_000_000L, true), millis.length);
    LongVector inNanos = new LongVector(LongType.timestamp(1L, true), millis.length);
    ObjectVector typed = new ObjectVector(millis.length);
    for (long m : millis) {
      inMillis.append(m);
      inNanos.append(m * 1_000_000L);
      typed.append(Instant.ofEpochMilli(m));
    }
    CellKeys a = encode(List.of(micros("UTC")), List.of(inMillis));
    CellKeys b = encode(List.of(micros("UTC")), List.of(inNanos));
    CellKeys c = encode(List.of(micros("UTC")), List.of(typed));
    for (int i = 0; i < millis.length; i++) {
      assertThat(a.compare(i, b, i)).as("row %d", i).isZero();
      assertThat(a.compare(i, c, i)).as("row %d", i).isZero();
      if (i > 0) {
        assertThat(a.compare(i - 1, b, i)).as("row %d", i).isNegative();
      }
    }
  }

  @Test
  void sortingOrdersRowsLikeAStableSortByTheValues() {
    Random r = new Random(SEED);
    for (int round = 0; round < 20; round++) {
      int n = 1 + r.nextInt(round < 10 ? 50 : 70_000);
      // a sparse long column (the sort path, not the dense one), a string and a timestamp, with nulls
      List<Object> longs = values(n, r, () -> r.nextInt(3) == 0 ? r.nextLong() : (long) r.nextInt(20) * 1_000_003L);
      List<Object> texts = values(n, r, () -> "s" + r.nextInt(5));
      List<Object> times = values(n, r, () -> LocalDateTime.ofEpochSecond(r.nextInt(3), r.nextInt(2), ZoneOffset.UTC));
      List<ArrowType> types = List.of(new ArrowType.Int(64, true), ArrowType.Utf8.INSTANCE, micros(null));
      List<List<Object>> columns = round % 2 == 0 ? List.of(longs) : List.of(texts, longs, times);
      List<ArrowType> columnTypes = round % 2 == 0 ? types.subList(0, 1)
          : List.of(ArrowType.Utf8.INSTANCE, new ArrowType.Int(64, true), micros(null));
      List<TypedVector> vectors = new ArrayList<>();
      for (List<Object> column : columns) {
        ObjectVector vector = new ObjectVector(n);
        column.forEach(vector::append);
        vectors.add(vector);
      }
      CellKeys keys = encode(columnTypes, vectors);
      int[] rows = IntStream.range(0, n).toArray();
      new KeySort().sort(keys, rows, n);

      Comparator<Integer> byValues = (x, y) -> 0;
      for (int c = 0; c < columns.size(); c++) {
        List<Object> column = columns.get(c);
        Comparator<Object> order = Comparator.nullsFirst(IndexFile.valueOrder(columnTypes.get(c)));
        byValues = byValues.thenComparing((x, y) -> order.compare(column.get(x), column.get(y)));
      }
      List<Integer> expected = new ArrayList<>(IntStream.range(0, n).boxed().toList());
      expected.sort(byValues);
      assertThat(Arrays.stream(rows).boxed().toList()).as("round %d, %d rows", round, n).isEqualTo(expected);
    }
  }
}
