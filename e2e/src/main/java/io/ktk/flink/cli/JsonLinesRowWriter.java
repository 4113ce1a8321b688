package io.ktk.flink.cli;

import io.ktk.flink.state.vector.TypedVector;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * JSON lines: one object per row, keys in column order, {@code null} for nulls, values as {@link
 * ValueFormat#appendJson} writes them; lines end with LF. Rows go into a buffer of many rows that
 * goes to the writer when it fills or on {@link #flush}.
 *
 * <pre>
 * {"day":"2024-01-01","c":1,"s":null,"v":0.5}
 * {"day":"2024-01-01","c":2,"s":"a, b","v":"NaN"}
 * </pre>
 */
final class JsonLinesRowWriter implements RowWriter {
  private static final int BUFFER_CHARS = 1 << 16;

  private final PrintWriter out;
  private final Field[] fields;
  /** Per column, what comes before its value: {@code {"name":} or {@code ,"name":}, escaped once. */
  private final char[][] keys;
  private final TextBuffer lines = new TextBuffer(BUFFER_CHARS + 1024);

  JsonLinesRowWriter(PrintWriter out, List<Field> fields) {
    this.out = out;
    this.fields = fields.toArray(Field[]::new);
    this.keys = new char[this.fields.length][];
    for (int i = 0; i < keys.length; i++) {
      TextBuffer key = new TextBuffer(64);
      key.append(i == 0 ? '{' : ',');
      ValueFormat.appendJsonString(key, this.fields[i].getName());
      key.append(':');
      keys[i] = key.toString().toCharArray();
    }
  }

  @Override
  public void write(Object[] row) throws IOException {
    if (row.length == 0) {
      lines.append('{');
    }
    for (int i = 0; i < row.length; i++) {
      lines.append(keys[i]);
      ValueFormat.appendJson(lines, fields[i], row[i]);
    }
    endLine();
  }

  @Override
  public void write(TypedVector[] columns, int row) throws IOException {
    if (columns.length == 0) {
      lines.append('{');
    }
    for (int i = 0; i < columns.length; i++) {
      lines.append(keys[i]);
      ValueFormat.appendJson(lines, fields[i], columns[i], row);
    }
    endLine();
  }

  @Override
  public void flush() throws IOException {
    lines.writeTo(out);
    out.flush();
  }

  private void endLine() throws IOException {
    lines.append('}').append('\n');
    if (lines.length() >= BUFFER_CHARS) {
      lines.writeTo(out);
    }
  }
}
