package io.ktk.flink.sink;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.sink.committable.FileBatch;
import io.ktk.flink.sink.committable.FileBatchSerializer;
import io.ktk.flink.sink.committer.FileBatchAggregator;
import io.ktk.flink.sink.committer.KartothekCommitter;
import io.ktk.flink.sink.config.CubeSinkConfig;
import io.ktk.flink.sink.maintenance.MaintenanceSettings;
import io.ktk.flink.sink.writer.CubeContract;
import io.ktk.flink.sink.writer.KartothekWriter;
import io.ktk.flink.sink.writer.WriterState;
import io.ktk.flink.sink.writer.WriterStateSerializer;
import java.io.IOException;
import java.util.Collection;
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
 * The Sink V2 behind {@link KartothekCubeSink#addTo}: it takes the tagged, keyed and validated
 * rows of {@link CubeSinkConfig#unionType()}, never a dataset's own rows, which is why it is not
 * public.
 */
@Internal
final class CubeUnionSink
    implements Sink<RowData>,
        SupportsWriterState<RowData, WriterState>,
        SupportsCommitter<FileBatch>,
        SupportsPreCommitTopology<FileBatch, FileBatch> {
  private static final long serialVersionUID = 1L;

  private final CubeSinkConfig config;
  /** Whether the sink is given a uid, so that its aggregator gets one derived from it. */
  private final boolean hasUid;
  private final MaintenanceSettings maintenance;

  CubeUnionSink(CubeSinkConfig config, MaintenanceSettings maintenance, boolean hasUid) {
    this.config = requireNonNull(config, "config is null");
    this.maintenance = requireNonNull(maintenance, "maintenance is null");
    this.hasUid = hasUid;
  }

  @Override
  public StatefulSinkWriter<RowData, WriterState> createWriter(WriterInitContext context) throws IOException {
    return restoreWriter(context, List.of());
  }

  @Override
  public StatefulSinkWriter<RowData, WriterState> restoreWriter(WriterInitContext context,
      Collection<WriterState> recoveredState) throws IOException {
    return new KartothekWriter(config.datasets(),
        (store, committed) -> CubeContract.check(config.spec(), config.datasetIds(), config.datasets(), store,
            committed),
        new CubeRows.Routing(config), true, context, recoveredState); // CubeValidationFunction checked them
  }

  @Override
  public SimpleVersionedSerializer<WriterState> getWriterStateSerializer() {
    return new WriterStateSerializer();
  }

  @Override
  public Committer<FileBatch> createCommitter(CommitterInitContext context) {
    return new KartothekCommitter(config.datasets(), config.spec(), context.metricGroup(), maintenance);
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
    return FileBatchAggregator.behind(committables, "cube " + config.cube(), hasUid);
  }

  @Override
  public String toString() {
    return "CubeUnionSink{" + config.cube() + ", datasets=" + config.datasetIds() + "}";
  }
}
