package io.ktk.flink.sink;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.sink.committable.FileBatch;
import io.ktk.flink.sink.committable.FileBatchSerializer;
import io.ktk.flink.sink.committer.FileBatchAggregator;
import io.ktk.flink.sink.committer.KartothekCommitter;
import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.sink.maintenance.MaintenanceSettings;
import io.ktk.flink.sink.writer.WriterState;
import io.ktk.flink.sink.writer.WriterStateSerializer;
import io.ktk.flink.state.metadata.CubeSpec;
import java.io.IOException;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;

/**
 * The Sink V2 plumbing the dataset sink ({@link KartothekSink}) and the cube sink's union sink
 * ({@link CubeUnionSink}) share: writers with a writer id as state, {@link FileBatch} committables,
 * the aggregator that gathers a checkpoint's batches in front of one committer, and that committer
 * (with maintenance). They differ in the writer they create and in the datasets they commit.
 */
@Internal
abstract class FileBatchSink
    implements Sink<RowData>,
        SupportsWriterState<RowData, WriterState>,
        SupportsCommitter<FileBatch>,
        SupportsPreCommitTopology<FileBatch, FileBatch> {
  private static final long serialVersionUID = 1L;

  private final MaintenanceSettings maintenance;
  /** Whether the sink is given a uid, so that its aggregator gets one derived from it. */
  private final boolean hasUid;

  FileBatchSink(MaintenanceSettings maintenance, boolean hasUid) {
    this.maintenance = requireNonNull(maintenance, "maintenance is null");
    this.hasUid = hasUid;
  }

  /** The datasets the committer commits, one version each per checkpoint. */
  abstract List<KartothekSinkConfig> committedDatasets();

  /** The cube whose transactions the committer records, or null for a plain dataset. */
  abstract CubeSpec cube();

  /** The name of the aggregator's operator: what the sink writes. */
  abstract String aggregatorName();

  MaintenanceSettings maintenance() {
    return maintenance;
  }

  boolean hasUid() {
    return hasUid;
  }

  @Override
  public StatefulSinkWriter<RowData, WriterState> createWriter(WriterInitContext context) throws IOException {
    return restoreWriter(context, List.of());
  }

  @Override
  public SimpleVersionedSerializer<WriterState> getWriterStateSerializer() {
    return new WriterStateSerializer();
  }

  @Override
  public Committer<FileBatch> createCommitter(CommitterInitContext context) {
    return new KartothekCommitter(committedDatasets(), cube(), context.metricGroup(), maintenance);
  }

  @Override
  public SimpleVersionedSerializer<FileBatch> getCommittableSerializer() {
    return new FileBatchSerializer();
  }

  @Override
  public SimpleVersionedSerializer<FileBatch> getWriteResultSerializer() {
    return new FileBatchSerializer();
  }

  /** The aggregator at parallelism 1, then committer subtask 0 ({@link FileBatchAggregator#behind}). */
  @Override
  public DataStream<CommittableMessage<FileBatch>> addPreCommitTopology(
      DataStream<CommittableMessage<FileBatch>> committables) {
    return FileBatchAggregator.behind(committables, aggregatorName(), hasUid);
  }
}
