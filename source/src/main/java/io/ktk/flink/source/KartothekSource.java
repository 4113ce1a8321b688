package io.ktk.flink.source;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.enumerator.CubeEnumeratorState;
import io.ktk.flink.source.enumerator.CubeEnumeratorStateSerializer;
import io.ktk.flink.source.enumerator.CubeSplitEnumerator;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.QuerySettings;
import io.ktk.flink.source.reader.CubeSourceReader;
import io.ktk.flink.source.split.CubeSplit;
import io.ktk.flink.source.split.CubeSplitSerializer;
import io.ktk.flink.source.split.CubeSplits;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.types.Row;

/**
 * A Flink source (FLIP-27) of a Kartothek cube query: the rows that {@link
 * io.ktk.flink.source.engine.CubeReader} returns in-process, as {@link Row}s; bounded by default,
 * or continuous.
 *
 * <pre>{@code
 * KartothekSource source = KartothekSource.builder("s3://bucket/cubes", "sales")
 *     .storeOptions(Map.of("region", "eu-central-1"))
 *     .query(CubeQuery.builder().where("day >= '2024-01-01'").columns("day", "shop", "revenue").build())
 *     .build();
 * DataStream<Row> rows = env.fromSource(source, WatermarkStrategy.noWatermarks(), "sales");
 * }</pre>
 *
 * <p>Lifecycle: {@link Builder#build()} pins the latest version of every dataset of the cube (or
 * the versions given) and checks the query there, on the client, so a bad query fails before the
 * job starts and before any data file is read. The enumerator plans the query at the pinned
 * versions; each query group is a split, or several splits of consecutive partitions when it has
 * more than {@link KartothekSourceOptions#SPLIT_MAX_PARTITIONS} of them, handed to readers on
 * request in output order. A reader joins a split's partitions one at a time and emits its rows
 * sorted, leaving out row groups that statistics prune (metric {@value
 * io.ktk.flink.source.reader.CubeSourceReader#PRUNED_ROW_GROUPS}); it checkpoints how many rows of
 * each unfinished split it emitted, and skips them after a restore.
 *
 * <p>Order: with parallelism 1 the rows arrive in the query's order (splits in order, each split's
 * rows in order). With more readers each split's rows stay in order, but splits interleave.
 *
 * <p>Continuous ({@link Builder#continuous}): after the pinned versions, the enumerator looks for
 * later versions every {@link KartothekSourceOptions#DISCOVERY_INTERVAL} and serves, once, the
 * rows of the seed files that later commits added, joined with the other datasets' versions of the
 * moment it found them (append-only; see {@code docs/cube-query.md}).
 */
