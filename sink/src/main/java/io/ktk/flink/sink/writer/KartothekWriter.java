package io.ktk.flink.sink.writer;

import io.ktk.flink.sink.KartothekSinkConfig;
import io.ktk.flink.sink.ValidationPolicy;
import io.ktk.flink.sink.committer.FileBatch;
import io.ktk.flink.state.ValidationException;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A writer subtask of the Kartothek sink: validates each record, routes it by its partition
 * values into that partition's columnar buffer, writes the largest buffers as Parquet part files
 * whenever the buffers together exceed the memory budget, and at every checkpoint (and at end of
 * input) writes all buffers and hands the files written since the last checkpoint to the
 * committer as one {@link FileBatch}.
 *
 * <p>At start it reads the dataset's committed state and fails the job, without restarts, when
 * the declared row type, partition columns or index columns do not fit it ({@link
 * DatasetContract}). A record that breaks a rule ({@link RecordValidator}) fails the job the same
 * way; the dead-letter policy filters such records out before they reach the writer.
 *
 * <p>Part files are invisible until their batch is committed. Files of a failed attempt that
 * were not handed on are deleted on close where possible; what remains is unreferenced and
 * removed by garbage collection after its safety age.
 */
public final class KartothekWriter
    implements StatefulSinkWriter<RowData, WriterState>, CommittingSinkWriter<RowData, FileBatch> {
  private static final Logger LOG = LoggerFactory.getLogger(KartothekWriter.class);
  /** Above this many partitions seen, routing starts afresh after a checkpoint to bound its memory. */
  private static final int MAX_RETAINED_PARTITIONS = 4096;
  private static final int MAX_RECORD_TEXT = 1000;

  private final KartothekSinkConfig config;
  private final ObjectStore store;
  private final String writerId;
  private final List<String> indexColumns;
  private final RecordValidator validator;
  private final DataColumns layout;
  private final MemoryBudget budget;
  private final PartFileWriter fileWriter;
  private final Schema logicalSchema;
  private final List<PartitionBuffer> buffers = new ArrayList<>();
  private final List<DataFile> pendingFiles = new ArrayList<>();
  private final Map<String, Map<Object, Set<String>>> pendingIndex = new LinkedHashMap<>();
  private final WriterMetrics metrics;

  public KartothekWriter(KartothekSinkConfig config, WriterInitContext context, Collection<WriterState> restored)
      throws IOException {
    this.config = config;
    this.store = config.store().open();
    try {
      DatasetState committed = new LogReader(store, config.dataset()).latestOrPublished();
      try {
        this.indexColumns = DatasetContract.check(config, committed);
      } catch (ValidationException e) {
        throw new SuppressRestartsException(e);
      }
      this.writerId = writerId(config.dataset(), committed.checkpoints(), restored, context.getRestoredCheckpointId(),
          () -> UUID.randomUUID().toString());
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
    this.validator = new RecordValidator(config, indexColumns);
    this.layout = layout(config, indexColumns);
    this.logicalSchema = config.declaredSchema();
    this.budget = new MemoryBudget(config.memoryBudgetBytes());
    ParquetWriteOptions options = ParquetWriteOptions.defaults()
        .withCompression(config.compression().codec())
        .withRowGroupSizeBytes(config.rowGroupSizeBytes());
    this.fileWriter = new PartFileWriter(store, config.dataset(), new Schema(layout.fields()), options);
    this.metrics = new WriterMetrics(context.metricGroup(), budget::used);
    LOG.info("Writer {} of dataset '{}' in {} starts (subtask {}, restored checkpoint {})", writerId,
        config.dataset(), store.url(), context.getTaskInfo().getIndexOfThisSubtask(),
        context.getRestoredCheckpointId());
  }

  /**
   * The restored writer id (the smallest, when subtasks were merged), or a new one on a first
   * start. A restored id is replaced when the log holds a commit of it for a checkpoint after the
   * restored one: the job was restored from an older checkpoint or savepoint, and the same id
   * would make the log take its new checkpoints for replays of ones it has.
   *
   * @param committed per writer id, the highest checkpoint the log holds
   */
  static String writerId(String dataset, Map<String, Long> committed, Collection<WriterState> restored,
      OptionalLong restoredCheckpoint, Supplier<String> newId) {
    String id = restored.stream().map(WriterState::writerId).min(Comparator.naturalOrder()).orElse(null);
    if (id == null) {
      return newId.get();
    }
    Long committedUpTo = committed.get(id);
    if (committedUpTo != null && restoredCheckpoint.isPresent() && committedUpTo > restoredCheckpoint.getAsLong()) {
      String fresh = newId.get();
      LOG.warn("Dataset '{}': writer {} has committed checkpoint {}, but the job restored checkpoint {}; "
          + "continuing as writer {}", dataset, id, committedUpTo, restoredCheckpoint.getAsLong(), fresh);
      return fresh;
    }
    return id;
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
    return new DataColumns(config.dataset(), config.rowType(), positions.stream().mapToInt(Integer::intValue).toArray(),
        types, fields, indexColumns.stream().mapToInt(config::position).toArray());
  }

  /** The id this writer's batches carry. */
  public String writerId() {
    return writerId;
  }

  @Override
  public void write(RowData row, Context context) throws IOException {
    metrics.recordIn();
    int partition;
    try {
      partition = validator.check(row);
    } catch (ValidationException e) {
      metrics.recordRejected();
      throw rejected(e, row);
    }
    while (buffers.size() <= partition) {
      buffers.add(null);
    }
    PartitionBuffer buffer = buffers.get(partition);
    if (buffer == null) {
      buffer = new PartitionBuffer(validator.router().partition(partition), layout, budget);
      buffers.set(partition, buffer);
    }
    buffer.append(row);
    if (budget.exceeded()) {
      flushLargest();
    }
  }

  private RuntimeException rejected(ValidationException e, RowData row) {
    String record = validator.render(row);
    if (record.length() > MAX_RECORD_TEXT) {
      record = record.substring(0, MAX_RECORD_TEXT) + "...";
    }
    String hint = config.validationPolicy() == ValidationPolicy.DEAD_LETTER
        ? "; the sink has the DEAD_LETTER policy but was not added with KartothekSink.addTo(stream), which sends"
            + " such records to the dead-letter stream"
        : "";
    String message = e.getMessage() + " (record " + record + ")" + hint;
    return new SuppressRestartsException(new ValidationException(message, e));
  }

  /**
   * Writes the largest buffers as part files until a quarter of the budget is free again, so that
   * with many partitions one search for the largest serves several files.
   */
  private void flushLargest() throws IOException {
    List<PartitionBuffer> bySize = new ArrayList<>();
    for (PartitionBuffer buffer : buffers) {
      if (buffer != null && buffer.rows() > 0) {
        bySize.add(buffer);
      }
    }
    bySize.sort(Comparator.comparingLong(PartitionBuffer::allocatedBytes).reversed());
    long target = budget.limit() - budget.limit() / 4;
    for (PartitionBuffer buffer : bySize) {
      if (budget.used() <= target) {
        return;
      }
      LOG.debug("Dataset '{}': {} bytes buffered (budget {}), writing partition '{}' of {} bytes", config.dataset(),
          budget.used(), budget.limit(), buffer.partition().path(), buffer.allocatedBytes());
      flush(buffer);
    }
  }

  private void flush(PartitionBuffer buffer) throws IOException {
    PartitionLabel label = buffer.partition().label().withFileId(PartitionLabel.newFileId());
    DataFile file = fileWriter.write(buffer, label);
    pendingFiles.add(file);
    for (IndexValues index : buffer.indices()) {
      Map<Object, Set<String>> values = pendingIndex.computeIfAbsent(index.column(), c -> new LinkedHashMap<>());
      for (Object value : index.values()) {
        values.computeIfAbsent(FileBatch.mapKey(value), v -> new LinkedHashSet<>()).add(file.label());
      }
    }
    metrics.fileWritten(file.rows(), file.bytes());
    buffer.release();
  }

  @Override
  public void flush(boolean endOfInput) {
    // Buffers become files in prepareCommit, which follows every flush.
  }

  @Override
  public Collection<FileBatch> prepareCommit() throws IOException {
    for (PartitionBuffer buffer : buffers) {
      if (buffer != null && buffer.rows() > 0) {
        flush(buffer);
      }
    }
    if (validator.router().size() > MAX_RETAINED_PARTITIONS) {
      validator.router().clear();
      buffers.clear();
    }
    if (pendingFiles.isEmpty()) {
      return List.of();
    }
    Map<String, Map<Object, List<String>>> index = new LinkedHashMap<>();
    pendingIndex.forEach((column, values) -> {
      Map<Object, List<String>> labels = new LinkedHashMap<>();
      values.forEach((value, valueLabels) -> labels.put(FileBatch.fromMapKey(value), List.copyOf(valueLabels)));
      index.put(column, labels);
    });
    FileBatch batch = new FileBatch(config.dataset(), writerId, -1, logicalSchema, config.partitionColumns(),
        indexColumns, pendingFiles, index);
    pendingFiles.clear();
    pendingIndex.clear();
    LOG.debug("Dataset '{}': writer {} hands on {}", config.dataset(), writerId, batch);
    return List.of(batch);
  }

  @Override
  public List<WriterState> snapshotState(long checkpointId) {
    return List.of(new WriterState(writerId));
  }

  @Override
  public void close() throws IOException {
    try {
      for (DataFile file : pendingFiles) {
        try {
          store.delete(file.key(config.dataset()));
        } catch (IOException | RuntimeException e) {
          LOG.warn("Cannot delete the uncommitted part file {}; garbage collection will", file.key(config.dataset()),
              e);
        }
      }
      pendingFiles.clear();
    } finally {
      store.close();
    }
  }
}
