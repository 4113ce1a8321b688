package io.ktk.flink.benchmarks.cdc;

import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.sink.config.Compression;
import io.ktk.flink.source.KartothekDatasetSource;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.types.RowKind;
import org.apache.iceberg.DistributionMode;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.flink.sink.IcebergSink;
import org.apache.iceberg.flink.source.IcebergSource;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.flink.sink.FlinkSinkBuilder;
import org.apache.paimon.flink.source.FlinkSourceBuilder;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.types.DataTypes;

/**
 * The engines compared, each writing {@link Changelog}'s events into a table with the primary key
 * {@code (k, p)} partitioned by {@code p} (Snappy Parquet on the local directory) and reading the
 * final state back as a bounded Flink job. Each maps what it reads to {@code (k, v)} pairs, the
 * rows of the state; a reader that emits a retraction ({@code -U}, {@code -D}) fails the run.
 */
public enum CdcEngine {
  /**
   * This project's sink with {@code primaryKey("k", "p")}; read back by {@link KartothekDatasetSource}
   * over the latest version of the log, which the fold before the last publication (at the end of
   * the job) left with one file per partition: the source's merge by key has one row per key to
   * read.
   */
  KARTOTHEK("KartothekSink, primary key") {
    @Override
    void addSink(DataStream<RowData> events, Path dir, int parallelism) {
      addKartothekSink(events, dir, parallelism, Duration.ZERO);
    }

    @Override
    DataStream<long[]> read(StreamExecutionEnvironment env, Path dir) {
      return readKartothek(env, dir);
    }

    @Override
    String layout(Path dir) throws Exception {
      return kartothekLayout(dir);
    }
  },

  /**
   * The same with {@code publish.min-interval} one minute: the view (and so the fold, which
   * rewrites every partition with change files) at the first commit, then at most once a minute
   * and at the end, instead of after every commit. Not in the default run; it shows what the folds
   * during the job cost.
   */
  KARTOTHEK_VIEW_PER_MINUTE("KartothekSink, primary key, view once a minute") {
    @Override
    void addSink(DataStream<RowData> events, Path dir, int parallelism) {
      addKartothekSink(events, dir, parallelism, Duration.ofMinutes(1));
    }

    @Override
    DataStream<long[]> read(StreamExecutionEnvironment env, Path dir) {
      return readKartothek(env, dir);
    }

    @Override
    String layout(Path dir) throws Exception {
      return kartothekLayout(dir);
    }
  },

  /**
   * Our merge on read: written with {@code publish.min-interval} one hour, so the view is folded
   * after the first commit and at the end only, and read at the version before the final fold (the
   * last commit): the first fold's files plus the change files of every later commit, merged by key
   * by the source. Not in the default run.
   */
  KARTOTHEK_MERGE_ON_READ("KartothekSink, primary key, merge on read") {
    @Override
    void addSink(DataStream<RowData> events, Path dir, int parallelism) {
      addKartothekSink(events, dir, parallelism, Duration.ofHours(1));
    }

    @Override
    DataStream<long[]> read(StreamExecutionEnvironment env, Path dir) throws Exception {
      return readKartothek(env, dir, lastCommitBeforeFold(dir));
    }

    @Override
    String layout(Path dir) throws Exception {
      try (ObjectStore store = ObjectStores.open(dir.toUri().toString())) {
        long version = lastCommitBeforeFold(dir);
        DatasetState read = new LogReader(store, DATASET).at(version);
        return String.format(Locale.ROOT, "read at version %d (before the final fold): %d files", version,
            read.files().size());
      }
    }
  },