@PublicEvolving
public final class KartothekSource
    implements Source<Row, CubeSplit, CubeEnumeratorState>, ResultTypeQueryable<Row> {
  private static final long serialVersionUID = 1L;

  private final QuerySettings settings;
  private final TreeMap<String, Long> versions;
  private final String seedDatasetId;
  private final RowTypeInfo type;
  private final boolean continuous;
  private final Duration discoveryInterval;
  private final int maxPartitionsPerSplit;

  private KartothekSource(QuerySettings settings, Map<String, Long> versions, String seedDatasetId, RowTypeInfo type,
      boolean continuous, Duration discoveryInterval, int maxPartitionsPerSplit) {
    this.settings = settings;
    this.versions = new TreeMap<>(versions);
    this.seedDatasetId = seedDatasetId;
    this.type = type;
    this.continuous = continuous;
    this.discoveryInterval = discoveryInterval;
    this.maxPartitionsPerSplit = maxPartitionsPerSplit;
  }

  /** A source of cube {@code cube} in the store at {@code storeUrl} ({@code file:///dir}, {@code s3://bucket/prefix}). */
  public static Builder builder(String storeUrl, String cube) {
    return new Builder(storeUrl, cube);
  }

  /** A source of one plain dataset (not a cube); see {@link KartothekDatasetSource}. */
  public static KartothekDatasetSource.Builder forDataset(String storeUrl, String uuid) {
    return KartothekDatasetSource.builder(storeUrl, uuid);
  }

  /** The dataset versions the source reads, by dataset id. */
  public NavigableMap<String, Long> versions() {
    return new TreeMap<>(versions);
  }

  /** Whether the source serves later commits too. */
  public boolean isContinuous() {
    return continuous;
  }

  @Override
  public Boundedness getBoundedness() {
    return continuous ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
  }

  @Override
  public SplitEnumerator<CubeSplit, CubeEnumeratorState> createEnumerator(SplitEnumeratorContext<CubeSplit> context)
      throws IOException {
    long seedVersion = continuous ? versions.get(seedDatasetId) : -1;
    return new CubeSplitEnumerator(context,
        new CubeEnumeratorState(splits(context.currentParallelism()), seedVersion, 0), discovery());
  }

  @Override
  public SplitEnumerator<CubeSplit, CubeEnumeratorState> restoreEnumerator(SplitEnumeratorContext<CubeSplit> context,
      CubeEnumeratorState state) {
    if (continuous && state.servedSeedVersion() < 0) {
      throw new IllegalStateException("Cannot restore a continuous cube source from the state of a bounded one"
          + " (it does not say which seed version was served)");
    }
    return new CubeSplitEnumerator(context, state, discovery());
  }

  private CubeSplitEnumerator.Discovery discovery() {
    return continuous ? new CubeSplitEnumerator.Discovery(settings, discoveryInterval, maxPartitionsPerSplit) : null;
  }

  @Override
  public SourceReader<Row, CubeSplit> createReader(SourceReaderContext context) {
    return new CubeSourceReader(settings, new Configuration(), context);
  }

  @Override
  public SimpleVersionedSerializer<CubeSplit> getSplitSerializer() {
    return CubeSplitSerializer.INSTANCE;
  }

  @Override
  public SimpleVersionedSerializer<CubeEnumeratorState> getEnumeratorCheckpointSerializer() {
    return CubeEnumeratorStateSerializer.INSTANCE;
  }

  @Override
  public TypeInformation<Row> getProducedType() {
    return type;
  }

  /**
   * The splits of the query at the pinned versions, in output order: one per query group, or
   * several for a group of many partitions or when {@code readers} would otherwise idle ({@link
   * CubeSplits}).
   */
  List<CubeSplit> splits(int readers) throws IOException {
    try (ObjectStore store = settings.openStore()) {
      QueryPlan plan = CubeSnapshot.at(store, settings.cube(), versions).plan(settings.query());
      return CubeSplits.of(plan, "", maxPartitionsPerSplit, readers);
    }
  }

  @Override
  public String toString() {
    return "KartothekSource{" + settings + ", versions=" + versions + (continuous ? ", continuous every "
        + discoveryInterval : "") + "}";
  }

  /** Builds a {@link KartothekSource}; the query defaults to all rows and columns. */
  public static final class Builder {
    private final String storeUrl;
    private final String cube;
    private Map<String, String> storeOptions = Map.of();
    private CubeQuery query = CubeQuery.all();
    private Map<String, Long> versions;
    private boolean continuous = KartothekSourceOptions.CONTINUOUS.defaultValue();
    private Duration discoveryInterval = KartothekSourceOptions.DISCOVERY_INTERVAL.defaultValue();
    private int maxPartitionsPerSplit = KartothekSourceOptions.SPLIT_MAX_PARTITIONS.defaultValue();

    private Builder(String storeUrl, String cube) {
      this.storeUrl = requireNonNull(storeUrl, "storeUrl is null");
      this.cube = requireNonNull(cube, "cube is null");
    }

    /** Options of the store (S3 endpoint, region, credentials, ...; see {@code StoreOptions}). */
    public Builder storeOptions(Map<String, String> options) {
      this.storeOptions = Map.copyOf(options);
      return this;
    }

    public Builder query(CubeQuery query) {
      this.query = requireNonNull(query, "query is null");
      return this;
    }

    /** Reads these versions (by dataset id, every dataset of the cube) instead of the latest ones. */
    public Builder versions(Map<String, Long> versions) {
      this.versions = Map.copyOf(versions);
      return this;
    }

    /** See {@link KartothekSourceOptions#CONTINUOUS}. */
    public Builder continuous(boolean continuous) {
      this.continuous = continuous;
      return this;
    }

    /** See {@link KartothekSourceOptions#DISCOVERY_INTERVAL}. */
    public Builder discoveryInterval(Duration interval) {
      requireNonNull(interval, "interval is null");
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("Cannot poll cube '" + cube + "' every " + interval
            + ": the discovery interval must be positive");
      }
      this.discoveryInterval = interval;
      return this;
    }

    /** See {@link KartothekSourceOptions#SPLIT_MAX_PARTITIONS}. */
    public Builder maxPartitionsPerSplit(int partitions) {
      if (partitions < 1) {
        throw new IllegalArgumentException("Cannot cut splits of cube '" + cube + "' to " + partitions
            + " partitions: at least 1 is needed");
      }
      this.maxPartitionsPerSplit = partitions;
      return this;
    }

    /**
     * Pins the versions and checks the query against them.
     *
     * @throws io.ktk.flink.source.query.InvalidQueryException when the query does not fit the cube
     * @throws UncheckedIOException when the store cannot be read
     */
    public KartothekSource build() {
      QuerySettings settings = new QuerySettings(storeUrl, storeOptions, cube, query);
      try (ObjectStore store = settings.openStore()) {
        CubeSnapshot snapshot = versions == null ? CubeSnapshot.latest(store, cube) : CubeSnapshot.at(store, cube, versions);
        RowTypeInfo type = RowTypes.of(snapshot.resolve(query).output());
        return new KartothekSource(settings, snapshot.versions(), snapshot.spec().seedDatasetId(), type, continuous,
            discoveryInterval, maxPartitionsPerSplit);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read cube '" + cube + "' in " + storeUrl + ": " + e.getMessage(), e);
      }
    }
  }
}
