package io.ktk.flink.source;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.QuerySettings;
import io.ktk.flink.source.reader.RecordFormat;
import io.ktk.flink.source.rowdata.RowDataFormat;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;

/**
 * A Flink source (FLIP-27) of a Kartothek cube query: the rows that {@link
 * io.ktk.flink.source.engine.CubeReader} returns in-process, as {@link Row}s; bounded by default,
 * or continuous. {@link Builder#buildRowData()} makes the same source of Flink's internal {@link
 * RowData} instead, read straight from the column vectors (faster: no value is boxed).
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
    private Instant asOf;
    private int maxPartitionsPerSplit = KartothekSourceOptions.SPLIT_MAX_PARTITIONS.defaultValue();
    private long limit = -1;

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

    /**
     * Reads the cube as it was at {@code time} (time travel): every dataset at the version that
     * was the latest then, as a reader would have pinned them ({@link CubeSnapshot#asOf}). A cube
     * has no single version number: each dataset has its own log, so time is what they share.
     * Not with {@link #versions} or {@link #continuous}; building fails with {@link
     * io.ktk.flink.state.commit.VersionExpiredException} when a version of that time expired.
     */
    public Builder asOf(Instant time) {
      this.asOf = requireNonNull(time, "time is null");
      return this;
    }

    /**
     * At most {@code rows} rows are needed (a pushed-down {@code LIMIT}; -1, the default, for all):
     * each reader stops reading once it has emitted that many rows, and the splits it is given
     * after that finish without a file read. With one reader the source emits exactly the query's
     * first {@code rows} rows; with n readers at most n times as many, whichever each read first.
     * Bounded sources only.
     */
    public Builder limit(long rows) {
      if (rows < -1) {
        throw new IllegalArgumentException("Cannot limit the source of cube '" + name + "' to " + rows
            + " rows: give a count >= 0, or -1 for all");
      }
      this.limit = rows;
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
      Pinned pinned = pin();
      return new KartothekSource(pinned.setup(), RowTypes.of(pinned.output()));
    }

    /**
     * Like {@link #build()}, but the records are Flink's internal {@link RowData} of the query's
     * columns ({@link RowDataFormat}): views of the decoded column vectors, with no value boxed
     * and no {@link Row} made, which is what the SQL source emits. Their type is {@link
     * RowDataFormat#typeOf} of the columns' logical types. The fastest way to read a cube into a
     * job: with object reuse enabled ({@code pipeline.object-reuse}) Flink does not copy them
     * between chained operators either.
     */
    public QuerySource<RowData> buildRowData() {
      Pinned pinned = pin();
      return QuerySource.ofRowData(pinned.setup(), pinned.output());
    }

    /**
     * Like {@link #build()}, with the records that {@code format} makes of the query's rows, of
     * type {@code type} (the SQL source's: the columns it projects, as {@link RowData}).
     */
    public <T> QuerySource<T> build(RecordFormat<T> format, TypeInformation<T> type) {
      return new QuerySource<>(pin().setup(), format, type);
    }

    /** The source's setup at the pinned versions, and the query's output columns. */
    private record Pinned(Setup setup, Schema output) {}

    private Pinned pin() {
      String cube = name;
      if (asOf != null && (versions != null || continuous)) {
        throw new IllegalArgumentException("Cannot read cube '" + cube + "' as of " + asOf + ": time travel excludes "
            + (versions != null ? "given versions" : "a continuous read"));
      }
      QuerySettings settings = new QuerySettings(storeUrl, storeOptions, cube, query);
      try (ObjectStore store = settings.openStore()) {
        CubeSnapshot snapshot = versions != null ? CubeSnapshot.at(store, cube, versions)
            : asOf != null ? CubeSnapshot.asOf(store, cube, asOf) : CubeSnapshot.latest(store, cube);
        Schema output = snapshot.resolve(query).output();
        return new Pinned(new Setup(settings, snapshot.versions(), snapshot.seedDatasetId(), continuous,
            discoveryInterval, maxPartitionsPerSplit, continuous ? -1 : limit, false), output);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read cube '" + cube + "' in " + storeUrl + ": " + e.getMessage(), e);
      }
    }
  }
}
