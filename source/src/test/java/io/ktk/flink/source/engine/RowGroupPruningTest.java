package io.ktk.flink.source.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.query.Condition;
import io.ktk.flink.source.query.QuerySemantics;
import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.parquet.ColumnStatistics;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

class RowGroupPruningTest {
  private static final Field LONG = field("n", new ArrowType.Int(64, true));
  private static final Field ULONG = field("u", new ArrowType.Int(64, false));
  private static final Field DOUBLE = field("x", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  private static final Field STRING = field("s", ArrowType.Utf8.INSTANCE);
  private static final Field DATE = field("day", new ArrowType.Date(DateUnit.DAY));
  private static final double NAN = Double.NaN;

  private static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }

  private static TypedCondition condition(Condition condition, Field column) {
    return TypedCondition.resolve(condition, column, "cube 'test'");
  }

  /** 10 rows, no nulls counted, NaN not counted (as pyarrow writes float statistics). */
  private static ColumnStatistics bounds(Object min, Object max) {
    return new ColumnStatistics(10, 0, -1, min, max);
  }

  private static boolean excludes(Condition condition, Field column, ColumnStatistics statistics) {
    return RowGroupPruning.excludes(condition(condition, column), statistics);
  }

  @Test
  void integerBoundsPruneComparisonsOutsideThem() {
    ColumnStatistics stats = bounds(10L, 20L);
    assertThat(excludes(Condition.eq("n", 9L), LONG, stats)).isTrue();
    assertThat(excludes(Condition.eq("n", 10L), LONG, stats)).isFalse();
    assertThat(excludes(Condition.eq("n", 21L), LONG, stats)).isTrue();
    assertThat(excludes(Condition.lt("n", 10L), LONG, stats)).isTrue();
    assertThat(excludes(Condition.le("n", 10L), LONG, stats)).isFalse();
    assertThat(excludes(Condition.gt("n", 20L), LONG, stats)).isTrue();
    assertThat(excludes(Condition.ge("n", 20L), LONG, stats)).isFalse();
    assertThat(excludes(Condition.in("n", 1L, 25L), LONG, stats)).isTrue();
    assertThat(excludes(Condition.in("n", 1L, 15L), LONG, stats)).isFalse();
    assertThat(excludes(Condition.interval("n", 21L, true, 30L, true), LONG, stats)).isTrue();
    assertThat(excludes(Condition.interval("n", 0L, true, 10L, false), LONG, stats)).isTrue();
    assertThat(excludes(Condition.interval("n", 0L, true, 10L, true), LONG, stats)).isFalse();
  }

  @Test
  void notEqualPrunesOnlyAGroupOfThatOneValue() {
    assertThat(excludes(Condition.ne("n", 7L), LONG, bounds(7L, 7L))).isTrue();
    assertThat(excludes(Condition.ne("n", 7L), LONG, bounds(7L, 8L))).isFalse();
    // a group of 7s and nulls: the nulls are unknown, the 7s fail
    assertThat(excludes(Condition.ne("n", 7L), LONG, new ColumnStatistics(10, 4, -1, 7L, 7L))).isTrue();
  }

  private static boolean excludesAsKartothek(Condition condition, Field column, ColumnStatistics statistics) {
    return RowGroupPruning.excludes(TypedCondition.resolve(condition, column, "cube 'test'", QuerySemantics.KARTOTHEK),
        statistics);
  }

  @Test
  void withKartothekSemanticsNotEqualSkipsAGroupOfThatOneValueWithItsNullsAsPlateausReaderDoes() {
    ColumnStatistics sevensAndNulls = new ColumnStatistics(10, 4, -1, 7L, 7L);
    assertThat(excludesAsKartothek(Condition.ne("n", 7L), LONG, sevensAndNulls)).isTrue();
    assertThat(excludesAsKartothek(Condition.ne("n", 7L), LONG, new ColumnStatistics(10, 4, -1, 7L, 8L))).isFalse();
    // all null: no bounds, so plateau reads the group, and != keeps its nulls
    assertThat(excludesAsKartothek(Condition.ne("n", 7L), LONG, new ColumnStatistics(10, 10, -1, null, null)))
        .isFalse();
    assertThat(excludesAsKartothek(Condition.ne("s", "a"), STRING, new ColumnStatistics(10, 3, -1, "a", "a")))
        .isTrue();
    // plateau widens float bounds by an epsilon unless they are 0 or infinite
    assertThat(excludesAsKartothek(Condition.ne("x", 2.5), DOUBLE, bounds(2.5, 2.5))).isFalse();
    assertThat(excludesAsKartothek(Condition.ne("x", 0.0), DOUBLE, bounds(-0.0, 0.0))).isTrue();
    assertThat(excludesAsKartothek(Condition.ne("x", Double.POSITIVE_INFINITY), DOUBLE,
        bounds(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY))).isTrue();
    // every other operator: missing values (null and NaN) fail, as pandas compares them
    assertThat(excludesAsKartothek(Condition.gt("x", 5.0), DOUBLE, bounds(1.0, 1.0))).isTrue();
    assertThat(excludes(Condition.gt("x", 5.0), DOUBLE, bounds(1.0, 1.0))).isFalse();
    assertThat(excludesAsKartothek(Condition.eq("n", 7L), LONG, new ColumnStatistics(10, 10, -1, null, null)))
        .isTrue();
  }