  /**
   * Iceberg's Flink sink ({@code IcebergSink}, format v2) with {@code upsert} and the equality
   * fields {@code (k, p)}: each upsert writes an equality delete and the row, each delete an
   * equality delete. A table of a Hadoop catalog on the local directory: Iceberg's Flink module
   * takes a Hadoop {@code Configuration} in any case and its only local FileIO is Hadoop's.
   * Distribution mode none: the sink then keys the stream by the equality fields. Read back by
   * {@code IcebergSource} (batch), which applies the deletes.
   */
  ICEBERG("Iceberg IcebergSink, upsert (equality deletes)") {
    @Override
    void addSink(DataStream<RowData> events, Path dir, int parallelism) {
      HadoopCatalog catalog = new HadoopCatalog(new org.apache.hadoop.conf.Configuration(), warehouse(dir));
      Schema schema = new Schema(
          Types.NestedField.required(1, "k", Types.LongType.get()),
          Types.NestedField.required(2, "p", Types.StringType.get()),
          Types.NestedField.optional(3, "v", Types.LongType.get()),
          Types.NestedField.optional(4, "x", Types.DoubleType.get()),
          Types.NestedField.optional(5, "s", Types.StringType.get()));
      Table table = catalog.createTable(ICEBERG_TABLE, schema, PartitionSpec.builderFor(schema).identity("p").build(),
          Map.of("format-version", "2", "write.parquet.compression-codec", "snappy", "write.upsert.enabled", "true"));
      IcebergSink.forRowData(events)
          .tableLoader(TableLoader.fromHadoopTable(table.location(), new org.apache.hadoop.conf.Configuration()))
          .equalityFieldColumns(List.of("k", "p"))
          .upsert(true)
          .distributionMode(DistributionMode.NONE)
          .writeParallelism(parallelism)
          .append();
    }

    @Override
    DataStream<long[]> read(StreamExecutionEnvironment env, Path dir) {
      TableLoader loader = TableLoader.fromHadoopTable(icebergTable(dir).location(),
          new org.apache.hadoop.conf.Configuration());
      return env.fromSource(IcebergSource.forRowData().tableLoader(loader).streaming(false).build(),
              WatermarkStrategy.noWatermarks(), "iceberg read", InternalTypeInfo.of(Changelog.rowType()))
          .map(row -> pair(row.getRowKind(), row.getLong(0), row.getLong(2)))
          .returns(long[].class);
    }

    @Override
    String layout(Path dir) {
      Table table = icebergTable(dir);
      long snapshots = 0;
      for (Snapshot ignored : table.snapshots()) {
        snapshots++;
      }
      Map<String, String> summary = table.currentSnapshot().summary();
      return String.format(Locale.ROOT, "%d snapshots; %s data files, %s delete files (%s equality, %s position deletes)",
          snapshots,
          summary.get("total-data-files"), summary.get("total-delete-files"),
          summary.get("total-equality-deletes"), summary.get("total-position-deletes"));
    }
  },

  /**
   * Apache Paimon's primary-key table ({@code paimon-flink-2.1}), a filesystem catalog on the local
   * directory, fixed buckets (as many per partition as the parallelism), Paimon's defaults
   * otherwise (its writers compact the LSM tree as they go). Read back by its bounded Flink
   * source, which merges the sorted runs by key.
   */
  PAIMON("Paimon primary-key table") {
    @Override
    void addSink(DataStream<RowData> events, Path dir, int parallelism) throws Exception {
      try (Catalog catalog = paimonCatalog(dir)) {
        catalog.createDatabase("db", true);
        org.apache.paimon.schema.Schema schema = org.apache.paimon.schema.Schema.newBuilder()
            .column("k", DataTypes.BIGINT().notNull())
            .column("p", DataTypes.STRING().notNull())
            .column("v", DataTypes.BIGINT())
            .column("x", DataTypes.DOUBLE())
            .column("s", DataTypes.STRING())
            .partitionKeys("p")
            .primaryKey("k", "p")
            .option("bucket", Integer.toString(parallelism))
            .option("file.format", "parquet")
            .option("file.compression", "snappy")
            .build();
        catalog.createTable(PAIMON_TABLE, schema, false);
        new FlinkSinkBuilder(catalog.getTable(PAIMON_TABLE)).forRowData(events).parallelism(parallelism).build();
      }
    }

    @Override
    DataStream<long[]> read(StreamExecutionEnvironment env, Path dir) throws Exception {
      try (Catalog catalog = paimonCatalog(dir)) {
        return new FlinkSourceBuilder(catalog.getTable(PAIMON_TABLE)).env(env).sourceBounded(true)
            .sourceName("paimon read").build()
            .map(row -> pair(row.getRowKind(), row.getLong(0), row.getLong(2)))
            .returns(long[].class);
      }
    }

    @Override
    String layout(Path dir) throws Exception {
      try (Catalog catalog = paimonCatalog(dir)) {
        var splits = catalog.getTable(PAIMON_TABLE).newReadBuilder().newScan().plan().splits();
        long files = splits.stream().mapToLong(split -> ((DataSplit) split).dataFiles().size()).sum();
        return String.format(Locale.ROOT, "%d data files in %d splits (buckets)", files, splits.size());
      }
    }
  };

