package io.ktk.flink.sink.compaction;

import com.fasterxml.jackson.databind.JsonNode;
import io.ktk.flink.sink.writer.DataFileFooter;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.metadata.CubeMetadataKeys;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.parquet.ArrowParquetSchemas;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.schema.MessageType;

/**
 * What the files a compaction writes for one dataset look like, taken from the dataset's state:
 * the committed schema (normalized types) without the partition columns, in committed order; the
 * footer; the index columns whose values each file's commit entry carries; and, for a cube dataset,
 * the columns that identify a cell.
 *
 * @param logicalSchema the committed schema, partition columns included (what the rewrite commits)
 * @param partitionKeys the partition columns, typed, in label order
 * @param dataSchema the schema of the written files
 * @param parquetSchema its Parquet schema
 * @param footer the written files' footer key/value metadata
 * @param indexColumns the dataset's secondary index columns (partition columns among them too)
 * @param cellColumns for a cube dataset, its data columns that identify a cell: dimension columns
 *     and cube partition columns it stores in its files; for a dataset with a primary key, the
 *     key's columns it stores in its files; empty for a plain dataset (nothing is de-duplicated)
 * @param keyed whether the dataset has a primary key ({@code docs/cdc.md}): its files are merged by
 *     key (also when every key column is a partition column, and {@code cellColumns} is empty),
 *     and its change files carry {@value PrimaryKey#DELETED_COLUMN}
 */
record RewriteLayout(
    String uuid,
    Schema logicalSchema,
    List<Field> partitionKeys,
    Schema dataSchema,
    MessageType parquetSchema,
    Map<String, String> footer,
    Set<String> indexColumns,
    List<String> cellColumns,
    boolean keyed) {

  /** Whether a rewrite keeps only the last row of each cell or key. */
  boolean deduplicates() {
    return keyed || !cellColumns.isEmpty();
  }

  /** The schema of a change file: the data columns and {@value PrimaryKey#DELETED_COLUMN}. */
  Schema changeSchema() {
    List<Field> fields = new ArrayList<>(dataSchema.getFields());
    fields.add(Field.nullable(PrimaryKey.DELETED_COLUMN, ArrowType.Bool.INSTANCE));
    return new Schema(fields);
  }

  static RewriteLayout of(DatasetState state) {
    Schema schema = state.schema();
    List<Field> partitionKeys = new ArrayList<>();
    for (String key : state.partitionKeys()) {
      partitionKeys.add(schema.findField(key));
    }
    List<Field> data = schema.getFields().stream().filter(f -> !state.partitionKeys().contains(f.getName())).toList();
    Schema dataSchema = new Schema(data);
    Set<String> cellCandidates = new LinkedHashSet<>();
    cellCandidates.addAll(columns(state, CubeMetadataKeys.DIMENSION_COLUMNS));
    if (!cellCandidates.isEmpty()) {
      cellCandidates.addAll(columns(state, CubeMetadataKeys.PARTITION_COLUMNS));
    }
    Set<String> dataNames = new LinkedHashSet<>(data.stream().map(Field::getName).toList());
    List<String> cells = new ArrayList<>();
    for (String column : cellCandidates) {
      if (dataNames.contains(column)) {
        cells.add(column);
      }
    }
    // A cube dataset without any dimension column of its own identifies no cells in its files.
    boolean hasDimension = columns(state, CubeMetadataKeys.DIMENSION_COLUMNS).stream().anyMatch(dataNames::contains);
    Optional<List<String>> primaryKey = PrimaryKey.of(state.uuid(), state.metadata());
    if (primaryKey.isPresent()) {
      cells = primaryKey.get().stream().filter(dataNames::contains).toList();
    } else if (!hasDimension) {
      cells = List.of();
    }
    return new RewriteLayout(state.uuid(), schema, List.copyOf(partitionKeys), dataSchema,
        ArrowParquetSchemas.toParquet(dataSchema), DataFileFooter.keyValues(dataSchema),
        Set.copyOf(state.indexColumns()), List.copyOf(cells), primaryKey.isPresent());
  }

  /** A list-valued cube metadata key of the dataset; empty when absent. */
  private static List<String> columns(DatasetState state, String key) {
    JsonNode node = state.metadata().get(key);
    if (node == null || node.isNull()) {
      return List.of();
    }
    List<String> columns = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(element -> columns.add(element.isTextual() ? element.textValue() : null));
    }
    if (!node.isArray() || columns.contains(null)) {
      throw new CorruptDatasetException("Cannot compact dataset '" + state.uuid() + "': its metadata key " + key
          + " is " + node + ", expected a list of column names");
    }
    return columns;
  }
}
