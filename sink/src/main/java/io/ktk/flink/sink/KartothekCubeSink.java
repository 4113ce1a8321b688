package io.ktk.flink.sink;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.sink.config.CubeSinkConfig;
import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.sink.maintenance.MaintenanceSettings;
import io.ktk.flink.state.KtkValidationException;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
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
 *
 * <p>This class is deliberately not a Flink {@code Sink}: {@code stream.sinkTo(...)} would skip
 * the tagging, the keying by cell and the validation. {@link #addTo} is the only way to add it.
 */
@PublicEvolving
public final class KartothekCubeSink {
  private final CubeSinkConfig config;

  private final MaintenanceSettings maintenance;

  KartothekCubeSink(CubeSinkConfig config, MaintenanceSettings maintenance) {
    this.config = requireNonNull(config, "config is null");
    this.maintenance = requireNonNull(maintenance, "maintenance is null");
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
    return add(byDatasetId, uid).valid().getSideOutput(RecordValidationFunction.REJECTED);
  }

  /**
   * For the SQL connector: adds the sink for one dataset's rows and returns the sink operator. Only
   * the FAIL policy is allowed there (the dead-letter stream is dropped).
   */
  @Internal
  public DataStreamSink<RowData> addForTable(String datasetId, DataStream<RowData> records, String uid) {
    if (config.datasets().get(0).validationPolicy() != ValidationPolicy.FAIL) {
      throw new KtkValidationException("Cannot add the sink of cube '" + config.cube() + "' to a table: only the "
          + "validation policy FAIL can be used without the dead-letter stream");
    }
    return add(Map.of(datasetId, records), uid).sink();
  }

  /** The operators {@link #add} made: the validation step (with the dead letters) and the sink. */
  private record Added(SingleOutputStreamOperator<RowData> valid, DataStreamSink<RowData> sink) {}

  private Added add(Map<String, DataStream<RowData>> byDatasetId, String uid) {
    if (!new TreeMap<>(byDatasetId).keySet().equals(new java.util.TreeSet<>(config.datasetIds()))) {
      throw new KtkValidationException("Cannot add the sink of cube '" + config.cube() + "': it writes datasets "
          + config.datasetIds() + " but streams are given for " + new TreeMap<>(byDatasetId).keySet());
    }
    InternalTypeInfo<RowData> unionType = InternalTypeInfo.of(config.unionType());
    DataStream<RowData> union = null;
    for (int d = 0; d < config.datasetIds().size(); d++) {
      String id = config.datasetIds().get(d);
      DataStream<RowData> input = byDatasetId.get(id);
      SingleOutputStreamOperator<RowData> tagged = input
          .map(new CubeRows.Tag(config, d), unionType)
          .name("Kartothek cube " + config.cube() + ": " + id);
      if (config.datasets().get(d).hasPrimaryKey()) {
        // Chained to the input (forward): a rebalance here would reorder the changes of a cell.
        tagged.setParallelism(input.getParallelism());
      }
      if (uid != null) {
        tagged.uid(uid + "-tag-" + id);
      }
      union = union == null ? tagged : union.union(tagged);
    }
    SingleOutputStreamOperator<RowData> valid = union
        .keyBy(new CubeRows.ByCell())
        .process(new CubeValidationFunction(config), unionType)
        .name("Kartothek validation: cube " + config.cube());
    DataStreamSink<RowData> sink = valid.sinkTo(new CubeUnionSink(config, maintenance, uid != null)).name("Kartothek: cube " + config.cube());
    if (uid != null) {
      valid.uid(uid + "-validation");
      sink.uid(uid);
    }
    return new Added(valid, sink);
  }

  @Override
  public String toString() {
    return "KartothekCubeSink{" + config.cube() + ", datasets=" + config.datasetIds() + "}";
  }
}
