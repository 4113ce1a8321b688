package io.ktk.flink.source;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.enumerator.CubeEnumeratorState;
import io.ktk.flink.source.enumerator.CubeEnumeratorStateSerializer;
import io.ktk.flink.source.enumerator.CubeSplitEnumerator;
import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.PlannedFile;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.planner.TargetSnapshot;
import io.ktk.flink.source.query.QuerySettings;
import io.ktk.flink.source.query.QueryTarget;
import io.ktk.flink.source.query.StoreRefusals;
import io.ktk.flink.source.reader.CubeSourceReader;
import io.ktk.flink.source.reader.RecordFormat;
import io.ktk.flink.source.rowdata.RowDataFormat;
import io.ktk.flink.source.split.CubeSplit;
import io.ktk.flink.source.split.CubeSplitSerializer;
import io.ktk.flink.source.split.CubeSplits;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The Flink source (FLIP-27) of a query over a cube or a plain dataset (a cube of one dataset) at
 * pinned versions: what {@link KartothekSource} and {@link KartothekDatasetSource} are, and what the
 * SQL table source runs. One enumerator ({@link CubeSplitEnumerator}), one split type ({@link
 * CubeSplit}) and one reader ({@link CubeSourceReader}) serve both kinds of target; the records are
 * made from the result's column vectors by a {@link RecordFormat}.
 *
 * @param <T> the record type
 */
public class QuerySource<T> implements Source<T, CubeSplit, CubeEnumeratorState>, ResultTypeQueryable<T> {
  private static final long serialVersionUID = 1L;

  /**
   * What a source reads, checked and pinned by a builder on the client.
   *
   * @param settings the store, the target and the query
   * @param versions the pinned version of every dataset of the target, by dataset id
   * @param seedDatasetId the seed's id (a plain dataset's: its uuid)
   * @param continuous whether later commits are served too ({@link KartothekSourceOptions#CONTINUOUS})
   * @param discoveryInterval see {@link KartothekSourceOptions#DISCOVERY_INTERVAL}
   * @param maxPartitionsPerSplit see {@link KartothekSourceOptions#SPLIT_MAX_PARTITIONS}
   * @param limit at most this many rows are needed (a pushed-down {@code LIMIT}), -1 for all: each
   *     reader stops reading once it has emitted that many; bounded sources only
   * @param changelog whether the records are an upsert changelog ({@link KartothekSourceOptions#CHANGELOG}):
   *     discoveries serve {@code +U} and {@code -D} rows, and the splits of a partition all go to one reader
   * @param countsExact whether the logged row counts of the planned files are the rows the query
   *     returns (a plain dataset without a key, conditions on partition columns only): with a limit,
   *     only the first splits (in output order) that hold that many rows by those counts are planned
   */
  public record Setup(QuerySettings settings, Map<String, Long> versions, String seedDatasetId, boolean continuous,
      Duration discoveryInterval, int maxPartitionsPerSplit, long limit, boolean changelog, boolean countsExact)
      implements Serializable {
    private static final long serialVersionUID = 4L;

    public Setup {
      requireNonNull(settings, "settings is null");
      versions = new TreeMap<>(versions);
      requireNonNull(seedDatasetId, "seedDatasetId is null");
      requireNonNull(discoveryInterval, "discoveryInterval is null");
      if (limit < -1 || (continuous && limit >= 0)) {
        throw new IllegalArgumentException("Cannot limit a " + (continuous ? "continuous " : "") + "source to "
            + limit + " rows: give a count >= 0 for a bounded source, or -1 for all");
      }
    }

    /** Row counts not exact ({@code countsExact} false). */
    public Setup(QuerySettings settings, Map<String, Long> versions, String seedDatasetId, boolean continuous,
        Duration discoveryInterval, int maxPartitionsPerSplit, long limit, boolean changelog) {
      this(settings, versions, seedDatasetId, continuous, discoveryInterval, maxPartitionsPerSplit, limit, changelog,
          false);
    }

    /** Without a limit, not a changelog. */
    public Setup(QuerySettings settings, Map<String, Long> versions, String seedDatasetId, boolean continuous,
        Duration discoveryInterval, int maxPartitionsPerSplit) {
      this(settings, versions, seedDatasetId, continuous, discoveryInterval, maxPartitionsPerSplit, -1, false);
    }

    /** A bounded read of {@code snapshot}'s versions. */
    public static Setup bounded(QuerySettings settings, TargetSnapshot snapshot) {
      return bounded(settings, snapshot, -1);
    }

    /** A bounded read of {@code snapshot}'s versions of which at most {@code limit} rows are needed (-1: all). */
    public static Setup bounded(QuerySettings settings, TargetSnapshot snapshot, long limit) {
      return new Setup(settings, snapshot.versions(), snapshot.seedDatasetId(), false,
          KartothekSourceOptions.DISCOVERY_INTERVAL.defaultValue(),
          KartothekSourceOptions.SPLIT_MAX_PARTITIONS.defaultValue(), limit, false);
    }
  }

  private final Setup setup;
  private final RecordFormat<T> format;
  private final TypeInformation<T> type;

