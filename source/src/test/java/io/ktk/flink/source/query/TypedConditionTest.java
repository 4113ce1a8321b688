package io.ktk.flink.source.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

class TypedConditionTest {
  private static final Field INT = field("n", new ArrowType.Int(64, true));
  private static final Field UINT = field("u", new ArrowType.Int(64, false));
  private static final Field DOUBLE = field("v", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  private static final Field STRING = field("s", ArrowType.Utf8.INSTANCE);
  private static final Field DATE = field("day", new ArrowType.Date(DateUnit.DAY));
  private static final Field TIMESTAMP = field("t", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null));
  private static final Field ZONED = field("tz", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC"));
  private static final Field DECIMAL = field("d", new ArrowType.Decimal(5, 2, 128));
  private static final Field LIST = new Field("l", FieldType.nullable(new ArrowType.List()), List.of(field("item", new ArrowType.Int(64, true))));

  private static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }

  private static TypedCondition typed(String text, Field column) {
    return TypedCondition.resolve(ConditionParser.parse(text).get(0), column, "cube 'c'");
  }

  private static TypedCondition kartothek(String text, Field column) {
    return TypedCondition.resolve(ConditionParser.parse(text).get(0), column, "cube 'c'", QuerySemantics.KARTOTHEK);
  }

  @Test
  void nullFailsEveryOperatorIncludingNotEqualAndNaNIsAValueAboveInfinity() {
    assertThat(typed("v != 2.5", DOUBLE).test(null)).isFalse();
    assertThat(typed("s != 'a'", STRING).test(null)).isFalse();
    assertThat(typed("v > 0.5", DOUBLE).test(Double.NaN)).isTrue();
    assertThat(typed("v > inf", DOUBLE).test(Double.NaN)).isTrue();
    assertThat(typed("v == nan", DOUBLE).test(Double.NaN)).isTrue();
  }

  @Test
  void withKartothekSemanticsNullAndNaNAreMissingWhichOnlyNotEqualKeeps() {
    assertThat(kartothek("v != 2.5", DOUBLE).test(null)).isTrue();
    assertThat(kartothek("v != 2.5", DOUBLE).test(Double.NaN)).isTrue();
    assertThat(kartothek("s != 'a'", STRING).test(null)).isTrue();
    assertThat(kartothek("v > 0.5", DOUBLE).test(Double.NaN)).isFalse();
    assertThat(kartothek("v < 0.5", DOUBLE).test(Double.NaN)).isFalse();
    assertThat(kartothek("v in (1, 2)", DOUBLE).test(Double.NaN)).isFalse();
    assertThat(kartothek("0 <= v < 10", DOUBLE).test(null)).isFalse();
    assertThat(kartothek("n == 1", INT).test(null)).isFalse();
    assertThat(kartothek("v > 0.5", DOUBLE).test(0.7)).isTrue();
    assertThat(kartothek("v != 2.5", DOUBLE).test(2.5)).isFalse();
  }

  @Test
  void withKartothekSemanticsANaNLiteralIsRefusedAsKartothekRefusesANullLiteral() {
    assertThatThrownBy(() -> kartothek("v in (1, nan)", DOUBLE))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessage("Cannot query cube 'c': condition `v in (1, nan)` compares column 'v' of type double with nan,"
            + " which Kartothek semantics take as a missing value (pandas) and refuse, as Kartothek 5.3 refuses a NULL"
            + " literal; without Kartothek semantics NaN is a value that equals NaN");
  }

  @Test
  void textLiteralsAreTypedByTheirColumn() {
    assertThat(typed("day == '2024-01-31'", DATE).admittedValues()).containsExactly(LocalDate.of(2024, 1, 31));
    assertThat(typed("s == '2024-01-31'", STRING).admittedValues()).containsExactly("2024-01-31");
    assertThat(typed("v in (1, 2.5, nan)", DOUBLE).admittedValues()).containsExactly(1.0, 2.5, Double.NaN);
    assertThat(typed("t == '2024-01-31 12:00:00.5'", TIMESTAMP).admittedValues())
        .containsExactly(LocalDateTime.of(2024, 1, 31, 12, 0, 0, 500_000_000));
    assertThat(typed("tz == '2024-01-31T12:00:00+01:00'", ZONED).admittedValues())
        .containsExactly(Instant.parse("2024-01-31T11:00:00Z"));
    assertThat(typed("u == 18446744073709551615", UINT).admittedValues()).containsExactly(-1L);
    assertThat(typed("d == 1.5", DECIMAL).admittedValues()).containsExactly(new BigDecimal("1.5"));
  }

