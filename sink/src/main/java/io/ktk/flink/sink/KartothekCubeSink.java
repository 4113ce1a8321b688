package io.ktk.flink.sink;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.sink.committable.FileBatch;
import io.ktk.flink.sink.committable.FileBatchSerializer;
import io.ktk.flink.sink.committer.FileBatchAggregator;
import io.ktk.flink.sink.committer.KartothekCommitter;
import io.ktk.flink.sink.config.CubeSinkConfig;
import io.ktk.flink.sink.writer.CubeContract;
import io.ktk.flink.sink.writer.KartothekWriter;
import io.ktk.flink.sink.writer.WriterState;
import io.ktk.flink.sink.writer.WriterStateSerializer;
import io.ktk.flink.state.KtkValidationException;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.PublicEvolving;
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
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * A Flink sink that writes several datasets of one Kartothek cube ({@code <cube>++<dataset id>})
 * exactly once, and makes each checkpoint of all of them visible together.
 *
 * <pre>
 *  seed records ──► [tag] ─┐
 *  weather rec. ──► [tag] ─┼─► keyBy(cell hash) ─► [validate: rules, duplicate cells] ─► writer 1..n
 *  ...                     ┘                           │ rejected records                   │ one FileBatch
 *                                                      ▼                                    ▼ per dataset
 *                                               dead-letter stream           aggregator (parallelism 1)
 *                                                                                           │
 *                                                      committer (subtask 0): per checkpoint, each dataset's
 *                                                      batch as one version of its log (marked as part of the
 *                                                      cube transaction), then the cube log record, then the
 *                                                      plateau views
 * </pre>
 *
 * <ul>
 *   <li><b>One sink for all datasets.</b> Each record is tagged with its dataset ({@link
 *       CubeSinkConfig#unionType()}), the datasets' streams are united and go through one writer
 *       operator, one aggregator and one committer, so one checkpoint's files of all datasets
 *       reach one committer call.
 *   <li><b>Cells.</b> The united stream is keyed by the hash of each record's cell (partition and
 *       dimension values), so all records of one cell of one dataset meet in one subtask; there
 *       the second of two records with the same cell in one checkpoint is refused ({@link
 *       CubeValidationFunction}). Null partition, dimension or index values are refused too.
 *   <li><b>Visible together.</b> Every dataset keeps its own commit log; the committer marks each
 *       dataset's version as part of the checkpoint's cube transaction and records the transaction
 *       in the cube log once all are committed ({@link io.ktk.flink.state.commit.CubeCommitLog}).
 *       Cube readers ({@link io.ktk.flink.state.commit.CubeVersions}) ignore marked versions not yet
 *       recorded. After a crash between two dataset commits the restored committer commits the
 *       rest of the transaction (the committed ones acknowledge theirs) and records it.
 *   <li><b>Kartothek.</b> Each dataset gets the cube's metadata keys ({@code ktk_cube_*}), the
 *       seed a secondary index on each dimension column not suppressed; datasets stay readable by
 *       Kartothek 5.3's cube functions.
 * </ul>
 */
@PublicEvolving
public final class KartothekCubeSink
    implements Sink<RowData>,
        SupportsWriterState<RowData, WriterState>,
        SupportsCommitter<FileBatch>,
        SupportsPreCommitTopology<FileBatch, FileBatch> {
  private static final long serialVersionUID = 1L;

  private final CubeSinkConfig config;
  /** Whether {@link #addTo} gives the sink a uid, so that its aggregator gets one derived from it. */
  private final boolean hasUid;

  KartothekCubeSink(CubeSinkConfig config) {
    this(config, false);
  }

  private KartothekCubeSink(CubeSinkConfig config, boolean hasUid) {
    this.config = requireNonNull(config, "config is null");
    this.hasUid = hasUid;
  }

  /** A builder of a sink of cube {@code cube}. */
  public static KartothekCubeSinkBuilder forCube(String cube) {
    return new KartothekCubeSinkBuilder(cube);
  }

  public CubeSinkConfig config() {
    return config;
  }

  /**
   * Adds the sink for the datasets' streams, by dataset id (every dataset of the builder, no
   * other), and returns the dead-letter stream: records refused, each with its reason. With policy
   * FAIL the first refused record fails the job and the stream stays empty.
   */
  public DataStream<RejectedRecord> addTo(Map<String, DataStream<RowData>> byDatasetId) {
    return addTo(byDatasetId, null);
  }

  /** The one-dataset shortcut of {@link #addTo(Map)}. */
  public DataStream<RejectedRecord> addTo(String datasetId, DataStream<RowData> records) {
    return addTo(Map.of(datasetId, records), null);
  }

  /** As {@link #addTo(Map)}, with stable operator uids derived from {@code uid}. */
  public DataStream<RejectedRecord> addTo(Map<String, DataStream<RowData>> byDatasetId, String uid) {
    if (!new TreeMap<>(byDatasetId).keySet().equals(new java.util.TreeSet<>(config.datasetIds()))) {
      throw new KtkValidationException("Cannot add the sink of cube '" + config.cube() + "': it writes datasets "
          + config.datasetIds() + " but streams are given for " + new TreeMap<>(byDatasetId).keySet());
    }
    InternalTypeInfo<RowData> unionType = InternalTypeInfo.of(config.unionType());
    DataStream<RowData> union = null;
    for (int d = 0; d < config.datasetIds().size(); d++) {
      String id = config.datasetIds().get(d);
      SingleOutputStreamOperator<RowData> tagged = byDatasetId.get(id)
          .map(new CubeRows.Tag(config, d), unionType)
          .name("Kartothek cube " + config.cube() + ": " + id);
      if (uid != null) {
        tagged.uid(uid + "-tag-" + id);
      }
      union = union == null ? tagged : union.union(tagged);
    }
    SingleOutputStreamOperator<RowData> valid = union
        .keyBy(new CubeRows.ByCell())
        .process(new CubeValidationFunction(config), unionType)
        .name("Kartothek validation: cube " + config.cube());
    DataStreamSink<RowData> sink = valid.sinkTo(uid == null ? this : new KartothekCubeSink(config, true))
        .name("Kartothek: cube " + config.cube());
    if (uid != null) {
      valid.uid(uid + "-validation");
      sink.uid(uid);
    }
    return valid.getSideOutput(RecordValidationFunction.REJECTED);
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
    return new KartothekCommitter(config.datasets(), config.spec(), context.metricGroup());
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
    return "KartothekCubeSink{" + config.cube() + ", datasets=" + config.datasetIds() + "}";
  }
}
