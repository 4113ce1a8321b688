package io.ktk.flink.sink.writer;

import io.ktk.flink.sink.committable.FileBatch;
import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * The part of a writer subtask that belongs to one dataset: its record rules, its partition
 * buffers and the files written since the last checkpoint. A {@link KartothekWriter} has one per
 * dataset it writes (several for a cube); their buffers share the subtask's memory budget.
 */
final class DatasetWriter {
  private final KartothekSinkConfig config;
  private final List<String> indexColumns;
  private final RecordValidator validator;
  /** Whether a validation step in front of the writer checked every record with the same rules. */
  private final boolean recordsChecked;
  private final DataColumns layout;
  private final PartFileWriter fileWriter;
  private final Schema logicalSchema;
  private final MemoryBudget budget;
  private final ObjectStore store;
  /** With a primary key, the mapping of each change to a row of the change files; null without one. */
  private final ChangeRow changes;
  private final List<PartitionBuffer> buffers = new ArrayList<>();
  private final List<DataFile> pendingFiles = new ArrayList<>();
  private final Map<String, Map<IndexValue, Set<String>>> pendingIndex = new LinkedHashMap<>();
  /** When the first of {@link #pendingFiles} began to be written (epoch millis). */
  private long pendingSinceMillis = FileBatch.UNKNOWN_WRITE_TIME;

  DatasetWriter(KartothekSinkConfig config, List<String> indexColumns, ObjectStore store, MemoryBudget budget,
      boolean recordsChecked) {
    this.recordsChecked = recordsChecked;
    this.config = config;
    this.indexColumns = List.copyOf(indexColumns);
    this.store = store;
    this.budget = budget;
    this.validator = new RecordValidator(config, indexColumns);
    this.changes = config.hasPrimaryKey() ? new ChangeRow(config.rowType().getFieldNames(), config.primaryKey()) : null;
    this.layout = layout(config, indexColumns);
    this.logicalSchema = config.declaredSchema();
    ParquetWriteOptions options = ParquetWriteOptions.defaults()
        .withCompression(config.compression().codec())
        .withRowGroupSizeBytes(config.rowGroupSizeBytes());
    this.fileWriter = new PartFileWriter(store, config.dataset(), new Schema(layout.fields()), options);
  }

  private static DataColumns layout(KartothekSinkConfig config, List<String> indexColumns) {
    Schema declared = config.declaredSchema();
    List<Integer> positions = new ArrayList<>();
    List<LogicalType> types = new ArrayList<>();
    List<Field> fields = new ArrayList<>();
    for (int pos = 0; pos < config.rowType().getFieldCount(); pos++) {
      String column = config.rowType().getFieldNames().get(pos);
      if (!config.partitionColumns().contains(column)) {
        positions.add(pos);
        types.add(config.rowType().getTypeAt(pos));
        fields.add(declared.getFields().get(pos));
      }
    }
    if (config.hasPrimaryKey()) {
      // The change files' last column, which ChangeRow adds behind the record's (docs/cdc.md).
      positions.add(config.rowType().getFieldCount());
      types.add(new BooleanType());
      fields.add(ChangeRow.DELETED_FIELD);
    }
    return new DataColumns(config.dataset(), config.rowType(), positions.stream().mapToInt(Integer::intValue).toArray(),
        types, fields, indexColumns.stream().mapToInt(config::position).toArray());
  }

  KartothekSinkConfig config() {
    return config;
  }

  RecordValidator validator() {
    return validator;
  }

  /**
   * Checks the record (unless the validation step in front did) and appends it to its partition's
   * buffer; with a primary key, as a row of the change files (a {@code -U} is ignored). @throws
   * io.ktk.flink.state.KtkValidationException
   */
  void append(RowData row) {
    int partition = recordsChecked ? validator.route(row) : validator.check(row);
    if (partition == RecordValidator.IGNORED) {
      return;
    }
    while (buffers.size() <= partition) {
      buffers.add(null);
    }
    PartitionBuffer buffer = buffers.get(partition);
    if (buffer == null) {
      buffer = new PartitionBuffer(validator.router().partition(partition), layout, budget);
      buffers.set(partition, buffer);
    }
    buffer.append(changes == null ? row : changes.of(row));
  }

