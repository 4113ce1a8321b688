package io.ktk.flink.cli;

import io.ktk.flink.state.vector.TypedVector;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * CSV as RFC 4180 defines it: a header row of column names, fields separated by commas, records
 * ended by CRLF, a field quoted with {@code "} (and inner quotes doubled) when it holds a comma, a
 * quote, CR or LF. A null is an empty field; an empty string is written as {@code ""}, so the two stay
 * apart. Values are rendered by {@link ValueFormat}, straight into a buffer of many rows that goes
 * to the writer when it fills or on {@link #flush}.
 *
 * <pre>
 * day,c,s,v\r\n
 * 2024-01-01,1,,0.5\r\n
 * 2024-01-01,2,"a, b",NaN\r\n
 * </pre>
 */
final class CsvRowWriter implements RowWriter {
  private static final int BUFFER_CHARS = 1 << 16;

  private final PrintWriter out;
  private final Field[] fields;
  private final TextBuffer line = new TextBuffer(BUFFER_CHARS + 1024);

  CsvRowWriter(PrintWriter out, List<Field> fields) throws IOException {
    this.out = out;
    this.fields = fields.toArray(Field[]::new);
    for (int i = 0; i < this.fields.length; i++) {
      if (i > 0) {
        line.append(',');
      }
      int start = line.length();
      line.append(this.fields[i].getName());
      quoteIfNeeded(start);
    }
    endLine();
  }

  @Override
  public void write(Object[] row) throws IOException {
    for (int i = 0; i < row.length; i++) {
      if (i > 0) {
        line.append(',');
      }
      if (row[i] != null) {
        int start = line.length();
        if (ValueFormat.append(line, fields[i], row[i])) {
          quoteIfNeeded(start);
        }
      }
    }
    endLine();
  }

  @Override
  public void write(TypedVector[] columns, int row) throws IOException {
    for (int i = 0; i < columns.length; i++) {
      if (i > 0) {
        line.append(',');
      }
      if (!columns[i].isNull(row)) {
        int start = line.length();
        if (ValueFormat.append(line, fields[i], columns[i], row)) {
          quoteIfNeeded(start);
        }
      }
    }
    endLine();
  }

  @Override
  public void flush() throws IOException {
    line.writeTo(out);
    out.flush();
  }

  /** Quotes the field from {@code start} to the end, in place, if it is empty or holds a special character. */
  private void quoteIfNeeded(int start) {
    char[] chars = line.chars();
    int end = line.length();
    boolean special = start == end;
    int quotes = 0;
    for (int i = start; i < end; i++) {
      char c = chars[i];
      if (c == '"') {
        quotes++;
        special = true;
      } else if (c == ',' || c == '\r' || c == '\n') {
        special = true;
      }
    }
    if (!special) {
      return;
    }
    line.reserve(quotes + 2);
    chars = line.chars();
    // move the text right from its end, doubling quotes, then open the field
    int to = end + quotes + 2;
    line.setLength(to);
    chars[--to] = '"';
    for (int i = end - 1; i >= start; i--) {
      chars[--to] = chars[i];
      if (chars[i] == '"') {
        chars[--to] = '"';
      }
    }
    chars[start] = '"';
  }

  private void endLine() throws IOException {
    line.append('\r').append('\n');
    if (line.length() >= BUFFER_CHARS) {
      line.writeTo(out);
    }
  }
}
