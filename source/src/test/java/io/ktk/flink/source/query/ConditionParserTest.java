package io.ktk.flink.source.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConditionParserTest {

  @Test
  void comparisonsListsAndIntervalsJoinedByAnd() {
    List<Condition> conditions = ConditionParser.parse("x == 1 and y in (1, 2) and 0 <= z < 10");

    assertThat(conditions).containsExactly(
        new Condition.Comparison("x", ComparisonOperator.EQ, new Literal.Number("1")),
        new Condition.In("y", List.of(new Literal.Number("1"), new Literal.Number("2"))),
        new Condition.Interval("z", new Literal.Number("0"), true, new Literal.Number("10"), false));
  }

  @Test
  void everyOperatorAndLiteralKind() {
    List<Condition> conditions = ConditionParser.parse(
        "a != 'it''s' AND b < -1.5e3 and c <= \"d\" and d > nan and e >= -inf and f == true and g == x'0aff'"
            + " and h IN ('2024-01-01') and `odd name` == null");

    assertThat(conditions).containsExactly(
        new Condition.Comparison("a", ComparisonOperator.NE, new Literal.Text("it's")),
        new Condition.Comparison("b", ComparisonOperator.LT, new Literal.Number("-1.5e3")),
        new Condition.Comparison("c", ComparisonOperator.LE, new Literal.Text("d")),
        new Condition.Comparison("d", ComparisonOperator.GT, new Literal.Word("nan")),
        new Condition.Comparison("e", ComparisonOperator.GE, new Literal.Word("-inf")),
        new Condition.Comparison("f", ComparisonOperator.EQ, new Literal.Word("true")),
        new Condition.Comparison("g", ComparisonOperator.EQ, new Literal.Bytes(HexFormat.of().parseHex("0aff"))),
        new Condition.In("h", List.of(new Literal.Text("2024-01-01"))),
        new Condition.Comparison("odd name", ComparisonOperator.EQ, Literal.Null.INSTANCE));
  }

  @Test
  void literalFirstComparisonsAndDescendingIntervalsAreNormalized() {
    assertThat(ConditionParser.parse("1 < x")).containsExactly(
        new Condition.Comparison("x", ComparisonOperator.GT, new Literal.Number("1")));
    assertThat(ConditionParser.parse("'a' == s")).containsExactly(
        new Condition.Comparison("s", ComparisonOperator.EQ, new Literal.Text("a")));
    assertThat(ConditionParser.parse("10 > z >= 0")).containsExactly(
        new Condition.Interval("z", new Literal.Number("0"), true, new Literal.Number("10"), false));
    assertThat(ConditionParser.parse("0 < z <= 10")).containsExactly(
        new Condition.Interval("z", new Literal.Number("0"), false, new Literal.Number("10"), true));
  }

  @Test
  void textFormOfConditionsParsesBackToTheSameConditions() {
    List<Condition> conditions = List.of(
        Condition.eq("x", 1L),
        Condition.in("s", "a'b", "c"),
        Condition.inInterval("z", 0.5, Double.POSITIVE_INFINITY),
        Condition.ne("and", Double.NaN),
        Condition.eq("b", new byte[] {1, 2}));
    String text = String.join(" and ", conditions.stream().map(Condition::toString).toList());

    assertThat(text).isEqualTo("x == 1 and s in ('a''b', 'c') and 0.5 <= z < inf and `and` != nan and b == x'0102'");
    assertThat(ConditionParser.parse(text).stream().map(Condition::toString).toList())
        .isEqualTo(conditions.stream().map(Condition::toString).toList());
  }

  @Test
  void blankTextMeansNoConditions() {
    assertThat(ConditionParser.parse("  ")).isEmpty();
  }

  @Test
  void syntaxErrorsNameWhatWasExpectedAndWhere() {
    assertThatThrownBy(() -> ConditionParser.parse("x = 1"))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Cannot parse condition \"x = 1\"")
        .hasMessageContaining("unknown operator '=' at position 3; use '==' for equality");
    assertThatThrownBy(() -> ConditionParser.parse("x == 1 or y == 2"))
        .hasMessageContaining("expected 'and' or the end at position 8, found 'or'")
        .hasMessageContaining("'or' is not supported");
    assertThatThrownBy(() -> ConditionParser.parse("x == 'abc"))
        .hasMessageContaining("the quote ' at position 6 is not closed");
    assertThatThrownBy(() -> ConditionParser.parse("x =="))
        .hasMessageContaining("expected a literal after 'x ==' at position 5, found the end");
    assertThatThrownBy(() -> ConditionParser.parse("x == abc"))
        .hasMessageContaining("found 'abc' (text needs quotes: 'abc')");
    assertThatThrownBy(() -> ConditionParser.parse("1 < x > 2"))
        .hasMessageContaining("must use < or <= on both sides");
    assertThatThrownBy(() -> ConditionParser.parse("x in 1"))
        .hasMessageContaining("expected '(' after 'x in' at position 6, found '1'");
    assertThatThrownBy(() -> ConditionParser.parse("x in (1 2)"))
        .hasMessageContaining("expected ',' or ')' in the list of 'x in' at position 9, found '2'");
    assertThatThrownBy(() -> ConditionParser.parse("x == 1.2.3"))
        .hasMessageContaining("'1.2.3' at position 6 is not a number");
    assertThatThrownBy(() -> ConditionParser.parse("x == x'0g'"))
        .hasMessageContaining("is not hex bytes");
    assertThatThrownBy(() -> ConditionParser.parse("x == 1 and"))
        .hasMessageContaining("expected a column name or a literal at position 11, found the end");
    assertThatThrownBy(() -> ConditionParser.parse("x == 1; drop"))
        .hasMessageContaining("unexpected character ';' at position 7");
  }
}
