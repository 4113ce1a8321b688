package io.ktk.flink.source;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.dataset.DatasetEnumeratorState;
import io.ktk.flink.source.dataset.DatasetEnumeratorStateSerializer;
import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.dataset.DatasetScanPlan;
import io.ktk.flink.source.dataset.DatasetSourceReader;
import io.ktk.flink.source.dataset.DatasetSourceSettings;
import io.ktk.flink.source.dataset.DatasetSplit;
import io.ktk.flink.source.dataset.DatasetSplitEnumerator;
import io.ktk.flink.source.dataset.DatasetSplitSerializer;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Field;
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
 * A bounded Flink source (FLIP-27) of one plain Kartothek dataset (what the one-dataset sink
 * writes; not a cube): the rows that pass a {@link DatasetQuery}, projected to its columns, as
 * {@link Row}s of typed values (the project's value convention, as {@link KartothekSource}).
 * Every row of every file counts: a plain dataset has no cells, so nothing is de-duplicated.
 *
 * <pre>{@code
 * KartothekDatasetSource source = KartothekDatasetSource.builder("s3://bucket/data", "events")
 *     .storeOptions(Map.of("region", "eu-central-1"))
 *     .query(DatasetQuery.builder().where("day >= '2024-01-01' and c in (1, 2)").columns("day", "c").build())
 *     .build();
 * DataStream<Row> rows = env.fromSource(source, WatermarkStrategy.noWatermarks(), "events");
 * }</pre>
 *
 * <p>Lifecycle: {@link Builder#build()} pins the latest version (or the one given) and checks the
 * query against its schema on the client, so a bad query fails before the job starts. The
 * enumerator plans the query at that version ({@link DatasetScanPlan}: partitions pruned by
 * conditions on partition columns, files by secondary indices for {@code ==}/{@code in}); each
 * remaining file is a split, handed to readers on request in plan order. A reader skips row
 * groups that statistics prune (metric {@value DatasetSourceReader#PRUNED_ROW_GROUPS}), tests
 * the conditions per row, checkpoints how many rows of each unfinished split it emitted and skips
 * them after a restore.
 *
 * <p>Order: guaranteed <b>within a split</b> (a file's rows as stored). Splits are handed out in
 * the plan's order (partitions by typed values, files by label), so with parallelism 1 the rows
 * arrive as {@code ktk read} prints them; with more readers splits interleave.
 */
@PublicEvolving
public final class KartothekDatasetSource
    implements Source<Row, DatasetSplit, DatasetEnumeratorState>, ResultTypeQueryable<Row> {
  private static final long serialVersionUID = 1L;

  private final DatasetSourceSettings settings;
  private final RowTypeInfo type;
  /** At most this many rows are needed (-1: all); see {@link Builder#limit}. */
  private final long limit;

  private KartothekDatasetSource(DatasetSourceSettings settings, RowTypeInfo type, long limit) {
    this.settings = settings;
    this.type = type;
    this.limit = limit;
  }

  /** A source of dataset {@code uuid} in the store at {@code storeUrl} ({@code file:///dir}, {@code s3://bucket/prefix}). */
  public static Builder builder(String storeUrl, String uuid) {
    return new Builder(storeUrl, uuid);
  }

  /** The dataset version the source reads. */
  public long version() {
    return settings.version();
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.BOUNDED;
  }

  @Override
  public SplitEnumerator<DatasetSplit, DatasetEnumeratorState> createEnumerator(
      SplitEnumeratorContext<DatasetSplit> context) throws IOException {
    return new DatasetSplitEnumerator(context, new DatasetEnumeratorState(splits()));
  }

  @Override
  public SplitEnumerator<DatasetSplit, DatasetEnumeratorState> restoreEnumerator(
      SplitEnumeratorContext<DatasetSplit> context, DatasetEnumeratorState state) {
    return new DatasetSplitEnumerator(context, state);
  }

  @Override
  public SourceReader<Row, DatasetSplit> createReader(SourceReaderContext context) {
    return new DatasetSourceReader(settings, new Configuration(), context);
  }

  @Override
  public SimpleVersionedSerializer<DatasetSplit> getSplitSerializer() {
    return DatasetSplitSerializer.INSTANCE;
  }

  @Override
  public SimpleVersionedSerializer<DatasetEnumeratorState> getEnumeratorCheckpointSerializer() {
    return DatasetEnumeratorStateSerializer.INSTANCE;
  }

  @Override
  public TypeInformation<Row> getProducedType() {
    return type;
  }

  /** The splits at the pinned version, in output order: one per planned file. */
  List<DatasetSplit> splits() throws IOException {
    try (ObjectStore store = settings.openStore()) {
      DatasetScanPlan plan = DatasetScanPlan.of(pinned(store, settings.dataset(), settings.version()),
          settings.query());
      List<DatasetSplit> splits = new ArrayList<>();
      // Conditions on partition columns drop whole partitions, so the logged row counts of the files
      // left are exact; any other condition may drop rows inside a file, and then every file is read.
      boolean countsExact = settings.query().conditions().stream()
          .allMatch(condition -> settings.partitionKeys().contains(condition.column()));
      long planned = 0;
      for (Partition partition : plan.partitions()) {
        for (DataFile file : partition.files()) {
          if (limit >= 0 && countsExact && planned >= limit) {
            return splits;
          }
          planned += file.rows();
          splits.add(new DatasetSplit(String.format("file-%06d", splits.size()), settings.version(),
              partition.values(), file.key(settings.dataset()), file.label(), file.rows(), file.bytes(), 0));
        }
      }
      return splits;
    }
  }

  /**
   * Version {@code version} of the dataset. The latest version is read first: a dataset that only
   * plateau wrote has no log and is version 0 of its published view.
   */
  private static DatasetSnapshot pinned(ObjectStore store, String uuid, long version) throws IOException {
    DatasetSnapshot latest = DatasetSnapshot.latest(store, uuid);
    return latest.version() == version ? latest : DatasetSnapshot.at(store, uuid, version);
  }

  @Override
  public String toString() {
    return "KartothekDatasetSource{" + settings + "}";
  }

  /** Builds a {@link KartothekDatasetSource}; the query defaults to all rows and columns. */
  public static final class Builder {
    private final String storeUrl;
    private final String uuid;
    private Map<String, String> storeOptions = Map.of();
    private DatasetQuery query = DatasetQuery.all();
    private Long version;
    private long limit = -1;

    private Builder(String storeUrl, String uuid) {
      this.storeUrl = requireNonNull(storeUrl, "storeUrl is null");
      this.uuid = requireNonNull(uuid, "uuid is null");
    }

    /** Options of the store (S3 endpoint, region, credentials, ...; see {@code StoreOptions}). */
    public Builder storeOptions(Map<String, String> options) {
      this.storeOptions = Map.copyOf(options);
      return this;
    }

    public Builder query(DatasetQuery query) {
      this.query = requireNonNull(query, "query is null");
      return this;
    }

    /**
     * At most {@code rows} rows are needed (a pushed-down {@code LIMIT}; -1, the default, for all):
     * when every condition is on partition columns, only the first files (in output order) that
     * hold that many rows by the log's counts are read. The source may still emit more rows.
     */
    public Builder limit(long rows) {
      if (rows < -1) {
        throw new IllegalArgumentException("Cannot limit the source of dataset '" + uuid + "' to " + rows
            + " rows: give a count >= 0, or -1 for all");
      }
      this.limit = rows;
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
      try (ObjectStore store = io.ktk.flink.state.store.ObjectStores.open(storeUrl, storeOptions)) {
        DatasetSnapshot snapshot = version == null ? DatasetSnapshot.latest(store, uuid)
            : pinned(store, uuid, version);
        DatasetSourceSettings settings = new DatasetSourceSettings(storeUrl, storeOptions, uuid, snapshot.version(),
            snapshot.schema().toJson(), snapshot.partitionKeys().stream().map(Field::getName).toList(), query);
        RowTypeInfo type = RowTypes.of(settings.resolve().output());
        return new KartothekDatasetSource(settings, type, limit);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read dataset '" + uuid + "' in " + storeUrl + ": " + e.getMessage(), e);
      }
    }
  }
}