  @Test
  void unsignedBoundsCompareUnsigned() {
    long big = -1L; // 2^64 - 1
    ColumnStatistics stats = bounds(1L << 63, big);
    assertThat(excludes(Condition.gt("u", 5L), ULONG, stats)).isFalse();
    assertThat(excludes(Condition.lt("u", 5L), ULONG, stats)).isTrue();
    assertThat(excludes(Condition.eq("u", 5L), ULONG, stats)).isTrue();
  }

  @Test
  void stringBoundsCompareByCodePoint() {
    ColumnStatistics stats = bounds("b", "é");
    assertThat(excludes(Condition.eq("s", "a"), STRING, stats)).isTrue();
    assertThat(excludes(Condition.eq("s", "z"), STRING, stats)).isFalse();
    assertThat(excludes(Condition.gt("s", "é"), STRING, stats)).isTrue();
    assertThat(excludes(Condition.eq("s", "\uD83D\uDE00"), STRING, stats)).isTrue(); // above U+FFFF, above é
    assertThat(excludes(Condition.lt("s", "B"), STRING, stats)).isTrue();
  }

  @Test
  void datesPrune() {
    ColumnStatistics stats = bounds(LocalDate.of(2024, 1, 1), LocalDate.of(2024, 1, 31));
    assertThat(excludes(Condition.ge("day", LocalDate.of(2024, 2, 1)), DATE, stats)).isTrue();
    assertThat(excludes(Condition.ge("day", LocalDate.of(2024, 1, 31)), DATE, stats)).isFalse();
  }

  @Test
  void floatGroupsMayHoldNanOutsideTheirBounds() {
    ColumnStatistics stats = bounds(1.0, 1.0);
    // NaN is greater than any number and unequal to it, and writers leave it out of the bounds
    assertThat(excludes(Condition.gt("x", 5.0), DOUBLE, stats)).isFalse();
    assertThat(excludes(Condition.ge("x", 5.0), DOUBLE, stats)).isFalse();
    assertThat(excludes(Condition.ne("x", 1.0), DOUBLE, stats)).isFalse();
    assertThat(excludes(Condition.eq("x", NAN), DOUBLE, stats)).isFalse();
    assertThat(excludes(Condition.le("x", NAN), DOUBLE, stats)).isFalse();
    // NaN fails these, so the bounds decide
    assertThat(excludes(Condition.lt("x", 1.0), DOUBLE, stats)).isTrue();
    assertThat(excludes(Condition.eq("x", 2.0), DOUBLE, stats)).isTrue();
    assertThat(excludes(Condition.in("x", 0.0, 2.0), DOUBLE, stats)).isTrue();
    assertThat(excludes(Condition.gt("x", NAN), DOUBLE, stats)).isTrue();
  }

  @Test
  void floatGroupsWithCountedNansPruneByTheirBounds() {
    ColumnStatistics noNan = new ColumnStatistics(10, 0, 0, 1.0, 1.0);
    assertThat(excludes(Condition.gt("x", 5.0), DOUBLE, noNan)).isTrue();
    assertThat(excludes(Condition.ne("x", 1.0), DOUBLE, noNan)).isTrue();
    assertThat(excludes(Condition.eq("x", NAN), DOUBLE, noNan)).isTrue();
    ColumnStatistics someNan = new ColumnStatistics(10, 0, 3, 1.0, 1.0);
    assertThat(excludes(Condition.gt("x", 5.0), DOUBLE, someNan)).isFalse();
  }

  @Test
  void aGroupOfOnlyNanAndNullsMatchesWhatNanMatches() {
    ColumnStatistics onlyNan = new ColumnStatistics(10, 4, 6, null, null);
    assertThat(excludes(Condition.eq("x", NAN), DOUBLE, onlyNan)).isFalse();
    assertThat(excludes(Condition.gt("x", 1e300), DOUBLE, onlyNan)).isFalse();
    assertThat(excludes(Condition.lt("x", 1e300), DOUBLE, onlyNan)).isTrue();
    assertThat(excludes(Condition.eq("x", 0.0), DOUBLE, onlyNan)).isTrue();
  }

  @Test
  void zeroBoundsCoverBothSignsOfZero() {
    assertThat(excludes(Condition.eq("x", -0.0), DOUBLE, new ColumnStatistics(10, 0, 0, 0.0, 0.0))).isFalse();
    assertThat(excludes(Condition.lt("x", 0.0), DOUBLE, new ColumnStatistics(10, 0, 0, -0.0, 1.0))).isTrue();
  }

