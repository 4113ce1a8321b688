package io.ktk.flink.source;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.enumerator.CubeEnumeratorState;
import io.ktk.flink.source.enumerator.CubeEnumeratorStateSerializer;
import io.ktk.flink.source.enumerator.CubeSplitEnumerator;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.planner.QueryGroup;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.reader.CubeSourceReader;
import io.ktk.flink.source.reader.QuerySettings;
import io.ktk.flink.source.split.CubeSplit;
import io.ktk.flink.source.split.CubeSplitSerializer;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
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
 * A bounded Flink source (FLIP-27) of a Kartothek cube query: the rows that {@link
 * io.ktk.flink.source.reader.CubeReader} returns in-process, as {@link Row}s.
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
 * versions; each query group is one split, handed to readers on request in output order. A reader
 * joins a split's partitions one at a time and emits its rows sorted; it checkpoints how many rows
 * of each unfinished split it emitted, and skips them after a restore. With parallelism 1 the rows
 * arrive in the query's order; with more readers each split's rows stay in order, but splits
 * interleave.
 */
public final class KartothekSource
    implements Source<Row, CubeSplit, CubeEnumeratorState>, ResultTypeQueryable<Row> {
  private static final long serialVersionUID = 1L;

  private final QuerySettings settings;
  private final TreeMap<String, Long> versions;
  private final RowTypeInfo type;

  private KartothekSource(QuerySettings settings, Map<String, Long> versions, RowTypeInfo type) {
    this.settings = settings;
    this.versions = new TreeMap<>(versions);
    this.type = type;
  }

  /** A source of cube {@code cube} in the store at {@code storeUrl} ({@code file:///dir}, {@code s3://bucket/prefix}). */
  public static Builder builder(String storeUrl, String cube) {
    return new Builder(storeUrl, cube);
  }

  /** The dataset versions the source reads, by dataset id. */
  public NavigableMap<String, Long> versions() {
    return new TreeMap<>(versions);
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.BOUNDED;
  }

  @Override
  public SplitEnumerator<CubeSplit, CubeEnumeratorState> createEnumerator(SplitEnumeratorContext<CubeSplit> context)
      throws IOException {
    return new CubeSplitEnumerator(context, splits());
  }

  @Override
  public SplitEnumerator<CubeSplit, CubeEnumeratorState> restoreEnumerator(SplitEnumeratorContext<CubeSplit> context,
      CubeEnumeratorState state) {
    return new CubeSplitEnumerator(context, state.unassigned());
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

  /** The splits of the query at the pinned versions: one per query group, in output order. */
  List<CubeSplit> splits() throws IOException {
    try (ObjectStore store = settings.openStore()) {
      QueryPlan plan = CubeSnapshot.at(store, settings.cube(), versions).plan(settings.query());
      List<CubeSplit> splits = new ArrayList<>();
      List<QueryGroup> groups = plan.groups();
      for (int i = 0; i < groups.size(); i++) {
        splits.add(new CubeSplit(String.format("group-%05d", i), versions, groups.get(i), 0));
      }
      return splits;
    }
  }

  @Override
  public String toString() {
    return "KartothekSource{" + settings + ", versions=" + versions + "}";
  }

  /** Builds a {@link KartothekSource}; the query defaults to all rows and columns. */
  public static final class Builder {
    private final String storeUrl;
    private final String cube;
    private Map<String, String> storeOptions = Map.of();
    private CubeQuery query = CubeQuery.all();
    private Map<String, Long> versions;

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
        return new KartothekSource(settings, snapshot.versions(), type);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read cube '" + cube + "' in " + storeUrl + ": " + e.getMessage(), e);
      }
    }
  }
}
