package io.ktk.flink.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
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
  private final List<Field> fields;
  private final JsonGenerator json;

  JsonLinesRowWriter(PrintWriter out, List<Field> fields) throws IOException {
    this.fields = List.copyOf(fields);
    JsonFactory factory = new JsonFactory();
    factory.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
    this.json = factory.createGenerator(out);
    json.setRootValueSeparator(null);
  }

  @Override
  public void write(Object[] row) throws IOException {
    json.writeStartObject();
    for (int i = 0; i < row.length; i++) {
      Field field = fields.get(i);
      json.writeFieldName(field.getName());
      ValueFormat.write(json, field, row[i]);
    }
    json.writeEndObject();
    json.writeRaw('\n');
  }

  @Override
  public void flush() throws IOException {
    json.flush();
  }
}
