package io.ktk.flink.cli;

import io.ktk.flink.state.types.FlinkArrowTypes;
import io.ktk.flink.state.types.UnsupportedTypeException;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.UnresolvedUserDefinedType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

/**
 * The {@code --schema} text, {@code 'id BIGINT NOT NULL, p STRING, r ROW<x INT, y ARRAY<DOUBLE>>'}:
 * the fields of a Flink SQL row type, read by Flink's own type parser ({@link LogicalTypeParser}),
 * so every Flink type name and form works (quote odd names in backticks). A name the parser does
 * not know as a type, and a type the sink cannot write (MAP, MULTISET, INTERVAL, ...), are refused.
 */
final class SchemaText {
  private SchemaText() {}

  /**
   * The row type of the text.
   *
   * @throws IllegalArgumentException with a message for the user
   */
  static RowType parse(String text) {
    LogicalType type;
    try {
      type = LogicalTypeParser.parse("ROW<" + text + ">", SchemaText.class.getClassLoader());
    } catch (RuntimeException e) {
      // Flink's message names the position in our wrapped text; shift it back by "ROW<".
      throw new IllegalArgumentException("'" + text + "' is not a list of columns with Flink SQL types ("
          + shiftPositions(e.getMessage()) + ")");
    }
    if (!(type instanceof RowType rowType) || rowType.getFieldCount() == 0) {
      throw new IllegalArgumentException("'" + text + "' declares no columns");
    }
    checkResolved(rowType);
    try {
      FlinkArrowTypes.toSchema(rowType);
    } catch (UnsupportedTypeException e) {
      throw new IllegalArgumentException(e.getMessage());
    }
    return rowType;
  }

  private static void checkResolved(LogicalType type) {
    if (type instanceof UnresolvedUserDefinedType unresolved) {
      throw new IllegalArgumentException("'" + unresolved.getUnresolvedIdentifier().asSummaryString()
          + "' is not a type (types: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s), "
          + "CHAR(n), VARCHAR(n), STRING, BINARY(n), VARBINARY(n), BYTES, DATE, TIME(p), TIMESTAMP(p), "
          + "TIMESTAMP_LTZ(p), ARRAY<t>, ROW<name t, ...>)");
    }
    for (LogicalType child : type.getChildren()) {
      checkResolved(child);
    }
  }

  private static String shiftPositions(String message) {
    if (message == null) {
      return "unknown error";
    }
    java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("at position (\\d+)").matcher(message);
    StringBuilder shifted = new StringBuilder();
    while (matcher.find()) {
      int position = Math.max(0, Integer.parseInt(matcher.group(1)) - "ROW<".length());
      matcher.appendReplacement(shifted, "at position " + position);
    }
    matcher.appendTail(shifted);
    return shifted.toString();
  }
}
