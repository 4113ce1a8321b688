package io.ktk.flink.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import io.ktk.flink.state.vector.ColumnVector;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * JSON lines: one object per row, keys in column order, {@code null} for nulls, values as {@link
 * ValueFormat#write} writes them; lines end with LF.
 *
 * <pre>
 * {"day":"2024-01-01","c":1,"s":null,"v":0.5}
 * {"day":"2024-01-01","c":2,"s":"a, b","v":"NaN"}
 * </pre>
 */
final class JsonLinesRowWriter implements RowWriter {
  private final Field[] fields;
  /** The keys, escaped once. */
  private final SerializableString[] keys;
  private final JsonGenerator json;
  private final TextBuffer scratch = new TextBuffer(64);

  JsonLinesRowWriter(PrintWriter out, List<Field> fields) throws IOException {
    this.fields = fields.toArray(Field[]::new);
    this.keys = new SerializableString[this.fields.length];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = new SerializedString(this.fields[i].getName());
    }
    JsonFactory factory = new JsonFactory();
    factory.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    this.json = factory.createGenerator(out);
    json.setRootValueSeparator(null);
  }

  @Override
  public void write(Object[] row) throws IOException {
    json.writeStartObject();
    for (int i = 0; i < row.length; i++) {
      json.writeFieldName(keys[i]);
      ValueFormat.write(json, fields[i], row[i], scratch);
    }
    json.writeEndObject();
    json.writeRaw('\n');
  }

  @Override
  public void write(ColumnVector[] columns, int row) throws IOException {
    json.writeStartObject();
    for (int i = 0; i < columns.length; i++) {
      json.writeFieldName(keys[i]);
      ValueFormat.write(json, fields[i], columns[i], row, scratch);
    }
    json.writeEndObject();
    json.writeRaw('\n');
  }

  @Override
  public void flush() throws IOException {
    json.flush();
  }
}
