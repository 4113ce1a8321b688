package io.ktk.flink.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.commit.PlateauPublisher;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Builds a dataset for a test through state's API, as a writer would: rows grouped by partition,
 * one Parquet file per partition and append (partition columns left out of the files), committed
 * with index deltas through {@link CommitLog}, published with {@link PlateauPublisher}.
 */
final class TestDataset {
  final ObjectStore store;
  final String uuid;
  final Schema schema;
  final List<String> partitionKeys;
  final List<String> indexColumns;
  private final CommitLog log;
  private Map<String, JsonNode> metadata = Map.of();

  private TestDataset(ObjectStore store, String uuid, Schema schema, List<String> partitionKeys,
      List<String> indexColumns) throws IOException {
    this.store = store;
    this.uuid = uuid;
    this.schema = schema;
    this.partitionKeys = partitionKeys;
    this.indexColumns = indexColumns;
    this.log = CommitLog.open(store, uuid, CommitLogOptions.DEFAULTS);
  }

  static TestDataset create(ObjectStore store, String uuid, Schema schema, List<String> partitionKeys,
      List<String> indexColumns) throws IOException {
    return new TestDataset(store, uuid, schema, partitionKeys, indexColumns);
  }

  static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }

  /** Metadata set by the next commit (e.g. the cube keys). */
  TestDataset withMetadata(Map<String, JsonNode> metadata) {
    this.metadata = metadata;
    return this;
  }

  /** The physical schema of the files: the schema without the partition columns. */
  Schema physicalSchema() {
    return new Schema(schema.getFields().stream().filter(f -> !partitionKeys.contains(f.getName())).toList());
  }

  /** Appends rows (values in schema order) as one commit; returns the files written. */
  List<DataFile> append(List<List<Object>> rows) throws IOException {
    return append(physicalSchema(), rows);
  }

  /** Appends rows, writing the files with {@code physical} (e.g. int32 for an int64 column). */
  List<DataFile> append(Schema physical, List<List<Object>> rows) throws IOException {
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
      try (ParquetRowsWriter writer =
          ParquetRowsWriter.create(store, key, physical, Map.of(), ParquetWriteOptions.defaults())) {
        for (List<Object> row : partition.getValue()) {
          List<Object> values = new ArrayList<>();
          for (Field field : physical.getFields()) {
            values.add(row.get(position(field.getName())));
          }
          writer.write(values);
          for (String column : indexColumns) {
            Object value = row.get(position(column));
            List<String> labels = index.get(column).computeIfAbsent(IndexValue.of(value), v -> new ArrayList<>());
            if (!labels.contains(label.toString())) {
              labels.add(label.toString());
            }
          }
        }
      }
      files.add(new DataFile(label.toString(), partition.getValue().size(), store.head(key).orElseThrow().size(),
          physical));
    }
    log.commit(DatasetChange.append(partitionKeys, schema, files).withIndex(indexColumns, index)
        .withMetadata(metadata));
    metadata = Map.of();
    return files;
  }

  /** Publishes the plateau view of the latest version. */
  long publish() throws IOException {
    return new PlateauPublisher().publish(log);
  }

  private int position(String column) {
    for (int i = 0; i < schema.getFields().size(); i++) {
      if (schema.getFields().get(i).getName().equals(column)) {
        return i;
      }
    }
    throw new IllegalArgumentException("no column " + column);
  }
}