  @Test
  void allNullGroupsAndAbsentColumnsSatisfyNoCondition() {
    ColumnStatistics allNull = new ColumnStatistics(10, 10, -1, null, null);
    for (Condition c : List.of(Condition.ne("n", 1L), Condition.lt("n", Long.MAX_VALUE), Condition.ge("n", 0L))) {
      assertThat(excludes(c, LONG, allNull)).as(c.toString()).isTrue();
      assertThat(excludes(c, LONG, RowGroupPruning.absent(10))).as(c.toString()).isTrue();
    }
    assertThat(excludes(Condition.eq("x", NAN), DOUBLE, allNull)).isTrue();
  }

  @Test
  void missingStatisticsPruneNothing() {
    assertThat(excludes(Condition.eq("n", 1L), LONG, ColumnStatistics.unknown(10))).isFalse();
    assertThat(excludes(Condition.eq("n", 1L), LONG, null)).isFalse();
    // nulls counted but no bounds: only an all-null group is known to fail
    assertThat(excludes(Condition.eq("n", 1L), LONG, new ColumnStatistics(10, 9, -1, null, null))).isFalse();
  }

  @Test
  void boundsOfAnotherTypeThanTheConditionPruneNothing() {
    assertThat(excludes(Condition.eq("n", 1L), LONG, bounds("a", "b"))).isFalse();
  }

  /**
   * Soundness against the conditions themselves: for random groups of values, with statistics as a
   * writer computes them (bounds of the non-null non-NaN values, NaN counted or not), a pruned group
   * never holds a value that satisfies the condition.
   */
  @Test
  void aPrunedGroupNeverHoldsAQualifyingValue() {
    long seed = Long.getLong("ktk.test.seed", 20240611L);
    Random random = new Random(seed);
    int pruned = 0;
    for (int round = 0; round < 20_000; round++) {
      int kind = random.nextInt(4);
      Field column = List.of(LONG, ULONG, DOUBLE, STRING).get(kind);
      List<Object> domain = switch (kind) {
        case 0 -> List.of(-3L, 0L, 1L, 2L, 7L, Long.MIN_VALUE, Long.MAX_VALUE);
        case 1 -> List.of(0L, 1L, 7L, 1L << 63, -1L);
        case 2 -> List.of(-1.5, -0.0, 0.0, 1.0, 2.5, NAN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);
        default -> List.of("", "a", "B", "b", "é", "\uD83D\uDE00", "ab");
      };
      List<Object> values = new ArrayList<>();
      for (int i = 0, n = 1 + random.nextInt(5); i < n; i++) {
        values.add(random.nextInt(5) == 0 ? null : domain.get(random.nextInt(domain.size())));
      }
      ColumnStatistics stats = writerStatistics(kind, values, random.nextBoolean());
      Condition condition = randomCondition(column.getName(), domain, random);
      TypedCondition typed = condition(condition, column);
      if (RowGroupPruning.excludes(typed, stats)) {
        pruned++;
        for (Object value : values) {
          assertThat(typed.test(value)).as("seed %d round %d: %s pruned by %s but holds %s (values %s)", seed, round,
              condition, stats, value, values).isFalse();
        }
      }
    }
    assertThat(pruned).as("pruned groups").isGreaterThan(1000);
  }

  private static ColumnStatistics writerStatistics(int kind, List<Object> values, boolean countNans) {
    Comparator<Object> order = switch (kind) {
      case 0 -> Comparator.comparingLong(v -> (Long) v);
      case 1 -> (a, b) -> Long.compareUnsigned((Long) a, (Long) b);
      case 2 -> Comparator.comparingDouble(v -> (Double) v);
      default -> (a, b) -> Arrays.compareUnsigned(((String) a).getBytes(StandardCharsets.UTF_8),
          ((String) b).getBytes(StandardCharsets.UTF_8));
    };
    long nulls = values.stream().filter(Objects::isNull).count();
    long nans = values.stream().filter(v -> v instanceof Double d && d.isNaN()).count();
    List<Object> bounded = values.stream().filter(v -> v != null && !(v instanceof Double d && d.isNaN())).toList();
    Object min = bounded.stream().min(order).orElse(null);
    Object max = bounded.stream().max(order).orElse(null);
    return new ColumnStatistics(values.size(), nulls, kind == 2 && countNans ? nans : -1, min, max);
  }

  private static Condition randomCondition(String column, List<Object> domain, Random random) {
    Object a = domain.get(random.nextInt(domain.size()));
    Object b = domain.get(random.nextInt(domain.size()));
    return switch (random.nextInt(8)) {
      case 0 -> Condition.eq(column, a);
      case 1 -> Condition.ne(column, a);
      case 2 -> Condition.lt(column, a);
      case 3 -> Condition.le(column, a);
      case 4 -> Condition.gt(column, a);
      case 5 -> Condition.ge(column, a);
      case 6 -> Condition.in(column, a, b);
      default -> Condition.interval(column, a, random.nextBoolean(), b, random.nextBoolean());
    };
  }
}
