package io.ktk.flink.source.engine;

import io.ktk.flink.source.query.ComparisonOperator;
import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.parquet.ColumnStatistics;
import java.util.List;

/**
 * Decides from a row group's column statistics (min, max, null and NaN counts from the Parquet
 * footer, as far as {@link ColumnStatistics} trusts them) that no row of the group satisfies a
 * condition, so the group's rows need not be tested. Sound, not complete: "may match" whenever
 * the statistics do not prove otherwise.
 *
 * <p>The rules follow the conditions' semantics ({@link TypedCondition#test}):
 *
 * <ul>
 *   <li>A comparison with null is never true (Kleene): a group whose values are all null (by its
 *       null count, Parquet's null type, or a column the file lacks) satisfies no condition.
 *   <li>Without bounds nothing else is known: the group may match.
 *   <li>The non-null values lie within [min, max], plus NaN for a float column unless the writer
 *       counted no NaN: writers keep NaN out of the bounds, so {@code x > 5} or {@code x != 1.0}
 *       may hold for a group whose bounds are [1, 1] (NaN is greater than any number and unequal
 *       to it). A group whose non-null values are all NaN matches exactly when NaN does.
 *   <li>Otherwise: {@code ==} and {@code in} need a literal within the bounds; {@code !=} fails
 *       only when both bounds equal the literal; {@code < <=} look at min, {@code > >=} at max; an
 *       interval needs max above its lower end and min below its upper end.
 * </ul>
 *
 * <p>Values compare as the condition compares them (unsigned integers unsigned, strings by code
 * point, -0.0 = 0.0); bounds of a type the condition cannot compare leave the group alone.
 *
 * <p>With Kartothek semantics null and NaN are missing values, which fail every operator but
 * {@code !=}; the rules above then hold with NaN failing too. For {@code !=}, whose missing values
 * pass, the group is excluded exactly when Kartothek 5.3's reader skips it (plateau's {@code
 * _predicate_accepts}): when both bounds equal the literal, its nulls and NaNs notwithstanding. For
 * a float literal that reader widens the bounds by an epsilon unless they are 0 or infinite, so
 * there only those literals exclude. Unlike the other rules this one changes the result, as it
 * does in Kartothek: the readers apply it also when pruning is off.
 *
 * <p>For a plain dataset without a key every condition may prune: each row stands alone.
 */
public final class RowGroupPruning {
  private RowGroupPruning() {}

  /**
   * Whether {@code statistics} prove that no row of the group satisfies {@code condition}.
   *
   * @param statistics the condition column's statistics in the group; for a column the file lacks
   *     {@link #absent}
   */
  public static boolean excludes(TypedCondition condition, ColumnStatistics statistics) {
    if (statistics == null) {
      return false;
    }
    if (statistics.rows() == 0) {
      return true;
    }
    if (condition.missingPasses()) {
      return kartothekSkips(condition, statistics);
    }
    if (statistics.allNull()) {
      return true;
    }
    try {
      if (statistics.allNaN()) {
        return !condition.test(Double.NaN);
      }
      if (statistics.min() == null) {
        return false;
      }
      if (statistics.min() instanceof Double && statistics.mayHoldNaN() && condition.test(Double.NaN)) {
        return false;
      }
      return !rangeMayMatch(condition, statistics.min(), statistics.max());
    } catch (ClassCastException e) {
      return false;
    }
  }

  /**
   * Whether Kartothek's reader skips a row group for a {@code !=} condition (its only operator that
   * missing values pass): both bounds equal the literal, unless it widens them (a float literal
   * other than 0 or an infinity).
   */
  public static boolean kartothekSkips(TypedCondition condition, ColumnStatistics statistics) {
    if (condition.operator() != ComparisonOperator.NE || statistics == null || statistics.min() == null
        || statistics.max() == null) {
      return false;
    }
    Object literal = condition.literals().get(0);
    if (literal instanceof Double d && d != 0.0 && !d.isInfinite()) {
      return false;
    }
    try {
      return condition.compare(statistics.min(), literal) == 0 && condition.compare(statistics.max(), literal) == 0;
    } catch (ClassCastException e) {
      return false;
    }
  }

  /** The statistics of a column a file does not have: every value is null. */
  public static ColumnStatistics absent(long rows) {
    return new ColumnStatistics(rows, rows, -1, null, null);
  }

  private static boolean rangeMayMatch(TypedCondition condition, Object min, Object max) {
    List<Object> literals = condition.literals();
    ComparisonOperator operator = condition.operator();
    if (operator == null) {
      Object lower = literals.get(0);
      Object upper = literals.get(1);
      int maxVsLower = condition.compare(max, lower);
      int minVsUpper = condition.compare(min, upper);
      return (condition.lowerInclusive() ? maxVsLower >= 0 : maxVsLower > 0)
          && (condition.upperInclusive() ? minVsUpper <= 0 : minVsUpper < 0);
    }
    if (operator == ComparisonOperator.IN) {
      for (Object literal : literals) {
        if (within(condition, literal, min, max)) {
          return true;
        }
      }
      return false;
    }
    Object literal = literals.get(0);
    return switch (operator) {
      case EQ -> within(condition, literal, min, max);
      case NE -> condition.compare(min, literal) != 0 || condition.compare(max, literal) != 0;
      case LT -> condition.compare(min, literal) < 0;
      case LE -> condition.compare(min, literal) <= 0;
      case GT -> condition.compare(max, literal) > 0;
      case GE -> condition.compare(max, literal) >= 0;
      case IN -> throw new AssertionError("handled above");
    };
  }

  private static boolean within(TypedCondition condition, Object literal, Object min, Object max) {
    return condition.compare(min, literal) <= 0 && condition.compare(literal, max) <= 0;
  }
}
