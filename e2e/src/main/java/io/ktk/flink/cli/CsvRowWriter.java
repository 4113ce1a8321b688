package io.ktk.flink.cli;

import java.io.PrintWriter;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * CSV as RFC 4180 defines it: a header row of column names, fields separated by commas, records
 * ended by CRLF, a field quoted with {@code "} (and inner quotes doubled) when it holds a comma, a
 * quote, CR or LF. A null is an empty field; an empty string is written as {@code ""}, so the two stay
 * apart. Values are rendered by {@link ValueFormat#text}.
 *
 * <pre>
 * day,c,s,v\r\n
 * 2024-01-01,1,,0.5\r\n
 * 2024-01-01,2,"a, b",NaN\r\n
 * </pre>
 */
final class CsvRowWriter implements RowWriter {
  private final PrintWriter out;
  private final List<Field> fields;
  private final StringBuilder line = new StringBuilder();

  CsvRowWriter(PrintWriter out, List<Field> fields) {
    this.out = out;
    this.fields = List.copyOf(fields);
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) {
        line.append(',');
      }
      appendField(fields.get(i).getName());
    }
    endLine();
  }

  @Override
  public void write(Object[] row) {
    for (int i = 0; i < row.length; i++) {
      if (i > 0) {
        line.append(',');
      }
      if (row[i] != null) {
        appendField(ValueFormat.text(fields.get(i), row[i]));
      }
    }
    endLine();
  }

  @Override
  public void flush() {
    out.flush();
  }

  private void appendField(String text) {
    if (text.isEmpty() || needsQuotes(text)) {
      line.append('"').append(text.replace("\"", "\"\"")).append('"');
    } else {
      line.append(text);
    }
  }

  private static boolean needsQuotes(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == ',' || c == '"' || c == '\r' || c == '\n') {
        return true;
      }
    }
    return false;
  }

  private void endLine() {
    line.append("\r\n");
    out.append(line);
    line.setLength(0);
  }
}
