package io.ktk.flink.source;

import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.planner.PlainDatasetSnapshot;
import io.ktk.flink.source.planner.ResolvedQuery;
import io.ktk.flink.source.planner.RowMerge;
import io.ktk.flink.source.query.InvalidQueryException;
import io.ktk.flink.source.query.QuerySettings;
import io.ktk.flink.source.query.QueryTarget;
import io.ktk.flink.source.reader.RecordFormat;
import io.ktk.flink.source.rowdata.RowDataFormat;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;

/**
 * A bounded Flink source (FLIP-27) of one plain Kartothek dataset (what the one-dataset sink
 * writes; not a cube): the rows that pass a {@link DatasetQuery}, projected to its columns, as
 * {@link Row}s of typed values (the project's value convention, as {@link KartothekSource}).
 * Every row of every file counts; a dataset with a primary key ({@code ktk_primary_key}) gives the
 * last-written row of each key that is not deleted. Continuous ({@link Builder#continuous}), it goes
 * on with what later commits add: appended rows, or for a dataset with a primary key an upsert
 * changelog ({@link Builder#changelog}, {@code docs/cdc.md}).
 *
 * <pre>{@code
 * KartothekDatasetSource source = KartothekDatasetSource.builder("s3://bucket/data", "events")
 *     .storeOptions(Map.of("region", "eu-central-1"))
 *     .query(DatasetQuery.builder().where("day >= '2024-01-01' and c in (1, 2)").columns("day", "c").build())
 *     .build();
 * DataStream<Row> rows = env.fromSource(source, WatermarkStrategy.noWatermarks(), "events");
 * }</pre>
 *
 * <p>A plain dataset is read as a cube of that one dataset, by the same planner, splits and readers
 * as a cube ({@link QuerySource}). Lifecycle: {@link Builder#build()} pins the latest version (or
 * the one given) and checks the query against its schema on the client, so a bad query fails
 * before the job starts. The enumerator plans the query at that version (partitions pruned by
 * conditions on partition columns, files by secondary indices); without a key each remaining file
 * is a split, handed to readers on request in plan order (with a key, each partition). A reader
 * skips row groups that statistics prune (metric {@value
 * io.ktk.flink.source.reader.CubeSourceReader#PRUNED_ROW_GROUPS}), tests the conditions on each
 * row, checkpoints how many rows of each unfinished split it emitted and skips them after a
 * restore.
 *
 * <p>Order: guaranteed <b>within a split</b> (a file's rows as stored; with a key, a partition's
 * rows by key). Splits are handed out in the plan's order (partitions by typed values, files by
 * label), so with parallelism 1 the rows arrive as {@code ktk read} prints them; with more readers
 * splits interleave.
 */
@PublicEvolving
public final class KartothekDatasetSource extends QuerySource<Row> {
  private static final long serialVersionUID = 4L;

  private final long version;

  private KartothekDatasetSource(Setup setup, RowTypeInfo type, long version) {
    super(setup, RecordFormat.ROWS, type);
    this.version = version;
  }

  /** A source of dataset {@code uuid} in the store at {@code storeUrl} ({@code file:///dir}, {@code s3://bucket/prefix}). */
  public static Builder builder(String storeUrl, String uuid) {
    return new Builder(storeUrl, uuid);
  }

  /** The dataset version the source reads. */
  public long version() {
    return version;
  }

  /** Builds a {@link KartothekDatasetSource}; the query defaults to all rows and columns. */
  public static final class Builder extends SourceBuilder<Builder, DatasetQuery> {
    private Long version;
    private long limit = -1;
    private boolean changelog = KartothekSourceOptions.CHANGELOG.defaultValue();

    private Builder(String storeUrl, String uuid) {
      super(storeUrl, uuid, "dataset", DatasetQuery.all());
    }

    @Override
    Builder self() {
      return this;
    }

    /**
     * At most {@code rows} rows are needed (a pushed-down {@code LIMIT}; -1, the default, for all):
     * when every condition is on partition columns, only the first files (in output order) that
     * hold that many rows by the log's counts are planned; in any case each reader stops reading
     * once it has emitted that many rows ({@link KartothekSource.Builder#limit}). The source may
     * still emit more rows (up to that many per reader).
     */
    public Builder limit(long rows) {
      if (rows < -1) {
        throw new IllegalArgumentException("Cannot limit the source of dataset '" + name + "' to " + rows
            + " rows: give a count >= 0, or -1 for all");
      }
      this.limit = rows;
      return this;
    }

