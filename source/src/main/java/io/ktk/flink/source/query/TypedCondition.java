package io.ktk.flink.source.query;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.metadata.IndexFile;
import io.ktk.flink.state.types.ArrowTypeNames;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.annotation.Internal;

/**
 * A {@link Condition} checked against its column: the literals typed by the column's type, ready
 * to test values of rows, partition labels and index entries.
 *
 * <p>Values compare as the dataset's indices order them ({@link IndexFile#valueOrder}): unsigned
 * integers unsigned, {@code -0.0} equal to {@code 0.0}, NaN equal to NaN and above +inf, strings by
 * code point, bytes unsigned. {@link #test} is false for a null value whatever the operator: a
 * comparison with null is unknown, and a row whose condition is unknown is not returned (Kleene
 * logic, as SQL).
 *
 * <p>With {@link QuerySemantics#KARTOTHEK} a value is tested as pandas tests it in Kartothek 5.3:
 * null and NaN are the same missing value, which fails every operator but {@code !=}, where it
 * passes ({@code NaN != 2.5} is true, {@code NaN > 0.5} false); a NaN literal is refused, as
 * Kartothek refuses a NULL literal.
 *
 * <p>Built by {@link #resolve}, which fails before any file is read when a literal does not fit
 * the column or is NULL. Immutable and thread-safe.
 */
@Internal
public final class TypedCondition {
  private final Condition condition;
  private final Field column;
  private final Comparator<Object> order;
  /** Comparison and In: the operator and the typed literals; Interval: null and [lower, upper]. */
  private final ComparisonOperator operator;
  private final List<Object> values;
  private final boolean lowerInclusive;
  private final boolean upperInclusive;
  private final QuerySemantics semantics;
  /** What {@link #test} says of a missing value (null; with Kartothek semantics also NaN). */
  private final boolean missingPasses;

  private TypedCondition(Condition condition, Field column, Comparator<Object> order, ComparisonOperator operator,
      List<Object> values, boolean lowerInclusive, boolean upperInclusive, QuerySemantics semantics) {
    this.semantics = semantics;
    this.missingPasses = semantics == QuerySemantics.KARTOTHEK && operator == ComparisonOperator.NE;
    this.condition = condition;
    this.column = column;
    this.order = order;
    this.operator = operator;
    this.values = values;
    this.lowerInclusive = lowerInclusive;
    this.upperInclusive = upperInclusive;
  }

  /**
   * Types the literals of {@code condition} by {@code column}'s type, with this project's semantics
   * ({@link QuerySemantics#SQL}).
   *
   * @param subject what is queried, for messages, e.g. {@code cube 'sales'} or {@code dataset 'events'}
   * @throws InvalidQueryException naming the condition, the column, its type and the literal, when a
   *     literal is NULL or does not fit, or the column's type cannot be compared
   */
  public static TypedCondition resolve(Condition condition, Field column, String subject) {
    return resolve(condition, column, subject, QuerySemantics.SQL);
  }

  /**
   * Types the literals of {@code condition} by {@code column}'s type, to be tested with {@code
   * semantics}.
   *
   * @throws InvalidQueryException as {@link #resolve(Condition, Field, String)}; with Kartothek
   *     semantics also for a NaN literal
   */
  public static TypedCondition resolve(Condition condition, Field column, String subject, QuerySemantics semantics) {
    requireNonNull(semantics, "semantics is null");
    requireNonNull(condition, "condition is null");
    requireNonNull(column, "column is null");
    requireNonNull(subject, "subject is null");
    if (!column.getName().equals(condition.column())) {
      throw new IllegalArgumentException("condition " + condition + " is not on column " + column.getName());
    }
    Comparator<Object> order;
    try {
      order = IndexFile.valueOrder(column.getType());
    } catch (KtkValidationException e) {
      throw new InvalidQueryException("Cannot query " + subject + ": condition `" + condition + "` is on column '"
          + column.getName() + "' of type " + ArrowTypeNames.name(column)
          + ", but conditions support columns of primitive types only");
    }
    if (condition instanceof Condition.Comparison c) {
      return new TypedCondition(condition, column, order, c.operator(),
          List.of(typed(condition, column, c.literal(), subject, semantics)), true, true, semantics);
    }
    if (condition instanceof Condition.In in) {
      List<Object> typed = new ArrayList<>(in.literals().size());
      for (Literal literal : in.literals()) {
        typed.add(typed(condition, column, literal, subject, semantics));
      }
      return new TypedCondition(condition, column, order, ComparisonOperator.IN, List.copyOf(typed), true, true, semantics);
    }
    Condition.Interval interval = (Condition.Interval) condition;
    return new TypedCondition(condition, column, order, null,
        List.of(typed(condition, column, interval.lower(), subject, semantics),
            typed(condition, column, interval.upper(), subject, semantics)),
        interval.lowerInclusive(), interval.upperInclusive(), semantics);
  }

