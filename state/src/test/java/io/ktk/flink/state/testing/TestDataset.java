package io.ktk.flink.state.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.PlateauPublisher;
import io.ktk.flink.state.metadata.CubeMetadataKeys;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A dataset built for a test through state's API, as a writer would: each append writes one
 * Parquet file per partition (partition columns left out, with a physical schema of the test's
 * choice) and commits them with their index values through {@link CommitLog}; {@link #publish}
 * publishes the plateau view. Reads rows back in the order readers give them: partition, then
 * ({@code addedIn}, label), then row.
 */
public final class TestDataset {
  public final ObjectStore store;
  public final String uuid;
  public final Schema schema;
  public final List<String> partitionKeys;
  public final List<String> indexColumns;
  private final CommitLog log;
  private Map<String, JsonNode> metadata = Map.of();

  public TestDataset(ObjectStore store, String uuid, Schema schema, List<String> partitionKeys,
      List<String> indexColumns) throws IOException {
    this.store = store;
    this.uuid = uuid;
    this.schema = schema;
    this.partitionKeys = partitionKeys;
    this.indexColumns = indexColumns;
    this.log = CommitLog.open(store, uuid, CommitLogOptions.DEFAULTS);
  }

  public static TestDataset create(ObjectStore store, String uuid, Schema schema, List<String> partitionKeys,
      List<String> indexColumns) throws IOException {
    return new TestDataset(store, uuid, schema, partitionKeys, indexColumns);
  }

  public static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }

  /** Metadata set by the next commit (e.g. the cube keys). */
  public TestDataset withMetadata(Map<String, JsonNode> metadata) {
    this.metadata = metadata;
    return this;
  }

  /** Makes the next commit mark the dataset as a cube dataset with these dimension columns. */
  public TestDataset cube(List<String> dimensions, List<String> partitions) {
    ObjectMapper json = new ObjectMapper();
    return withMetadata(Map.of(
        CubeMetadataKeys.DIMENSION_COLUMNS, json.valueToTree(dimensions),
        CubeMetadataKeys.PARTITION_COLUMNS, json.valueToTree(partitions)));
  }

  /**
   * Makes the next commit give the dataset a primary key; rows of change files then carry the
   * delete flag after the schema's values ({@link #changeSchema()}).
   */
  public TestDataset primaryKey(List<String> key) {
    return withMetadata(Map.of(PrimaryKey.METADATA_KEY, PrimaryKey.toJson(key)));
  }

  /** The physical schema of change files: the data columns and {@code __ktk_deleted}. */
  public Schema changeSchema() {
    List<Field> fields = new ArrayList<>(dataSchema().getFields());
    fields.add(field(PrimaryKey.DELETED_COLUMN, ArrowType.Bool.INSTANCE));
    return new Schema(fields);
  }

  /** The physical schema of the files: the schema without the partition columns. */
  public Schema dataSchema() {
    return new Schema(schema.getFields().stream().filter(f -> !partitionKeys.contains(f.getName())).toList());
  }

  /** Appends rows (values in schema order) as one commit; returns the files written. */
  public List<DataFile> append(List<List<Object>> rows) throws IOException {
    return append(dataSchema(), rows);
  }

  /** Appends rows as one commit, writing the files with {@code physical} (e.g. int32 for an int64 column). */
  public List<DataFile> append(Schema physical, List<List<Object>> rows) throws IOException {
    List<Field> keyFields = partitionKeys.stream().map(schema::findField).toList();
    Map<List<Object>, List<List<Object>>> byPartition = new LinkedHashMap<>();
    for (List<Object> row : rows) {
      List<Object> values = partitionKeys.stream().map(key -> row.get(position(key))).toList();
      byPartition.computeIfAbsent(values, v -> new ArrayList<>()).add(row);
    }
    List<DataFile> files = new ArrayList<>();
    Map<String, Map<IndexValue, List<String>>> index = new HashMap<>();
    indexColumns.forEach(column -> index.put(column, new HashMap<>()));
    for (Map.Entry<List<Object>, List<List<Object>>> partition : byPartition.entrySet()) {
      PartitionLabel label = PartitionLabel.of(keyFields, partition.getKey(), PartitionLabel.newFileId());
      String key = DatasetKeys.dataFileKey(uuid, label);
      try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, key, physical, Map.of(),
          ParquetWriteOptions.defaults())) {
        for (List<Object> row : partition.getValue()) {
          List<Object> values = new ArrayList<>();
          for (Field field : physical.getFields()) {
            values.add(row.get(position(field.getName())));
          }
          writer.write(values);
          for (String column : indexColumns) {
            Object value = row.get(position(column));
            if (value != null) { // as Kartothek, indices leave nulls out
              List<String> labels = index.get(column).computeIfAbsent(IndexValue.of(value), v -> new ArrayList<>());
              if (!labels.contains(label.toString())) {
                labels.add(label.toString());
              }
            }
          }
        }
      }
      files.add(new DataFile(label.toString(), partition.getValue().size(), store.head(key).orElseThrow().size(),
          physical));
    }
    commit(files, index);
    return files;
  }

  /** Commits files written by someone else (pyarrow) with their index values. */
  public void commit(List<DataFile> files, Map<String, Map<IndexValue, List<String>>> index) throws IOException {
    log.commit(DatasetChange.append(partitionKeys, schema, files).withIndex(indexColumns, index)
        .withMetadata(metadata));
    metadata = Map.of();
  }

  /** Publishes the plateau view of the latest version; returns it. */
  public long publish() throws IOException {
    return new PlateauPublisher().publish(log);
  }

  public DatasetState state() throws IOException {
    return log.refresh();
  }

  /** The files of a partition in the order readers give them. */
  public List<DataFile> filesInReadOrder(String partition) throws IOException {
    DatasetState state = state();
    return state.labelsIn(partition).stream()
        .sorted(Comparator.comparingLong(state::addedIn).thenComparing(label -> label))
        .map(label -> state.files().get(label))
        .toList();
  }

  /**
   * Every row of the latest version (values of the data columns, in {@link #dataSchema()} order,
   * after the partition path; binary values as {@code ByteBuffer}s, which compare by content),
   * partition by partition in label order, files in read order.
   */
  public List<List<Object>> rows() throws IOException {
    DatasetState state = state();
    List<String> partitions = state.files().values().stream().map(DataFile::physicalPartition).distinct().sorted()
        .toList();
    List<String> columns = dataSchema().getFields().stream().map(Field::getName).toList();
    List<List<Object>> rows = new ArrayList<>();
    for (String partition : partitions) {
      for (DataFile file : filesInReadOrder(partition)) {
        try (ParquetRowsReader reader = ParquetRowsReader.open(store, file.key(uuid))) {
          List<String> present = columns.stream().filter(c -> reader.parquetSchema().containsField(c)).toList();
          for (List<Object> values : reader.readAll(present)) {
            List<Object> row = new ArrayList<>();
            row.add(partition);
            for (String column : columns) {
              int at = present.indexOf(column);
              Object value = at < 0 ? null : values.get(at);
              row.add(value instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : value); // compared by content
            }
            rows.add(row);
          }
        }
      }
    }
    return rows;
  }

  /** The position of {@code column} in the rows given to {@link #append}; the delete flag comes after the schema's. */
  public int position(String column) {
    if (column.equals(PrimaryKey.DELETED_COLUMN)) {
      return schema.getFields().size();
    }
    for (int i = 0; i < schema.getFields().size(); i++) {
      if (schema.getFields().get(i).getName().equals(column)) {
        return i;
      }
    }
    throw new IllegalArgumentException("no column " + column);
  }
}
