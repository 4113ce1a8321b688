package io.ktk.flink.source;

import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.planner.PlainDatasetSnapshot;
import io.ktk.flink.source.query.QuerySettings;
import io.ktk.flink.source.query.QueryTarget;
import io.ktk.flink.source.reader.RecordFormat;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.types.Row;

/**
 * A bounded Flink source (FLIP-27) of one plain Kartothek dataset (what the one-dataset sink
 * writes; not a cube): the rows that pass a {@link DatasetQuery}, projected to its columns, as
 * {@link Row}s of typed values (the project's value convention, as {@link KartothekSource}).
 * Every row of every file counts; a dataset with a primary key ({@code ktk_primary_key}) gives the
 * last-written row of each key that is not deleted.
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
public final class KartothekDatasetSource extends QuerySource<Row> {
  private static final long serialVersionUID = 2L;

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

    private Builder(String storeUrl, String uuid) {
      super(storeUrl, uuid, "uuid", DatasetQuery.all());
    }

    @Override
    Builder self() {
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
      String uuid = name;
      QuerySettings settings = new QuerySettings(storeUrl, storeOptions, QueryTarget.dataset(uuid),
          query.toCubeQuery());
      try (ObjectStore store = ObjectStores.open(storeUrl, storeOptions)) {
        PlainDatasetSnapshot snapshot = version == null ? PlainDatasetSnapshot.latest(store, uuid)
            : PlainDatasetSnapshot.at(store, uuid, version);
        RowTypeInfo type = RowTypes.of(snapshot.resolve(settings.query()).output());
        return new KartothekDatasetSource(QuerySource.Setup.bounded(settings, snapshot), type,
            snapshot.dataset().version());
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read dataset '" + uuid + "' in " + storeUrl + ": " + e.getMessage(), e);
      }
    }
  }
}