  private static Object typed(Condition condition, Field column, Literal literal, String subject,
      QuerySemantics semantics) {
    if (literal == Literal.Null.INSTANCE) {
      throw new InvalidQueryException("Cannot query " + subject + ": condition `" + condition + "` compares column '"
          + column.getName() + "' of type " + ArrowTypeNames.name(column) + " with NULL, which is unknown and never"
          + " true; conditions on nulls are not supported");
    }
    Object value = LiteralTyping.type(column.getType(), literal);
    if (value == null) {
      String given = literal instanceof Literal.Value v ? literal.text() + " (Java " + v.value().getClass().getSimpleName()
          + ")" : literal.text();
      throw new InvalidQueryException("Cannot query " + subject + ": condition `" + condition + "` compares column '"
          + column.getName() + "' of type " + ArrowTypeNames.name(column) + " with " + given + ", which does not fit;"
          + " " + LiteralTyping.expected(column.getType()));
    }
    if (semantics == QuerySemantics.KARTOTHEK && value instanceof Double d && d.isNaN()) {
      throw new InvalidQueryException("Cannot query " + subject + ": condition `" + condition + "` compares column '"
          + column.getName() + "' of type " + ArrowTypeNames.name(column) + " with nan, which Kartothek semantics"
          + " take as a missing value (pandas) and refuse, as Kartothek 5.3 refuses a NULL literal; without"
          + " Kartothek semantics NaN is a value that equals NaN");
    }
    return value;
  }

  public Condition condition() {
    return condition;
  }

  public Field column() {
    return column;
  }

  public String columnName() {
    return column.getName();
  }

  /**
   * Whether {@code value} (of the column's type, by the value convention) satisfies the condition;
   * for a missing value (null, and with Kartothek semantics NaN) {@link #missingPasses()}.
   */
  public boolean test(Object value) {
    if (value == null || (semantics == QuerySemantics.KARTOTHEK && value instanceof Double d && d.isNaN())) {
      return missingPasses;
    }
    if (operator == null) {
      int low = order.compare(value, values.get(0));
      int high = order.compare(value, values.get(1));
      return (lowerInclusive ? low >= 0 : low > 0) && (upperInclusive ? high <= 0 : high < 0);
    }
    if (operator == ComparisonOperator.IN) {
      for (Object literal : values) {
        if (order.compare(value, literal) == 0) {
          return true;
        }
      }
      return false;
    }
    return operator.holds(order.compare(value, values.get(0)));
  }

  /** The semantics the condition is tested with. */
  public QuerySemantics semantics() {
    return semantics;
  }

  /**
   * Whether a missing value passes: false, but true for {@code !=} with Kartothek semantics (pandas
   * keeps null and NaN under {@code !=}).
   */
  public boolean missingPasses() {
    return missingPasses;
  }

  /** Whether NaN is a missing value, like null (Kartothek semantics), rather than a value above +inf. */
  public boolean nanIsMissing() {
    return semantics == QuerySemantics.KARTOTHEK;
  }

  /** The operator; null for an interval ({@code lower <(=) x <(=) upper}). */
  public ComparisonOperator operator() {
    return operator;
  }

  /** The typed literals: one for a comparison, the set for {@code in}, lower and upper for an interval. */
  public List<Object> literals() {
    return values;
  }

  /** For an interval: whether the lower bound is admitted. */
  public boolean lowerInclusive() {
    return lowerInclusive;
  }

  /** For an interval: whether the upper bound is admitted. */
  public boolean upperInclusive() {
    return upperInclusive;
  }

  /** Compares two non-null values of the column's type in the order the condition tests them by. */
  public int compare(Object a, Object b) {
    return order.compare(a, b);
  }

  /** The values the condition admits when they are a finite set ({@code ==}, {@code in}), else null. */
  public List<Object> admittedValues() {
    return operator == ComparisonOperator.EQ || operator == ComparisonOperator.IN ? values : null;
  }

  /** The condition's text form. */
  @Override
  public String toString() {
    return condition.toString();
  }
}