  static final String DATASET = "cdc";
  private static final TableIdentifier ICEBERG_TABLE = TableIdentifier.of("db", "cdc");
  private static final Identifier PAIMON_TABLE = Identifier.create("db", "cdc");

  private final String title;

  CdcEngine(String title) {
    this.title = title;
  }

  public String title() {
    return title;
  }

  /** Adds the engine's sink of {@code events} below {@code dir}, creating its table first. */
  abstract void addSink(DataStream<RowData> events, Path dir, int parallelism) throws Exception;

  /** A bounded read of the table's latest state below {@code dir}, as {@code {retraction?, k, v}} triples. */
  abstract DataStream<long[]> read(StreamExecutionEnvironment env, Path dir) throws Exception;

  /** What the table consists of after the writes (files, delete files), for the report. */
  abstract String layout(Path dir) throws Exception;

  /**
   * {@code {0 for a row of the state (+I, or +U: Paimon's batch read keeps the kind of a key's last
   * change) else 1, k, v}}.
   */
  private static long[] pair(RowKind kind, long k, long v) {
    return new long[] {kind == RowKind.INSERT || kind == RowKind.UPDATE_AFTER ? 0 : 1, k, v};
  }

  private static void addKartothekSink(DataStream<RowData> events, Path dir, int parallelism, Duration publishInterval) {
    KartothekSink sink = KartothekSink.forRowData(Changelog.rowType())
        .store(dir.toUri().toString())
        .dataset(DATASET)
        .partitionBy("p")
        .primaryKey("k", "p")
        .compression(Compression.SNAPPY)
        .publishMinInterval(publishInterval)
        .build();
    events.sinkTo(sink).name("kartothek").setParallelism(parallelism);
  }

  /** {@link KartothekDatasetSource} over the latest version of the log (merged by key). */
  private static DataStream<long[]> readKartothek(StreamExecutionEnvironment env, Path dir) {
    return readKartothek(env, dir, -1);
  }

  /**
   * {@link KartothekDatasetSource} at {@code version} (-1: the latest): a dataset with a primary
   * key is merged by key on read (the last change of each key wins, deletes drop it).
   */
  private static DataStream<long[]> readKartothek(StreamExecutionEnvironment env, Path dir, long version) {
    KartothekDatasetSource.Builder builder = KartothekDatasetSource.builder(dir.toUri().toString(), DATASET);
    KartothekDatasetSource source = version < 0 ? builder.build() : builder.version(version).build();
    List<String> names = List.of(((RowTypeInfo) source.getProducedType()).getFieldNames());
    int k = names.indexOf("k");
    int v = names.indexOf("v");
    return env.fromSource(source, WatermarkStrategy.noWatermarks(), "kartothek read")
        .map(row -> pair(row.getKind(), (Long) row.getField(k), (Long) row.getField(v)))
        .returns(long[].class);
  }

  /** The version before the latest one, which is the final fold's when the job has ended. */
  private static long lastCommitBeforeFold(Path dir) throws Exception {
    try (ObjectStore store = ObjectStores.open(dir.toUri().toString())) {
      return new LogReader(store, DATASET).latest().version() - 1;
    }
  }

  private static String kartothekLayout(Path dir) throws Exception {
    try (ObjectStore store = ObjectStores.open(dir.toUri().toString())) {
      DatasetState latest = new LogReader(store, DATASET).latest();
      return String.format(Locale.ROOT, "version %d: %d files", latest.version(), latest.files().size());
    }
  }

  private static String warehouse(Path dir) {
    return dir.resolve("warehouse").toUri().toString();
  }

  private static Table icebergTable(Path dir) {
    return new HadoopCatalog(new org.apache.hadoop.conf.Configuration(), warehouse(dir)).loadTable(ICEBERG_TABLE);
  }

  private static Catalog paimonCatalog(Path dir) {
    return CatalogFactory.createCatalog(CatalogContext.create(new org.apache.paimon.fs.Path(warehouse(dir))));
  }

  /** Lists the engines named in {@code text} (comma-separated, case-insensitive). */
  public static List<CdcEngine> parse(String text) {
    return Stream.of(text.split(",")).map(String::trim).filter(s -> !s.isEmpty())
        .map(s -> valueOf(s.toUpperCase(Locale.ROOT))).toList();
  }
}
