package io.ktk.flink.cli;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.metadata.IndexFile;
import java.util.Comparator;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * One condition of a {@code --where} expression: a column, an operator and typed literals (one, or
 * several for {@code in}). Values compare as the dataset's indices order them ({@link
 * IndexFile#valueOrder}): unsigned integers unsigned, {@code -0.0} equal to {@code 0.0}, NaN equal to
 * NaN and above infinity, strings by code point, bytes unsigned. A null value compares as unknown, so
 * the row is not returned, whatever the operator (Kleene logic).
 *
 * <p>The column carries its committed (normalized) type; the literals are typed by it, exactly one
 * unless the operator is {@code in}.
 */
final class Comparison {

  /** The operators, by their symbol. */
  enum Operator {
    EQ("=="),
    NE("!="),
    LT("<"),
    LE("<="),
    GT(">"),
    GE(">="),
    IN("in");

    final String symbol;

    Operator(String symbol) {
      this.symbol = symbol;
    }
  }

  private final Field column;
  private final Operator operator;
  private final List<Object> literals;
  private final Comparator<Object> order;

  Comparison(Field column, Operator operator, List<Object> literals) {
    this.column = requireNonNull(column, "column is null");
    this.operator = requireNonNull(operator, "operator is null");
    this.literals = List.copyOf(literals);
    if (literals.isEmpty() || (operator != Operator.IN && literals.size() != 1)) {
      throw new IllegalArgumentException(operator.symbol + " with " + literals.size() + " literals");
    }
    this.order = IndexFile.valueOrder(column.getType());
  }

  Field column() {
    return column;
  }

  Operator operator() {
    return operator;
  }

  List<Object> literals() {
    return literals;
  }

  String columnName() {
    return column.getName();
  }

  /** Whether the value satisfies the condition; false for null (unknown). */
  boolean test(Object value) {
    if (value == null) {
      return false;
    }
    if (operator == Operator.IN) {
      for (Object literal : literals) {
        if (order.compare(value, literal) == 0) {
          return true;
        }
      }
      return false;
    }
    int cmp = order.compare(value, literals.get(0));
    return switch (operator) {
      case EQ -> cmp == 0;
      case NE -> cmp != 0;
      case LT -> cmp < 0;
      case LE -> cmp <= 0;
      case GT -> cmp > 0;
      case GE -> cmp >= 0;
      case IN -> throw new AssertionError();
    };
  }

  /** The values this condition admits, when it admits a finite set ({@code ==}, {@code in}); else null. */
  List<Object> admittedValues() {
    return operator == Operator.EQ || operator == Operator.IN ? literals : null;
  }
}
