package io.ktk.flink.source.engine;

import io.ktk.flink.source.query.ComparisonOperator;
import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.vector.DoubleVector;
import io.ktk.flink.state.vector.LongType;
import io.ktk.flink.state.vector.LongVector;
import io.ktk.flink.state.vector.TypedVector;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A condition on a signed integer or floating-point column, tested on the primitive values of a
 * vector without boxing them: values and literals are mapped to longs that order like the
 * condition's order ({@link TypedCondition#compare}: for floats -0.0 equals 0.0 and NaN is above
 * everything, as {@link CellKeys#orderedBits} maps them). A null (and with Kartothek semantics a
 * NaN) is a missing value, which passes as {@link TypedCondition#missingPasses} says.
 */
final class OrderedCondition {
  private final ComparisonOperator operator;
  private final long[] literals;
  private final boolean lowerInclusive;
  private final boolean upperInclusive;
  private final boolean floating;
  private final boolean missingPasses;
  private final boolean nanIsMissing;

  private OrderedCondition(TypedCondition condition, boolean floating) {
    this.operator = condition.operator();
    this.floating = floating;
    this.missingPasses = condition.missingPasses();
    this.nanIsMissing = floating && condition.nanIsMissing();
    List<Object> values = condition.literals();
    literals = new long[values.size()];
    for (int i = 0; i < literals.length; i++) {
      literals[i] = floating ? CellKeys.orderedBits((Double) values.get(i)) : (Long) values.get(i);
    }
    lowerInclusive = condition.lowerInclusive();
    upperInclusive = condition.upperInclusive();
  }

  /** The condition as an ordered one for {@code vector}, or null when it must test typed values. */
  static OrderedCondition of(TypedCondition condition, TypedVector vector) {
    ArrowType type = condition.column().getType();
    if (vector instanceof DoubleVector && type instanceof ArrowType.FloatingPoint) {
      return new OrderedCondition(condition, true);
    }
    if (vector instanceof LongVector longs && longs.type().kind() == LongType.Kind.INTEGER
        && type instanceof ArrowType.Int integer && integer.getIsSigned()) {
      return new OrderedCondition(condition, false);
    }
    return null;
  }

  /** Clears {@code passes[offset + row]} for the rows of {@code vector} that fail. */
  void apply(TypedVector vector, int count, boolean[] passes, int offset) {
    for (int row = 0; row < count; row++) {
      if (passes[offset + row]) {
        passes[offset + row] = missing(vector, row) ? missingPasses : test(value(vector, row));
      }
    }
  }

  private boolean missing(TypedVector vector, int row) {
    return vector.isNull(row) || nanIsMissing && Double.isNaN(((DoubleVector) vector).value(row));
  }

  private long value(TypedVector vector, int row) {
    return floating ? CellKeys.orderedBits(((DoubleVector) vector).value(row)) : ((LongVector) vector).value(row);
  }

  private boolean test(long value) {
    if (operator == null) {
      int low = Long.compare(value, literals[0]);
      int high = Long.compare(value, literals[1]);
      return (lowerInclusive ? low >= 0 : low > 0) && (upperInclusive ? high <= 0 : high < 0);
    }
    if (operator == ComparisonOperator.IN) {
      for (long literal : literals) {
        if (value == literal) {
          return true;
        }
      }
      return false;
    }
    return operator.holds(Long.compare(value, literals[0]));
  }
}
