package io.ktk.flink.source.query;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One condition on one column of a cube query; a query holds a list of them, all of which must
 * hold (AND). Literals are not typed yet: that happens when the query is checked against the cube
 * ({@link TypedCondition}), before any file is read.
 *
 * <p>Three forms, each with its text form ({@link #toString()}, which {@link ConditionParser}
 * reads back):
 *
 * <pre>
 *   Comparison  x == 1, s != 'a', v &lt; 1.5, day &lt;= '2024-01-31', n &gt; 0, n &gt;= 0
 *   In          y in (1, 2, 3)
 *   Interval    0 &lt;= z &lt; 10        (each bound inclusive or not)
 * </pre>
 *
 * <p>Semantics are SQL's three-valued logic: a row whose value is null satisfies no condition,
 * whatever the operator (also {@code !=}). NaN is a value: it equals NaN and is greater than
 * +inf. {@code -0.0} equals {@code 0.0}.
 *
 * <p>Serializable (Java serialization), so that a Flink source can carry its query.
 */
public sealed interface Condition extends Serializable {

  /** The column the condition is on. */
  String column();

  /** {@code column op literal} with {@code op} one of {@code == != < <= > >=}. */
  record Comparison(String column, ComparisonOperator operator, Literal literal) implements Condition {
    public Comparison {
      requireNonNull(column, "column is null");
      requireNonNull(operator, "operator is null");
      requireNonNull(literal, "literal is null");
      if (operator == ComparisonOperator.IN) {
        throw new IllegalArgumentException("use Condition.In for 'in'");
      }
    }

    @Override
    public String toString() {
      return ConditionParser.quoteColumn(column) + " " + operator.symbol() + " " + literal.text();
    }
  }

  /** {@code column in (literal, ...)}: at least one literal. */
  record In(String column, List<Literal> literals) implements Condition {
    public In {
      requireNonNull(column, "column is null");
      literals = List.copyOf(literals);
      if (literals.isEmpty()) {
        throw new InvalidQueryException("Cannot build condition '" + column + " in ()': the list is empty");
      }
    }

    @Override
    public String toString() {
      return ConditionParser.quoteColumn(column) + " in ("
          + literals.stream().map(Literal::text).collect(Collectors.joining(", ")) + ")";
    }
  }

  /** {@code lower <(=) column <(=) upper}. */
  record Interval(String column, Literal lower, boolean lowerInclusive, Literal upper, boolean upperInclusive)
      implements Condition {
    public Interval {
      requireNonNull(column, "column is null");
      requireNonNull(lower, "lower is null");
      requireNonNull(upper, "upper is null");
    }

    @Override
    public String toString() {
      return lower.text() + (lowerInclusive ? " <= " : " < ") + ConditionParser.quoteColumn(column)
          + (upperInclusive ? " <= " : " < ") + upper.text();
    }
  }

  static Condition eq(String column, Object value) {
    return new Comparison(column, ComparisonOperator.EQ, Literal.of(value));
  }

  static Condition ne(String column, Object value) {
    return new Comparison(column, ComparisonOperator.NE, Literal.of(value));
  }

  static Condition lt(String column, Object value) {
    return new Comparison(column, ComparisonOperator.LT, Literal.of(value));
  }

  static Condition le(String column, Object value) {
    return new Comparison(column, ComparisonOperator.LE, Literal.of(value));
  }

  static Condition gt(String column, Object value) {
    return new Comparison(column, ComparisonOperator.GT, Literal.of(value));
  }

  static Condition ge(String column, Object value) {
    return new Comparison(column, ComparisonOperator.GE, Literal.of(value));
  }

  static Condition in(String column, Object... values) {
    return in(column, Arrays.asList(values));
  }

  static Condition in(String column, List<?> values) {
    List<Literal> literals = new ArrayList<>(values.size());
    values.forEach(value -> literals.add(Literal.of(value)));
    return new In(column, literals);
  }

  /** {@code lower <= column < upper}, Kartothek's {@code in_interval}. */
  static Condition inInterval(String column, Object lower, Object upper) {
    return new Interval(column, Literal.of(lower), true, Literal.of(upper), false);
  }

  static Condition interval(String column, Object lower, boolean lowerInclusive, Object upper,
      boolean upperInclusive) {
    return new Interval(column, Literal.of(lower), lowerInclusive, Literal.of(upper), upperInclusive);
  }
}
