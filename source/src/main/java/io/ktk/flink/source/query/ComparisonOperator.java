package io.ktk.flink.source.query;

import org.apache.flink.annotation.PublicEvolving;

/** The comparison operators of conditions, by their symbol in the text form. */
@PublicEvolving
public enum ComparisonOperator {
  EQ("=="),
  NE("!="),
  LT("<"),
  LE("<="),
  GT(">"),
  GE(">="),
  IN("in");

  private final String symbol;

  ComparisonOperator(String symbol) {
    this.symbol = symbol;
  }

  public String symbol() {
    return symbol;
  }

  /** The operator that holds with the operands swapped: {@code 1 < x} is {@code x > 1}. */
  ComparisonOperator swapped() {
    return switch (this) {
      case LT -> GT;
      case LE -> GE;
      case GT -> LT;
      case GE -> LE;
      default -> this;
    };
  }

  /**
   * Whether a comparison of this operator holds for a value that compares {@code cmp} ({@code <
   * 0}, 0, {@code > 0}) with the literal; for {@code in}, with one of its literals.
   */
  public boolean holds(int cmp) {
    return switch (this) {
      case EQ, IN -> cmp == 0;
      case NE -> cmp != 0;
      case LT -> cmp < 0;
      case LE -> cmp <= 0;
      case GT -> cmp > 0;
      case GE -> cmp >= 0;
    };
  }

  /** The operator of a symbol, or null. */
  static ComparisonOperator ofSymbol(String symbol) {
    for (ComparisonOperator operator : values()) {
      if (operator.symbol.equals(symbol)) {
        return operator;
      }
    }
    return null;
  }
}
