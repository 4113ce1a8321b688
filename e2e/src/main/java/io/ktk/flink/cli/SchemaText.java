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
      type = LogicalTypeParser.parse("ROW<" + quoteNames(text) + ">", SchemaText.class.getClassLoader());
    } catch (RuntimeException e) {
      String message = e.getMessage() == null ? e.toString() : e.getMessage();
      int input = message.indexOf("\n Input type string:");
      throw new IllegalArgumentException("'" + text + "' is not a list of columns with Flink SQL types ("
          + (input >= 0 ? message.substring(0, input) : message).strip() + ")");
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
      throw new IllegalArgumentException("'" + unresolved.getUnresolvedIdentifier().getObjectName()
          + "' is not a type (types: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s), "
          + "CHAR(n), VARCHAR(n), STRING, BINARY(n), VARBINARY(n), BYTES, DATE, TIME(p), TIMESTAMP(p), "
          + "TIMESTAMP_LTZ(p), ARRAY<t>, ROW<name t, ...>)");
    }
    for (LogicalType child : type.getChildren()) {
      checkResolved(child);
    }
  }

  /**
   * Puts the top-level column names in backticks, so that names which are SQL keywords ({@code day},
   * {@code date}, {@code value}) need no quoting on the command line. Only the names are touched;
   * the types go to Flink's parser as written (names inside ROW types follow Flink's rules).
   */
  static String quoteNames(String text) {
    StringBuilder quoted = new StringBuilder();
    int depth = 0;
    boolean atName = true;
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (quote != 0) {
        quoted.append(c);
        if (c == quote) {
          quote = 0;
        }
        continue;
      }
      if (atName && !Character.isWhitespace(c)) {
        atName = false;
        if (c != '`' && (Character.isLetter(c) || c == '_')) {
          int end = i;
          while (end < text.length() && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '_')) {
            end++;
          }
          quoted.append('`').append(text, i, end).append('`');
          i = end - 1;
          continue;
        }
      }
      if (c == '`' || c == '\'') {
        quote = c;
      } else if (c == '<' || c == '(') {
        depth++;
      } else if (c == '>' || c == ')') {
        depth--;
      } else if (c == ',' && depth == 0) {
        atName = true;
      }
      quoted.append(c);
    }
    return quoted.toString();
  }
}
