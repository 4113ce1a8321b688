package io.ktk.flink.source.engine;

import io.ktk.flink.source.engine.RandomCube.Column;
import io.ktk.flink.source.engine.RandomCube.Type;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One condition of a {@link RandomQuery}, in the text form our planner reads and as DuckDB SQL with
 * each semantics: {@code op} is one of == != < <= > >= in interval.
 */
record RandomCondition(Column column, String op, List<Object> values, boolean lowerInclusive, boolean upperInclusive) {
  String text() {
    String name = column.name();
    return switch (op) {
      case "in" -> name + " in (" + values.stream().map(v -> textLiteral(column.type(), v))
          .collect(Collectors.joining(", ")) + ")";
      case "interval" -> textLiteral(column.type(), values.get(0)) + (lowerInclusive ? " <= " : " < ") + name
          + (upperInclusive ? " <= " : " < ") + textLiteral(column.type(), values.get(1));
      default -> name + " " + op + " " + textLiteral(column.type(), values.get(0));
    };
  }

  /**
   * The condition as Kartothek 5.3 (pandas) evaluates it on a row: null and NaN are missing, which
   * {@code !=} keeps and everything else drops.
   */
  String kartothekSql(String table) {
    String c = table + ".\"" + column.name() + "\"";
    if (op.equals("!=")) {
      return "(" + c + " IS NULL" + (column.type() == Type.DOUBLE ? " OR isnan(" + c + ")" : "") + " OR " + sql(table)
          + ")";
    }
    return column.type() == Type.DOUBLE ? "(" + sql(table) + " AND NOT isnan(" + c + "))" : sql(table);
  }

  /**
   * Whether Kartothek's reader skips a row group whose statistics show only the literal (plateau's
   * {@code _predicate_accepts} for {@code !=}); it widens float bounds by an epsilon, so for a float
   * literal only 0 and the infinities can match.
   */
  boolean kartothekSkipsRowGroups() {
    if (!op.equals("!=")) {
      return false;
    }
    return !(values.get(0) instanceof Double d) || d == 0.0 || d.isInfinite();
  }

  String sql(String table) {
    String c = table + ".\"" + column.name() + "\"";
    return switch (op) {
      case "in" -> c + " IN (" + values.stream().map(v -> sqlLiteral(column.type(), v))
          .collect(Collectors.joining(", ")) + ")";
      case "interval" -> "(" + c + (lowerInclusive ? " >= " : " > ") + sqlLiteral(column.type(), values.get(0))
          + " AND " + c + (upperInclusive ? " <= " : " < ") + sqlLiteral(column.type(), values.get(1)) + ")";
      case "==" -> c + " = " + sqlLiteral(column.type(), values.get(0));
      default -> c + " " + op + " " + sqlLiteral(column.type(), values.get(0));
    };
  }

  static String textLiteral(Type type, Object value) {
    return switch (type) {
      case INT -> value.toString();
      case DOUBLE -> {
        double d = (Double) value;
        yield Double.isNaN(d) ? "nan" : Double.isInfinite(d) ? (d > 0 ? "inf" : "-inf") : Double.toString(d);
      }
      case STRING -> "'" + ((String) value).replace("'", "''") + "'";
      case DATE -> "'" + value + "'";
      case BOOL -> value.toString();
    };
  }

  static String sqlLiteral(Type type, Object value) {
    return switch (type) {
      case INT -> "CAST(" + value + " AS BIGINT)";
      case DOUBLE -> {
        double d = (Double) value;
        yield Double.isNaN(d) ? "CAST('NaN' AS DOUBLE)" : Double.isInfinite(d)
            ? (d > 0 ? "CAST('inf' AS DOUBLE)" : "CAST('-inf' AS DOUBLE)") : "CAST(" + d + " AS DOUBLE)";
      }
      case STRING -> sqlString((String) value);
      case DATE -> "DATE '" + value + "'";
      case BOOL -> value.toString();
    };
  }

  static String sqlString(String s) {
    return "'" + s.replace("'", "''") + "'";
  }
}