  @Test
  void javaValuesOfCloseTypesAreAccepted() {
    assertThat(TypedCondition.resolve(Condition.eq("n", 3), INT, "cube 'c'").admittedValues()).containsExactly(3L);
    assertThat(TypedCondition.resolve(Condition.eq("n", BigInteger.TEN), INT, "cube 'c'").admittedValues())
        .containsExactly(10L);
    assertThat(TypedCondition.resolve(Condition.eq("v", 2), DOUBLE, "cube 'c'").admittedValues()).containsExactly(2.0);
    assertThat(TypedCondition.resolve(Condition.eq("day", "2024-02-29"), DATE, "cube 'c'").admittedValues())
        .containsExactly(LocalDate.of(2024, 2, 29));
    assertThat(TypedCondition.resolve(Condition.eq("tz", OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC)),
        ZONED, "cube 'c'").admittedValues()).containsExactly(Instant.parse("2024-01-01T00:00:00Z"));
  }

  @Test
  void literalsThatDoNotFitNameTheColumnItsTypeAndTheLiteral() {
    assertThatThrownBy(() -> typed("n == 'a'", INT))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessage("Cannot query cube 'c': condition `n == 'a'` compares column 'n' of type int64 with 'a', which does"
            + " not fit; use a whole number from -9223372036854775808 to 9223372036854775807");
    assertThatThrownBy(() -> typed("n == 1.5", INT)).hasMessageContaining("of type int64 with 1.5, which does not fit");
    assertThatThrownBy(() -> typed("u == -1", UINT))
        .hasMessageContaining("of type uint64 with -1").hasMessageContaining("from 0 to 18446744073709551615");
    assertThatThrownBy(() -> typed("day == '2024-02-30'", DATE))
        .hasMessageContaining("column 'day' of type date32[day] with '2024-02-30'")
        .hasMessageContaining("use a date in quotes, e.g. '2024-01-31'");
    assertThatThrownBy(() -> typed("s in ('a', 1)", STRING)).hasMessageContaining("of type string with 1,");
    assertThatThrownBy(() -> TypedCondition.resolve(Condition.eq("day", 20240101L), DATE, "cube 'c'"))
        .hasMessageContaining("with 20240101 (Java Long), which does not fit");
    assertThatThrownBy(() -> typed("l == 1", LIST))
        .hasMessageContaining("is on column 'l' of type list<item: int64>, but conditions support columns of"
            + " primitive types only");
  }

  @Test
  void nullLiteralsAreRefusedWithTheColumnAndItsType() {
    assertThatThrownBy(() -> typed("n != null", INT))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessage("Cannot query cube 'c': condition `n != null` compares column 'n' of type int64 with NULL, which"
            + " is unknown and never true; conditions on nulls are not supported");
    assertThatThrownBy(() -> TypedCondition.resolve(Condition.in("s", "a", null), STRING, "cube 'c'"))
        .hasMessageContaining("column 's' of type string with NULL");
  }

  @Test
  void aNullValueSatisfiesNoConditionWhateverTheOperator() {
    for (String text : List.of("n == 1", "n != 1", "n < 1", "n >= 1", "n in (1, 2)", "0 <= n < 9")) {
      assertThat(typed(text, INT).test(null)).as(text).isFalse();
    }
  }

  @Test
  void nanIsAValueEqualToNanAndAboveInfinityAndNegativeZeroEqualsZero() {
    assertThat(typed("v == nan", DOUBLE).test(Double.NaN)).isTrue();
    assertThat(typed("v != nan", DOUBLE).test(Double.NaN)).isFalse();
    assertThat(typed("v > inf", DOUBLE).test(Double.NaN)).isTrue();
    assertThat(typed("v < nan", DOUBLE).test(Double.POSITIVE_INFINITY)).isTrue();
    assertThat(typed("v == 0", DOUBLE).test(-0.0)).isTrue();
    assertThat(typed("v in (1, 2)", DOUBLE).test(Double.NaN)).isFalse();
  }

  @Test
  void intervalsHonourEachBoundsInclusion() {
    TypedCondition halfOpen = typed("0 <= n < 10", INT);
    assertThat(halfOpen.test(0L)).isTrue();
    assertThat(halfOpen.test(9L)).isTrue();
    assertThat(halfOpen.test(10L)).isFalse();
    assertThat(halfOpen.test(-1L)).isFalse();
    TypedCondition open = typed("0 < n <= 10", INT);
    assertThat(open.test(0L)).isFalse();
    assertThat(open.test(10L)).isTrue();
  }

  @Test
  void unsignedValuesAndStringsCompareAsTheIndicesOrderThem() {
    assertThat(typed("u > 1", UINT).test(-1L)).as("2^64-1 > 1").isTrue();
    assertThat(typed("s < 'é'", STRING).test("z")).as("code point order").isTrue();
    assertThat(typed("s < 'a'", STRING).test("B")).isTrue();
  }
}
