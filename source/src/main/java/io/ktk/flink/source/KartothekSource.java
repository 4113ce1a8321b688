package io.ktk.flink.source;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.QuerySettings;
import io.ktk.flink.source.reader.RecordFormat;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
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
public final class KartothekSource extends QuerySource<Row> {
  private static final long serialVersionUID = 2L;

  private KartothekSource(Setup setup, RowTypeInfo type) {
    super(setup, RecordFormat.ROWS, type);
  }

  /** A source of cube {@code cube} in the store at {@code storeUrl} ({@code file:///dir}, {@code s3://bucket/prefix}). */
  public static Builder builder(String storeUrl, String cube) {
    return new Builder(storeUrl, cube);
  }

  /** A source of one plain dataset (not a cube); see {@link KartothekDatasetSource}. */
  public static KartothekDatasetSource.Builder forDataset(String storeUrl, String uuid) {
    return KartothekDatasetSource.builder(storeUrl, uuid);
  }

  /** Builds a {@link KartothekSource}; the query defaults to all rows and columns. */
  public static final class Builder extends SourceBuilder<Builder, CubeQuery> {
    private Map<String, Long> versions;
    private boolean continuous = KartothekSourceOptions.CONTINUOUS.defaultValue();
    private Duration discoveryInterval = KartothekSourceOptions.DISCOVERY_INTERVAL.defaultValue();
    private int maxPartitionsPerSplit = KartothekSourceOptions.SPLIT_MAX_PARTITIONS.defaultValue();

    private Builder(String storeUrl, String cube) {
      super(storeUrl, cube, "cube", CubeQuery.all());
    }

    @Override
    Builder self() {
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
        throw new IllegalArgumentException("Cannot poll cube '" + name + "' every " + interval
            + ": the discovery interval must be positive");
      }
      this.discoveryInterval = interval;
      return this;
    }

    /** See {@link KartothekSourceOptions#SPLIT_MAX_PARTITIONS}. */
    public Builder maxPartitionsPerSplit(int partitions) {
      if (partitions < 1) {
        throw new IllegalArgumentException("Cannot cut splits of cube '" + name + "' to " + partitions
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
      String cube = name;
      QuerySettings settings = new QuerySettings(storeUrl, storeOptions, cube, query);
      try (ObjectStore store = settings.openStore()) {
        CubeSnapshot snapshot = versions == null ? CubeSnapshot.latest(store, cube) : CubeSnapshot.at(store, cube, versions);
        RowTypeInfo type = RowTypes.of(snapshot.resolve(query).output());
        return new KartothekSource(new Setup(settings, snapshot.versions(), snapshot.seedDatasetId(), continuous,
            discoveryInterval, maxPartitionsPerSplit), type);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read cube '" + cube + "' in " + storeUrl + ": " + e.getMessage(), e);
      }
    }
  }
}
