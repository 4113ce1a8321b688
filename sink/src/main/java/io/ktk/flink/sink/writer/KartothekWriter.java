package io.ktk.flink.sink.writer;

import io.ktk.flink.sink.committable.FileBatch;
import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.StoreRefusedException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.function.Supplier;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.table.data.RowData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A writer subtask of the Kartothek sink: validates each record, routes it by its partition
 * values into that partition's columnar buffer, writes the largest buffers as Parquet part files
 * whenever the buffers together exceed the memory budget, and at every checkpoint (and at end of
 * input) writes all buffers and hands the files written since the last checkpoint to the
 * committer as one {@link FileBatch} per dataset.
 *
 * <p>One writer may write several datasets (the datasets of a cube): a {@link DatasetRouting}
 * says which dataset each record belongs to; each dataset has its own buffers and rules ({@link
 * DatasetWriter}), and all share the memory budget and the writer id.
 *
 * <p>At start it reads the datasets' committed states and fails the job, without restarts, when
 * the declared row type, partition columns or index columns do not fit them ({@link
 * DatasetContract}, and the cube's rules for a cube). A record that breaks a rule ({@link
 * RecordValidator}) fails the job the same way; the dead-letter policy filters such records out
 * before they reach the writer.
 *
 * <p>Part files are invisible until their batch is committed. Files of a failed attempt that
 * were not handed on are deleted on close where possible; what remains is unreferenced and
 * removed by garbage collection after its safety age.
 */
