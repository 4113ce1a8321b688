package io.ktk.flink.state.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** The index columns a {@code pandas} footer entry names, as pyarrow writes them. */
class PandasMetadataTest {
  @Test
  void storedIndexColumnsAreNamedAndARangeIndexIsNot() {
    // as pyarrow writes a frame whose index is not a plain range (plateau's first write of a partition)
    String stored = """
        {"index_columns": ["__index_level_0__"], "column_indexes": [], "columns": [
          {"name": "id", "field_name": "id", "pandas_type": "int64", "numpy_type": "int64", "metadata": null},
          {"name": null, "field_name": "__index_level_0__", "pandas_type": "int64", "numpy_type": "int64",
           "metadata": null}]}""";
    String range = """
        {"index_columns": [{"kind": "range", "name": null, "start": 3, "stop": 6, "step": 1}], "columns": []}""";

    assertThat(PandasMetadata.indexColumns(stored)).containsExactly("__index_level_0__");
    assertThat(PandasMetadata.indexColumns(range)).isEmpty();
    assertThat(PandasMetadata.indexColumns("not json")).isEmpty();
    assertThat(PandasMetadata.indexColumns(PandasMetadata.of(new Schema(List.of(
        Field.nullable("id", new ArrowType.Int(64, true))))))).isEmpty();
  }
}