  /**
   * @param format how the rows become records
   * @param type the records' type
   */
  public QuerySource(Setup setup, RecordFormat<T> format, TypeInformation<T> type) {
    this.setup = requireNonNull(setup, "setup is null");
    this.format = requireNonNull(format, "format is null");
    this.type = requireNonNull(type, "type is null");
  }

  /** A source of {@link RowData} views of the decoded vectors of the query's output columns {@code output}. */
  static QuerySource<RowData> ofRowData(Setup setup, Schema output) {
    RowType type = RowDataFormat.rowType(output);
    return new QuerySource<>(setup, RowDataFormat.of(type), RowDataFormat.typeOf(type));
  }

  /** The dataset versions the source reads, by dataset id. */
  public NavigableMap<String, Long> versions() {
    return new TreeMap<>(setup.versions());
  }

  /** Whether the records are an upsert changelog ({@link KartothekSourceOptions#CHANGELOG}). */
  public boolean isChangelog() {
    return setup.changelog();
  }

  /** Whether the source serves later commits too. */
  public boolean isContinuous() {
    return setup.continuous();
  }

  @Override
  public Boundedness getBoundedness() {
    return setup.continuous() ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
  }

  @Override
  public SplitEnumerator<CubeSplit, CubeEnumeratorState> createEnumerator(SplitEnumeratorContext<CubeSplit> context)
      throws IOException {
    long seedVersion = setup.continuous() ? setup.versions().get(setup.seedDatasetId()) : -1;
    List<CubeSplit> splits;
    try {
      splits = splits(context.currentParallelism());
    } catch (IOException e) {
      throw StoreRefusals.failFastIfRefused(e); // a refused store: no restarts (the readers do the same)
    } catch (RuntimeException e) {
      throw StoreRefusals.failFastIfRefused(e);
    }
    return new CubeSplitEnumerator(context, new CubeEnumeratorState(splits, seedVersion, 0), discovery());
  }

  @Override
  public SplitEnumerator<CubeSplit, CubeEnumeratorState> restoreEnumerator(SplitEnumeratorContext<CubeSplit> context,
      CubeEnumeratorState state) {
    if (setup.continuous() && state.servedSeedVersion() < 0) {
      throw new IllegalStateException("Cannot restore a continuous source of " + setup.settings().target()
          + " from the state of a bounded one (it does not say which seed version was served)");
    }
    return new CubeSplitEnumerator(context, state, discovery());
  }

  private CubeSplitEnumerator.Discovery discovery() {
    return setup.continuous()
        ? new CubeSplitEnumerator.Discovery(setup.settings(), setup.discoveryInterval(), setup.maxPartitionsPerSplit(),
            setup.changelog())
        : null;
  }

  @Override
  public SourceReader<T, CubeSplit> createReader(SourceReaderContext context) {
    return new CubeSourceReader<>(setup.settings(), format, setup.limit(), setup.changelog(), new Configuration(),
        context);
  }

  @Override
  public SimpleVersionedSerializer<CubeSplit> getSplitSerializer() {
    return plainDataset() ? CubeSplitSerializer.PLAIN_DATASETS : CubeSplitSerializer.INSTANCE;
  }

  @Override
  public SimpleVersionedSerializer<CubeEnumeratorState> getEnumeratorCheckpointSerializer() {
    return plainDataset() ? CubeEnumeratorStateSerializer.PLAIN_DATASETS : CubeEnumeratorStateSerializer.INSTANCE;
  }

  /** A plain dataset's source restores what that source checkpointed before it read through the cube stack. */
  private boolean plainDataset() {
    return setup.settings().target().kind() == QueryTarget.Kind.DATASET;
  }

  @Override
  public TypeInformation<T> getProducedType() {
    return type;
  }

  /**
   * The splits of the query at the pinned versions, in output order: one per query group, or
   * several for a group of many partitions or when {@code readers} would otherwise idle, one per
   * file for a plain dataset without a key ({@link CubeSplits}); with a limit and exact row counts
   * ({@link Setup#countsExact}), without those after the first splits that hold that many rows.
   */
  List<CubeSplit> splits(int readers) throws IOException {
    List<CubeSplit> all;
    try (ObjectStore store = setup.settings().openStore()) {
      QueryPlan plan = TargetSnapshot.at(store, setup.settings().target(), setup.versions())
          .plan(setup.settings().query());
      all = CubeSplits.of(plan, "", setup.maxPartitionsPerSplit(), readers);
    }
    if (setup.limit() < 0 || !setup.countsExact()) {
      return all;
    }
    List<CubeSplit> splits = new ArrayList<>();
    long planned = 0;
    for (CubeSplit split : all) {
      if (planned >= setup.limit()) {
        break;
      }
      splits.add(split);
      for (GroupPartition partition : split.group().partitions()) {
        planned += partition.files().values().stream().flatMap(List::stream).mapToLong(PlannedFile::rows).sum();
      }
    }
    return splits;
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "{" + setup.settings() + ", versions=" + setup.versions()
        + (setup.continuous() ? ", continuous every " + setup.discoveryInterval() : "")
        + (setup.limit() >= 0 ? ", limit " + setup.limit() : "") + "}";
  }
}