@Internal
public final class KartothekWriter
    implements StatefulSinkWriter<RowData, WriterState>, CommittingSinkWriter<RowData, FileBatch> {
  private static final Logger LOG = LoggerFactory.getLogger(KartothekWriter.class);
  /** Above this many partitions seen, routing starts afresh after a checkpoint to bound its memory. */
  private static final int MAX_RETAINED_PARTITIONS = 4096;
  private static final int MAX_RECORD_TEXT = 1000;

  /** Which dataset of the writer a record belongs to, and the record as that dataset declares it. */
  public interface DatasetRouting {
    /** The dataset's position in the writer's list. */
    int dataset(RowData record);

    /** The record as a row of the dataset's row type (may be a reused view). */
    RowData row(int dataset, RowData record);
  }

  /** Checks the sink against the committed states at start; returns each dataset's index columns in effect. */
  @FunctionalInterface
  public interface StartCheck {
    List<List<String>> indexColumns(ObjectStore store, List<DatasetState> committed) throws IOException;
  }

  private final ObjectStore store;
  private final String writerId;
  private final List<DatasetWriter> datasets = new ArrayList<>();
  private final DatasetRouting routing;
  private final MemoryBudget budget;
  private final WriterMetrics metrics;
  private final String name;
  private boolean endOfInput;

  /**
   * A writer of one dataset.
   *
   * @param recordsChecked a validation step in front of the writer checks every record with the
   *     dataset's rules, so the writer only routes them
   */
  public KartothekWriter(KartothekSinkConfig config, boolean recordsChecked, WriterInitContext context,
      Collection<WriterState> restored) throws IOException {
    this(List.of(config), (store, committed) -> List.of(DatasetContract.check(config, committed.get(0))),
        new DatasetRouting() {
          @Override
          public int dataset(RowData record) {
            return 0;
          }

          @Override
          public RowData row(int dataset, RowData record) {
            return record;
          }
        }, recordsChecked, context, restored);
  }

  /** A writer of several datasets that share one writer id, one budget and one commit per checkpoint. */
  public KartothekWriter(List<KartothekSinkConfig> configs, StartCheck check, DatasetRouting routing,
      boolean recordsChecked, WriterInitContext context, Collection<WriterState> restored) throws IOException {
    KartothekSinkConfig first = configs.get(0);
    this.routing = routing;
    this.name = configs.size() == 1 ? "dataset '" + first.dataset() + "'"
        : "datasets " + configs.stream().map(KartothekSinkConfig::dataset).toList();
    try {
      this.store = first.store().open();
    } catch (KtkValidationException e) {
      // a store URL or option that cannot work: a restart would fail the same way
      throw new SuppressRestartsException(e);
    }
    this.budget = new MemoryBudget(first.memoryBudgetBytes());
    List<List<String>> indexColumns;
    try {
      List<DatasetState> committed = new ArrayList<>();
      Map<String, Long> checkpoints = new HashMap<>();
      for (KartothekSinkConfig config : configs) {
        DatasetState state = new LogReader(store, config.dataset()).latestOrPublished();
        committed.add(state);
        state.checkpoints().forEach((id, checkpoint) -> checkpoints.merge(id, checkpoint, Math::max));
      }
      try {
        indexColumns = check.indexColumns(store, committed);
      } catch (KtkValidationException e) {
        throw new SuppressRestartsException(e);
      }
      this.writerId = writerId(name, checkpoints, restored, context.getRestoredCheckpointId(),
          () -> first.writerIdPrefix() + UUID.randomUUID());
    } catch (StoreRefusedException e) {
      store.close();
      throw new SuppressRestartsException(e);
    } catch (IOException | RuntimeException e) {
      store.close();
      throw e;
    }
    for (int d = 0; d < configs.size(); d++) {
      datasets.add(new DatasetWriter(configs.get(d), indexColumns.get(d), store, budget, recordsChecked));
    }
    this.metrics = new WriterMetrics(context.metricGroup(), budget::used);
    LOG.info("Writer {} of {} in {} starts (subtask {}, restored checkpoint {})", writerId, name, store.url(),
        context.getTaskInfo().getIndexOfThisSubtask(), context.getRestoredCheckpointId());
  }

  /**
   * The restored writer id (the smallest, when subtasks were merged), or a new one on a first
   * start. A restored id is replaced when the log holds a commit of it for a checkpoint after the
   * restored one: the job was restored from an older checkpoint or savepoint, and the same id
   * would make the log take its new checkpoints for replays of ones it has.
   *
   * @param committed per writer id, the highest checkpoint the log holds (over all datasets written)
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
      LOG.warn("{}: writer {} has committed checkpoint {}, but the job restored checkpoint {}; "
          + "continuing as writer {}", dataset, id, committedUpTo, restoredCheckpoint.getAsLong(), fresh);
      return fresh;
    }
    return id;
  }

  /** The id this writer's batches carry. */
  public String writerId() {
    return writerId;
  }

  @Override
  public void write(RowData record, Context context) throws IOException {
    metrics.recordIn();
    int d = routing.dataset(record);
    DatasetWriter dataset = datasets.get(d);
    RowData row = routing.row(d, record);
    try {
      dataset.append(row);
    } catch (KtkValidationException e) {
      metrics.recordRejected();
      throw rejected(dataset, e, row);
    }
    if (budget.exceeded()) {
      try {
        flushLargest();
      } catch (StoreRefusedException e) {
        throw new SuppressRestartsException(e); // a restart would be refused the same way
      }
    }
  }

  private RuntimeException rejected(DatasetWriter dataset, KtkValidationException e, RowData row) {
    String record = dataset.validator().render(row);
    if (record.length() > MAX_RECORD_TEXT) {
      record = record.substring(0, MAX_RECORD_TEXT) + "...";
    }
    String hint = dataset.config().validationPolicy() == ValidationPolicy.DEAD_LETTER
        ? "; the sink has the DEAD_LETTER policy but was not added with addTo(stream), which sends"
            + " such records to the dead-letter stream"
        : "";
    String message = e.getMessage() + " (record " + record + ")" + hint;
    return new SuppressRestartsException(new KtkValidationException(message, e));
  }

  /**
   * Gives back the blocks and arrays that empty buffers keep since the last checkpoint, and
   * pooled blocks to the heap; if that is not enough, writes the largest buffers as part files
   * (their blocks go to the pool for the next rows) until a quarter of the budget is free again,
   * so that with many partitions one search for the largest serves several files.
   */
  private void flushLargest() throws IOException {
    for (DatasetWriter dataset : datasets) {
      dataset.releaseIdle();
    }
    budget.blocks().trim();
    if (!budget.exceeded()) {
      return;
    }
    List<PartitionBuffer> bySize = new ArrayList<>();
    List<DatasetWriter> owners = new ArrayList<>();
    for (DatasetWriter dataset : datasets) {
      dataset.collectNonEmpty(bySize, owners);
    }
    Map<PartitionBuffer, DatasetWriter> owner = new IdentityHashMap<>();
    for (int i = 0; i < bySize.size(); i++) {
      owner.put(bySize.get(i), owners.get(i));
    }
    bySize.sort(Comparator.comparingLong(PartitionBuffer::allocatedBytes).reversed());
    long target = budget.limit() - budget.limit() / 4;
    for (PartitionBuffer buffer : bySize) {
      if (budget.buffered() <= target) {
        break;
      }
      DatasetWriter dataset = owner.get(buffer);
      LOG.debug("Dataset '{}': {} bytes buffered (budget {}), writing partition '{}' of {} bytes",
          dataset.config().dataset(), budget.used(), budget.limit(), buffer.partition().path(),
          buffer.allocatedBytes());
      DataFile file = dataset.flush(buffer, false);
      metrics.fileWritten(file.rows(), file.bytes());
    }
    budget.blocks().trim(); // the pool keeps what the budget allows: the room for the next rows
  }

  @Override
  public void flush(boolean endOfInput) {
    // Buffers become files in prepareCommit, which follows every flush.
    this.endOfInput |= endOfInput;
  }

  @Override
  public Collection<FileBatch> prepareCommit() throws IOException {
    List<FileBatch> batches = new ArrayList<>();
    for (DatasetWriter dataset : datasets) {
      try {
        dataset.prepareCommit(writerId, MAX_RETAINED_PARTITIONS, file -> metrics.fileWritten(file.rows(), file.bytes()))
            .ifPresent(batch -> {
              LOG.debug("Dataset '{}': writer {} hands on {}", batch.dataset(), writerId, batch);
              batches.add(batch);
            });
      } catch (StoreRefusedException e) {
        throw new SuppressRestartsException(e);
      }
      if (endOfInput) {
        dataset.releaseIdle(); // no rows will come for the blocks and arrays the buffers keep
      }
    }
    if (endOfInput) {
      budget.blocks().clear();
    }
    return batches;
  }

  @Override
  public List<WriterState> snapshotState(long checkpointId) {
    return List.of(new WriterState(writerId));
  }

  @Override
  public void close() throws IOException {
    try {
      for (DatasetWriter dataset : datasets) {
        for (String key : dataset.pendingKeys()) {
          try {
            store.delete(key);
          } catch (IOException | RuntimeException e) {
            LOG.warn("Cannot delete the uncommitted part file {}; garbage collection will", key, e);
          }
        }
      }
    } finally {
      store.close();
    }
  }
}