    /**
     * See {@link KartothekSourceOptions#CHANGELOG}: the records are an upsert changelog keyed by the
     * dataset's primary key, {@link Row}s whose {@link org.apache.flink.types.RowKind} is {@code +I}
     * for the pinned version's rows, then {@code +U} (a key's newest row) or {@code -D} (a key
     * deleted, or whose newest row fails the conditions; only the key's columns are set) for what
     * each later commit changed. Needed to read a dataset with a primary key continuously; the
     * query's columns must include the key's. A dataset without a key gives {@code +I} rows only.
     */
    public Builder changelog(boolean changelog) {
      this.changelog = changelog;
      return this;
    }

    /** Reads this version instead of the latest one. */
    public Builder version(long version) {
      this.version = version;
      return this;
    }

    /**
     * Pins the version and checks the query against its schema.
     *
     * @throws io.ktk.flink.source.query.InvalidQueryException when the query does not fit the dataset
     * @throws UncheckedIOException when the store cannot be read
     */
    public KartothekDatasetSource build() {
      Pinned pinned = pin();
      return new KartothekDatasetSource(pinned.setup(), RowTypes.of(pinned.output()), pinned.version());
    }

    /**
     * Like {@link #build()}, but the records are Flink's internal {@link RowData} of the query's
     * columns ({@link RowDataFormat}), views of the decoded column vectors instead of boxed {@link
     * Row}s: what the SQL source emits. Their type is {@link RowDataFormat#typeOf}.
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

    /** The source's setup at the pinned version, the query's output columns and the version. */
    private record Pinned(QuerySource.Setup setup, Schema output, long version) {}

    private Pinned pin() {
      String uuid = name;
      QuerySettings settings = new QuerySettings(storeUrl, storeOptions, QueryTarget.dataset(uuid),
          query.toCubeQuery());
      try (ObjectStore store = ObjectStores.open(storeUrl, storeOptions)) {
        PlainDatasetSnapshot snapshot = version == null ? PlainDatasetSnapshot.latest(store, uuid)
            : PlainDatasetSnapshot.at(store, uuid, version);
        ResolvedQuery resolved = snapshot.resolve(settings.query());
        // Without a key every row of a planned file is a row of the result unless a condition on a
        // non-partition column drops it inside the file (conditions on partition columns drop whole
        // partitions); with a key, later rows replace or delete earlier ones.
        List<String> partitionKeys = snapshot.dataset().partitionKeys().stream().map(Field::getName).toList();
        boolean countsExact = resolved.seed().merge() == RowMerge.NONE
            && query.conditions().stream().allMatch(condition -> partitionKeys.contains(condition.column()));
        boolean keyed = resolved.seed().merge() != RowMerge.NONE;
        if (continuous && keyed && !changelog) {
          throw new KtkValidationException("Cannot read dataset '" + uuid + "' continuously as appended rows: it has a"
              + " primary key, so later commits update and delete rows, which a stream of appended rows cannot"
              + " carry; read it as an upsert changelog (changelog(true)) or bounded (at a version, or the latest)");
        }
        if (changelog && keyed) {
          List<String> key = new ArrayList<>(partitionKeys);
          key.addAll(resolved.seed().dimensionColumns());
          List<String> columns = resolved.output().getFields().stream().map(Field::getName).toList();
          List<String> missing = key.stream().filter(column -> !columns.contains(column)).toList();
          if (!missing.isEmpty()) {
            throw new InvalidQueryException("Cannot read dataset '" + uuid
                + "' as a changelog without its primary key columns " + missing + ": a -D row names its key by them;"
                + " add them to the query's columns " + columns);
          }
        }
        if (continuous && limit >= 0) {
          throw new IllegalArgumentException("Cannot limit the continuous source of dataset '" + uuid + "'");
        }
        QuerySource.Setup setup = new QuerySource.Setup(settings, snapshot.versions(), snapshot.seedDatasetId(),
            continuous, continuous ? discoveryInterval : KartothekSourceOptions.DISCOVERY_INTERVAL.defaultValue(),
            KartothekSourceOptions.SPLIT_MAX_PARTITIONS.defaultValue(), continuous ? -1 : limit, changelog && keyed,
            countsExact && !continuous);
        return new Pinned(setup, resolved.output(), snapshot.dataset().version());
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read dataset '" + uuid + "' in " + storeUrl + ": " + e.getMessage(), e);
      }
    }
  }
}
