package io.ktk.flink.source.table;

import io.ktk.flink.source.query.ComparisonOperator;
import io.ktk.flink.source.query.Condition;
import io.ktk.flink.source.query.Literal;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.functions.FunctionDefinition;

/**
 * Translates Flink's filter expressions into cube query conditions, and says whether the
 * conditions return exactly SQL's rows (the filter is then "accepted" and Flink drops it) or a
 * superset (the conditions prune, and Flink still applies the filter).
 *
 * <p>Translated: {@code column op literal} and {@code literal op column} for {@code = <> < <= >
 * >=}, {@code IN} and {@code OR}s of equalities on one column (how Flink hands over {@code IN}),
 * {@code AND} (so {@code BETWEEN}, which arrives as {@code >= AND <=}), and a bool column or its
 * {@code NOT}. Everything else ({@code IS NULL}, {@code OR} of other kinds, functions, casts,
 * comparisons of two columns, NULL literals) stays with Flink.
 *
 * <p>Why the accepted ones are exact:
 *
 * <ul>
 *   <li>Nulls: every translated SQL predicate is unknown (not true) for a null column value, and a
 *       condition is false for a null value (also {@code !=}); both drop the row.
 *   <li>Joins: a condition on an enrichment's payload turns its left join into an inner join. The
 *       rows this drops have null in every column of that dataset, which the SQL predicate (null
 *       rejecting, see above) would drop from the left-joined table too; rows kept are joined the
 *       same way. So {@code e > 5}, {@code e <> 5}, {@code e IN (1, 2)} give SQL's rows.
 *   <li>Values: the cube orders values as SQL does for signed integers, decimals (also uint64 read as
 *       {@code DECIMAL(20, 0)}), bools, dates, timestamps, and strings (code point order is UTF-8
 *       byte order, Flink's string order). Binary columns are accepted for {@code =}, {@code <>}
 *       and {@code IN} only.
 *   <li>Floats are never accepted: the cube takes NaN as equal to NaN and greater than +inf, SQL (Java
 *       arithmetic) takes every comparison with NaN but {@code <>} as false. For a literal that is
 *       neither NaN nor zero (±0.0 compare differently in Flink's IN sets) the cube keeps a superset of
 *       SQL's rows, so the condition is pushed to prune, and Flink filters again.
 * </ul>
 */
final class FilterTranslation {
  /** Conditions translated from one expression; {@code exact} when they return exactly SQL's rows. */
  record Translated(List<Condition> conditions, boolean exact) {}

  private enum Kind { EXACT, EQUALITY_ONLY, SUPERSET, NONE }

  private final Map<String, Field> columns;

  /** @param columns the table's columns by name, typed as the cube has them */
  FilterTranslation(Map<String, Field> columns) {
    this.columns = columns;
  }

  /** The conditions of {@code expression}, or null when none can be derived from it. */
  Translated translate(ResolvedExpression expression) {
    if (expression instanceof FieldReferenceExpression field) {
      return bool(field, true);
    }
    if (!(expression instanceof CallExpression call)) {
      return null;
    }
    FunctionDefinition function = call.getFunctionDefinition();
    List<ResolvedExpression> args = call.getResolvedChildren();
    if (function == BuiltInFunctionDefinitions.AND) {
      List<Condition> conditions = new ArrayList<>();
      boolean exact = true;
      boolean any = false;
      for (ResolvedExpression arg : args) {
        Translated part = translate(arg);
        if (part == null) {
          exact = false;
        } else {
          any = true;
          conditions.addAll(part.conditions());
          exact &= part.exact();
        }
      }
      return any ? new Translated(conditions, exact) : null;
    }
    if (function == BuiltInFunctionDefinitions.NOT) {
      return args.size() == 1 && args.get(0) instanceof FieldReferenceExpression field ? bool(field, false) : null;
    }
    if (function == BuiltInFunctionDefinitions.OR) {
      return anyOf(call);
    }
    if (function == BuiltInFunctionDefinitions.IN) {
      if (!(args.get(0) instanceof FieldReferenceExpression field)) {
        return null;
      }
      return in(field.getName(), args.subList(1, args.size()));
    }
    ComparisonOperator operator = operator(function);
    if (operator == null || args.size() != 2) {
      return null;
    }
    if (args.get(0) instanceof FieldReferenceExpression field && args.get(1) instanceof ValueLiteralExpression literal) {
      return comparison(field.getName(), operator, literal);
    }
    if (args.get(1) instanceof FieldReferenceExpression field && args.get(0) instanceof ValueLiteralExpression literal) {
      return comparison(field.getName(), swapped(operator), literal);
    }
    return null;
  }

  private Translated bool(FieldReferenceExpression field, boolean value) {
    Field column = columns.get(field.getName());
    if (column == null || !(column.getType() instanceof ArrowType.Bool)) {
      return null;
    }
    return new Translated(List.of(Condition.eq(column.getName(), value)), true);
  }

  private Translated comparison(String name, ComparisonOperator operator, ValueLiteralExpression literal) {
    Field column = columns.get(name);
    Kind kind = column == null ? Kind.NONE : kind(column.getType());
    if (kind == Kind.NONE || kind == Kind.EQUALITY_ONLY && operator != ComparisonOperator.EQ && operator != ComparisonOperator.NE) {
      return null;
    }
    Object value = value(column.getType(), literal);
    if (value == null) {
      return null;
    }
    Condition condition = new Condition.Comparison(name, operator, Literal.of(value));
    return new Translated(List.of(condition), kind != Kind.SUPERSET);
  }

