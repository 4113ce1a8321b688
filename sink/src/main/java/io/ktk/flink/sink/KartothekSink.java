package io.ktk.flink.sink;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.sink.committable.FileBatch;
import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.sink.maintenance.MaintenanceSettings;
import io.ktk.flink.sink.writer.KartothekWriter;
import io.ktk.flink.sink.writer.WriterState;
import io.ktk.flink.state.metadata.CubeSpec;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreWriteTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * A Flink sink that writes {@link RowData} records into a Kartothek dataset (the plateau format)
 * on S3 or a local directory, exactly once: each completed checkpoint becomes one version of the
 * dataset's commit log, and the plateau view that Python readers use is published after it.
 *
 * <pre>
 *                            (validation: DEAD_LETTER policy, {@link #addTo})
 *   records ──► [validate] ──────────────────────────────────────────► rejected records
 *        │
 *        ▼
 *   ┌────────────┐  FileBatch per      ┌────────────────────┐ FileBatch per ┌────────────────┐
 *   │  writer 1  │  subtask and        │                    │ checkpoint    │                │
 *   │  writer 2  ├────────────────────►│     aggregator     ├──────────────►│   committer    │
 *   │  ...       │  checkpoint         │  (parallelism 1)   │               │  (subtask 0)   │
 *   │  writer n  │                     │                    │               │                │
 *   └────────────┘                     └────────────────────┘               └───────┬────────┘
 *    buffers per partition,            one batch per checkpoint               commit log:
 *    Parquet part files                (the writers' batches combined)        one version per
 *    (invisible until committed)                                              checkpoint, then
 *                                                                             the plateau view
 * </pre>
 *
 * <h2>Lifecycle of a part file</h2>
 *
 * <ol>
 *   <li><b>Buffered.</b> A writer routes each record by its partition values into that
 *       partition's columnar buffer (primitive arrays per column).
 *   <li><b>Written.</b> When the buffers of a writer subtask together exceed the memory budget,
 *       the largest are written (until a quarter of the budget is free), each as a Parquet
 *       file {@code <uuid>/table/<partition>/<32 hex>.parquet}
 *       (partition columns left out, timestamps in microseconds, a column without values typed
 *       null). At every checkpoint barrier, and at end of input, every buffer is written so. The
 *       file exists but no reader sees it: nothing references it.
 *   <li><b>Pending.</b> The files a subtask wrote since the last barrier travel as one {@link
 *       FileBatch} (labels, rows, bytes, physical schemas, index deltas) to the aggregator, which
 *       combines the batches of all subtasks into the batch of the checkpoint; the committer
 *       keeps it in its state.
 *   <li><b>Committed.</b> When the checkpoint completes, the committer claims the next version
 *       of the log with that batch (append, or replace of the partitions it writes) and then
 *       publishes the plateau view: readers see all files of the checkpoint at once.
 * </ol>
 *
 * <h2>On restore</h2>
 *
 * Records after the restored checkpoint are replayed; files written for them before the failure
 * are never committed (a writer deletes the ones it still holds when it closes; the rest are
 * garbage to collect). The committer commits the batches in its restored state: each carries a
 * writer id and its checkpoint id, so a batch whose commit landed before the failure is
 * acknowledged instead of committed twice. Writer ids are generated once per writer subtask and
 * kept in Flink state; a job restored from a checkpoint older than one it has committed continues
 * with new ids. At end of input the last batch is committed by the final checkpoint (STREAMING)
 * or at the end of the job (BATCH, or STREAMING without checkpoints); writer subtasks that finish
 * at different checkpoints each have their last batch committed with the next checkpoint.
 *
 * <h2>With a primary key</h2>
 *
 * A sink built with {@link KartothekSinkBuilder#primaryKey} takes a changelog ({@code docs/cdc.md}):
 * the stream is keyed by the hash of the key in front of the writers (its pre-write topology, so
 * also behind {@code stream.sinkTo(sink)}), so the changes of a key are written in the order one
 * upstream subtask sends them (all changes of a key must come from one subtask, in order, as for
 * any upsert sink; the validation step of {@link #addTo} runs at the input's parallelism), each {@code +I}, {@code +U} and {@code -D} becomes a
 * row of the checkpoint's part file of its partition, in arrival order, with the column {@code
 * __ktk_deleted}, and {@code -U} rows are dropped. The first commit stores the key in the dataset's
 * metadata.
 *
 * <p>Use {@link #addTo} to add the sink (with a validation step that routes rejected records to
 * a dead-letter stream), or {@code stream.sinkTo(sink)} when the policy is FAIL.
 */
@PublicEvolving
public final class KartothekSink extends FileBatchSink implements SupportsPreWriteTopology<RowData> {
  private static final long serialVersionUID = 1L;

  private final KartothekSinkConfig config;
  /** Whether the validation step of {@link #addTo} checks every record in front of the writers. */
  private final boolean recordsChecked;

  KartothekSink(KartothekSinkConfig config, MaintenanceSettings maintenance) {
    this(config, maintenance, false, false);
  }

  private KartothekSink(KartothekSinkConfig config, MaintenanceSettings maintenance, boolean recordsChecked,
      boolean hasUid) {
    super(maintenance, hasUid);
    this.config = requireNonNull(config, "config is null");
    this.recordsChecked = recordsChecked;
  }

  /** A builder of a sink for records of {@code rowType}. */
  public static KartothekSinkBuilder forRowData(RowType rowType) {
    return new KartothekSinkBuilder(rowType);
  }

  public KartothekSinkConfig config() {
    return config;
  }

  /**
   * Adds the sink behind a validation step and returns the dead-letter stream: records the
   * dataset refuses, each with its reason. With policy FAIL the first refused record fails the
   * job and the stream stays empty.
   */
  public DataStream<RejectedRecord> addTo(DataStream<RowData> records) {
    return addTo(records, null);
  }

  /**
   * As {@link #addTo(DataStream)}, with stable operator uids derived from {@code uid} (needed to
   * restore the writer ids from a savepoint after the job graph changed).
   */
  public DataStream<RejectedRecord> addTo(DataStream<RowData> records, String uid) {
    SingleOutputStreamOperator<RowData> valid = records
        .process(new RecordValidationFunction(config), records.getType())
        .name("Kartothek validation: " + config.dataset());
    if (config.hasPrimaryKey()) {
      // Chained to the input (forward): a rebalance here would reorder the changes of a key.
      valid.setParallelism(records.getParallelism());
    }
    // The validation step checked every record, so this sink's writers only route them.
    DataStreamSink<RowData> sink = valid.sinkTo(new KartothekSink(config, maintenance(), true, uid != null)).name("Kartothek: " + config.dataset());
    if (uid != null) {
      valid.uid(uid + "-validation");
      sink.uid(uid);
    }
    return valid.getSideOutput(RecordValidationFunction.REJECTED);
  }

  @Override
  public StatefulSinkWriter<RowData, WriterState> restoreWriter(WriterInitContext context,
      Collection<WriterState> recoveredState) throws IOException {
    return new KartothekWriter(config, recordsChecked, context, recoveredState);
  }

  @Override
  List<KartothekSinkConfig> committedDatasets() {
    return List.of(config);
  }

  @Override
  CubeSpec cube() {
    return null;
  }

  @Override
  String aggregatorName() {
    return config.dataset();
  }

  /**
   * With a primary key, keys the records by its hash, so that all changes of a key reach one writer
   * subtask in the order they were sent; without one, the records go to the writers as they come.
   */
  @Override
  public DataStream<RowData> addPreWriteTopology(DataStream<RowData> records) {
    if (!config.hasPrimaryKey()) {
      return records;
    }
    return records.keyBy(new PrimaryKeyHash(config));
  }

  @Override
  public String toString() {
    return "KartothekSink{" + config + "}";
  }
}
