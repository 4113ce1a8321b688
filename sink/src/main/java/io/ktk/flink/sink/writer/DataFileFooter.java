package io.ktk.flink.sink.writer;

import io.ktk.flink.state.metadata.ArrowSchemaMetadata;
import io.ktk.flink.state.metadata.PandasMetadata;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The key/value metadata of a data file's footer, as pyarrow writes it for a table from pandas:
 * {@code ARROW:schema} (the file's Arrow schema, with the {@code pandas} entry in it) and {@code
 * pandas}. Readers (plateau, pyarrow) take the file's Arrow types from it.
 */
public final class DataFileFooter {
  private DataFileFooter() {}

  /** The footer entries of a data file whose own Arrow schema is {@code physical}. */
  public static Map<String, String> keyValues(Schema physical) {
    String pandas = PandasMetadata.of(physical);
    Map<String, String> keyValues = new LinkedHashMap<>();
    keyValues.put(ArrowSchemaMetadata.KEY,
        ArrowSchemaMetadata.encode(new Schema(physical.getFields(), Map.of(PandasMetadata.KEY, pandas))));
    keyValues.put(PandasMetadata.KEY, pandas);
    return keyValues;
  }
}