  /** {@code x = a OR x = b OR x IN (c)}: one IN condition; anything else is not translated. */
  private Translated anyOf(CallExpression or) {
    String name = null;
    List<ResolvedExpression> literals = new ArrayList<>();
    List<ResolvedExpression> pending = new ArrayList<>(or.getResolvedChildren());
    while (!pending.isEmpty()) {
      ResolvedExpression next = pending.remove(pending.size() - 1);
      if (!(next instanceof CallExpression call)) {
        return null;
      }
      FunctionDefinition function = call.getFunctionDefinition();
      List<ResolvedExpression> args = call.getResolvedChildren();
      if (function == BuiltInFunctionDefinitions.OR) {
        pending.addAll(args);
        continue;
      }
      String column;
      if (function == BuiltInFunctionDefinitions.IN && args.get(0) instanceof FieldReferenceExpression field) {
        column = field.getName();
        literals.addAll(args.subList(1, args.size()));
      } else if (function == BuiltInFunctionDefinitions.EQUALS && args.size() == 2) {
        int fieldAt = args.get(0) instanceof FieldReferenceExpression ? 0 : 1;
        if (!(args.get(fieldAt) instanceof FieldReferenceExpression field)) {
          return null;
        }
        column = field.getName();
        literals.add(args.get(1 - fieldAt));
      } else {
        return null;
      }
      if (name != null && !name.equals(column)) {
        return null;
      }
      name = column;
    }
    return in(name, literals);
  }

  private Translated in(String name, List<ResolvedExpression> literals) {
    Field column = columns.get(name);
    Kind kind = column == null ? Kind.NONE : kind(column.getType());
    if (kind == Kind.NONE || literals.isEmpty()) {
      return null;
    }
    List<Object> values = new ArrayList<>();
    for (ResolvedExpression expression : literals) {
      Object value = expression instanceof ValueLiteralExpression literal ? value(column.getType(), literal) : null;
      if (value == null) {
        return null;
      }
      values.add(value);
    }
    return new Translated(List.of(Condition.in(name, values)), kind != Kind.SUPERSET);
  }

  private static Kind kind(ArrowType type) {
    return switch (type.getTypeID()) {
      case Int, Bool, Utf8, LargeUtf8, Date, Decimal, Timestamp -> Kind.EXACT;
      case Binary, LargeBinary, FixedSizeBinary -> Kind.EQUALITY_ONLY;
      case FloatingPoint -> Kind.SUPERSET;
      default -> Kind.NONE;
    };
  }

  /**
   * The literal's value in the column's value convention (unsigned integers as a {@link BigInteger}),
   * or null when it is NULL, does not fit or compares in another type than the column's.
   */
  private static Object value(ArrowType type, ValueLiteralExpression literal) {
    if (literal.isNull()) {
      return null;
    }
    Object value = literal.getValueAs(literal.getOutputDataType().getConversionClass()).orElse(null);
    if (value == null) {
      return null;
    }
    switch (type.getTypeID()) {
      case Int -> {
        BigInteger integer = integer(value);
        if (integer == null) {
          return null;
        }
        boolean signed = ((ArrowType.Int) type).getIsSigned();
        BigInteger min = signed ? BigInteger.valueOf(Long.MIN_VALUE) : BigInteger.ZERO;
        BigInteger max = signed ? BigInteger.valueOf(Long.MAX_VALUE) : BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
        if (integer.compareTo(min) < 0 || integer.compareTo(max) > 0) {
          return null;
        }
        return signed ? (Object) integer.longValue() : integer;
      }
      case FloatingPoint -> {
        if (!(value instanceof Number number)) {
          return null;
        }
        double d = number.doubleValue();
        return Double.isNaN(d) || d == 0.0 ? null : d;
      }
      case Decimal -> {
        if (value instanceof BigDecimal decimal) {
          return decimal;
        }
        BigInteger integer = integer(value);
        return integer == null ? null : new BigDecimal(integer);
      }
      case Bool -> {
        return value instanceof Boolean ? value : null;
      }
      case Utf8, LargeUtf8 -> {
        return value instanceof String ? value : null;
      }
      case Binary, LargeBinary, FixedSizeBinary -> {
        return value instanceof byte[] ? value : null;
      }
      case Date -> {
        return value instanceof LocalDate ? value : null;
      }
      case Timestamp -> {
        boolean zoned = ((ArrowType.Timestamp) type).getTimezone() != null;
        return zoned ? (value instanceof Instant ? value : null) : (value instanceof LocalDateTime ? value : null);
      }
      default -> {
        return null;
      }
    }
  }

  private static BigInteger integer(Object value) {
    if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
      return BigInteger.valueOf(((Number) value).longValue());
    }
    if (value instanceof BigDecimal decimal) {
      try {
        return decimal.toBigIntegerExact();
      } catch (ArithmeticException e) {
        return null;
      }
    }
    return null;
  }

  private static ComparisonOperator operator(FunctionDefinition function) {
    if (function == BuiltInFunctionDefinitions.EQUALS) {
      return ComparisonOperator.EQ;
    } else if (function == BuiltInFunctionDefinitions.NOT_EQUALS) {
      return ComparisonOperator.NE;
    } else if (function == BuiltInFunctionDefinitions.LESS_THAN) {
      return ComparisonOperator.LT;
    } else if (function == BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL) {
      return ComparisonOperator.LE;
    } else if (function == BuiltInFunctionDefinitions.GREATER_THAN) {
      return ComparisonOperator.GT;
    } else if (function == BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL) {
      return ComparisonOperator.GE;
    }
    return null;
  }

  private static ComparisonOperator swapped(ComparisonOperator operator) {
    return switch (operator) {
      case LT -> ComparisonOperator.GT;
      case LE -> ComparisonOperator.GE;
      case GT -> ComparisonOperator.LT;
      case GE -> ComparisonOperator.LE;
      default -> operator;
    };
  }
}