  /** Gives back the blocks (to the pool) and arrays that buffers without rows keep for their next rows. */
  void releaseIdle() {
    for (PartitionBuffer buffer : buffers) {
      if (buffer != null && buffer.rows() == 0 && buffer.allocatedBytes() > 0) {
        buffer.release();
      }
    }
  }

  /** The buffers holding rows. */
  void collectNonEmpty(List<PartitionBuffer> into, List<DatasetWriter> owners) {
    for (PartitionBuffer buffer : buffers) {
      if (buffer != null && buffer.rows() > 0) {
        into.add(buffer);
        owners.add(this);
      }
    }
  }

  /**
   * Writes the buffer as a part file; returns it.
   *
   * @param keepArrays whether the buffer keeps its first blocks and its arrays for its next rows
   *     (at a checkpoint, when every buffer is written; further blocks go to the pool) or gives
   *     them all back (to free memory for the others)
   */
  DataFile flush(PartitionBuffer buffer, boolean keepArrays) throws IOException {
    PartitionLabel label = buffer.partition().label().withFileId(PartitionLabel.newFileId());
    if (pendingFiles.isEmpty()) {
      // Taken before the write: the batch's age is never underestimated against the store's clock.
      pendingSinceMillis = System.currentTimeMillis();
    }
    DataFile file = fileWriter.write(buffer, label);
    pendingFiles.add(file);
    for (IndexValues index : buffer.indices()) {
      Map<IndexValue, Set<String>> values = pendingIndex.computeIfAbsent(index.column(), c -> new LinkedHashMap<>());
      for (Object value : index.values()) {
        values.computeIfAbsent(IndexValue.of(value), v -> new LinkedHashSet<>()).add(file.label());
      }
    }
    if (keepArrays) {
      buffer.clear();
    } else {
      buffer.release();
    }
    return file;
  }

  /**
   * Writes every buffer and returns the batch of the files since the last call, if any.
   *
   * @param flushed called with each file written here
   */
  Optional<FileBatch> prepareCommit(String writerId, int maxRetainedPartitions, FileConsumer flushed)
      throws IOException {
    for (PartitionBuffer buffer : buffers) {
      if (buffer != null && buffer.rows() > 0) {
        flushed.accept(flush(buffer, true));
      }
    }
    if (validator.router().size() > maxRetainedPartitions) {
      for (PartitionBuffer buffer : buffers) {
        if (buffer != null) {
          buffer.release(); // its blocks go to the pool, and the budget stops counting its arrays
        }
      }
      validator.router().clear();
      buffers.clear();
    }
    if (pendingFiles.isEmpty()) {
      return Optional.empty();
    }
    Map<String, Map<IndexValue, List<String>>> index = new LinkedHashMap<>();
    pendingIndex.forEach((column, values) -> {
      Map<IndexValue, List<String>> labels = new LinkedHashMap<>();
      values.forEach((value, valueLabels) -> labels.put(value, List.copyOf(valueLabels)));
      index.put(column, labels);
    });
    FileBatch batch = new FileBatch(config.dataset(), writerId, -1, logicalSchema, config.partitionColumns(),
        indexColumns, pendingFiles, index, pendingSinceMillis);
    pendingFiles.clear();
    pendingIndex.clear();
    return Optional.of(batch);
  }

  /** Part files not handed on, to delete on close. */
  List<String> pendingKeys() {
    List<String> keys = pendingFiles.stream().map(file -> file.key(config.dataset())).toList();
    pendingFiles.clear();
    return keys;
  }

  @FunctionalInterface
  interface FileConsumer {
    void accept(DataFile file);
  }
}
