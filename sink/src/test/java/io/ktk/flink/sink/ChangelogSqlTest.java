package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.store.ObjectStore;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Changelogs written through SQL into tables with a primary key ({@code PRIMARY KEY (...) NOT
 * ENFORCED}): a CDC stream (the one of {@link ChangelogSinkTest}) through failures and a restart
 * from a retained checkpoint, and an updating aggregation; the log and the published views hold
 * the reference table at every sampled checkpoint.
 */
class ChangelogSqlTest {
  @RegisterExtension
  static final MiniClusterExtension FLINK = Jobs.miniCluster();

  @TempDir
  Path dir;

  /** {@code -Dktk.cdc.records=N} changes the length of the changelog (300,000 records by default). */
  @Test
  void aCdcStreamThroughSqlWithFailuresAndARetainedCheckpoint() throws Exception {
    long seed = Long.getLong("ktk.seed", System.nanoTime());
    int records = Integer.getInteger("ktk.cdc.records", 300_000);
    String name = "sql-cdc-" + seed;
    List<GenericRowData> changes = Changelogs.register(name, seed, 100_000, 6, records);
    int[] failurePoints = new Random(seed).ints(5, 1_000, records / 8).toArray();
    Faults.planRecordFailures(name, failurePoints);
    String url = dir.resolve("store").toUri().toString();
    Path checkpoints = dir.resolve("checkpoints");

    try (PublishedViews views = new PublishedViews(ObjectStoreFactory.of(url, Map.of()), "cdc");
        ObjectStore store = ObjectStoreFactory.of(url, Map.of()).open()) {
      TableResult first = cdcInsert(env(Map.of(
          "execution.checkpointing.dir", checkpoints.toUri().toString(),
          "execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION")), name, records, url);
      JobClient job = first.getJobClient().orElseThrow();
      ChangelogChecks.awaitCommitted(store, "cdc", name, records / 2, job);
      job.cancel().get();
      Path retained = ChangelogChecks.latestCheckpoint(checkpoints).orElseThrow();

      cdcInsert(env(Map.of("execution.state-recovery.path", retained.toUri().toString())), name, records, url).await();
      views.close();

      assertThat(Faults.recordFailures(name)).as("failures injected, seed " + seed + ", after "
          + Arrays.toString(failurePoints) + " records").isEqualTo(5);
      ChangelogChecks.assertTables(store, Path.of(java.net.URI.create(url)), "cdc", name, records,
          n -> Changelogs.byKey(Changelogs.state(changes, n)), Changelogs.COLUMNS, views.views(), dir.resolve("work"));
    }
  }

  private TableResult cdcInsert(StreamExecutionEnvironment env, String name, int records, String url) {
    StreamTableEnvironment tables = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
    TypeInformation<Row> rowType = Types.ROW_NAMED(new String[] {"k", "p", "v", "s", "seq"},
        Types.LONG, Types.STRING, Types.LONG, Types.STRING, Types.LONG);
    DataStream<Row> rows = env.fromSource(new DataGeneratorSource<>(new Changelogs.Records(name), records,
            RateLimiterStrategy.perCheckpoint(records / 40), Changelogs.TYPE_INFO), WatermarkStrategy.noWatermarks(),
            "changelog")
        .uid("changelog").setParallelism(1)
        .map(new Changelogs.Prefixes(name), Changelogs.TYPE_INFO).uid("prefixes").setParallelism(1)
        .map(new Faults.FailingMap(name), Changelogs.TYPE_INFO).uid("failing-map").setParallelism(1)
        .map(row -> Row.ofKind(row.getRowKind(), row.getLong(0), row.getString(1).toString(),
            row.isNullAt(2) ? null : row.getLong(2), row.isNullAt(3) ? null : row.getString(3).toString(),
            row.getLong(4)), rowType).uid("to-rows").setParallelism(1);
    tables.createTemporaryView("changes", tables.fromChangelogStream(rows, Schema.newBuilder()
        .column("k", DataTypes.BIGINT().notNull())
        .column("p", DataTypes.STRING().notNull())
        .column("v", DataTypes.BIGINT())
        .column("s", DataTypes.STRING())
        .column("seq", DataTypes.BIGINT())
        .primaryKey("k", "p")
        .build(), ChangelogMode.all()));
    tables.executeSql("CREATE TABLE cdc (k BIGINT NOT NULL, p STRING NOT NULL, v BIGINT, s STRING, seq BIGINT, "
        + "PRIMARY KEY (k, p) NOT ENFORCED) PARTITIONED BY (p) WITH ('connector' = 'kartothek', 'store' = '" + url
        + "', 'dataset' = 'cdc', 'publish.min-interval' = '300ms')");
    return tables.executeSql("INSERT INTO cdc SELECT k, p, v, s, seq FROM changes");
  }

  static final RowType EVENT_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("k", DataTypes.BIGINT()),
      DataTypes.FIELD("v", DataTypes.BIGINT()),
      DataTypes.FIELD("seq", DataTypes.BIGINT())).getLogicalType();

  /** Event {@code i}: key {@code k(i)} of 5,000, value {@code v(i)}. */
  static long k(long i) {
    return (i * 7919) % 5_000;
  }

  static long v(long i) {
    return (i * 31) % 1_000 - 200;
  }

  @Test
  void anUpdatingAggregationIntoATableWithAPrimaryKey() throws Exception {
    String name = "totals-" + System.nanoTime();
    int events = 200_000;
    String url = dir.resolve("store").toUri().toString();
    StreamExecutionEnvironment env = env(Map.of());
    StreamTableEnvironment tables = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
    GeneratorFunction<Long, RowData> event = i -> GenericRowData.of(k(i), v(i), i);
    DataStream<Row> rows = env.fromSource(new DataGeneratorSource<>(event, events,
            RateLimiterStrategy.perCheckpoint(events / 40), InternalTypeInfo.of(EVENT_TYPE)),
            WatermarkStrategy.noWatermarks(), "events")
        .setParallelism(1)
        .map(new Changelogs.Prefixes(name, 2), InternalTypeInfo.of(EVENT_TYPE)).setParallelism(1)
        .map(row -> Row.of(row.getLong(0), row.getLong(1)), Types.ROW_NAMED(new String[] {"k", "v"}, Types.LONG,
            Types.LONG)).setParallelism(1);
    tables.createTemporaryView("events", tables.fromDataStream(rows));
    tables.executeSql("CREATE TABLE totals (k BIGINT NOT NULL, cnt BIGINT, total BIGINT, PRIMARY KEY (k) NOT ENFORCED)"
        + " WITH ('connector' = 'kartothek', 'store' = '" + url + "', 'dataset' = 'totals', "
        + "'publish.min-interval' = '300ms')");
    try (PublishedViews views = new PublishedViews(ObjectStoreFactory.of(url, Map.of()), "totals");
        ObjectStore store = ObjectStoreFactory.of(url, Map.of()).open()) {
      tables.executeSql("INSERT INTO totals SELECT k, COUNT(*), SUM(v) FROM events GROUP BY k").await();
      views.close();
      ChangelogChecks.assertTables(store, Path.of(java.net.URI.create(url)), "totals", name, events,
          ChangelogSqlTest::totals, List.of("k", "cnt", "total"), views.views(), dir.resolve("work"));
    }
  }

  /** The reference of the aggregation: per key, the count and sum of the first {@code n} events. */
  private static Map<List<Object>, List<Object>> totals(long n) {
    Map<Long, long[]> sums = new HashMap<>();
    for (long i = 0; i < n; i++) {
      long[] sum = sums.computeIfAbsent(k(i), key -> new long[2]);
      sum[0]++;
      sum[1] += v(i);
    }
    Map<List<Object>, List<Object>> table = new HashMap<>();
    sums.forEach((key, sum) -> table.put(List.of(key), List.of(key, sum[0], sum[1])));
    return table;
  }

  private static StreamExecutionEnvironment env(Map<String, String> more) {
    Map<String, String> settings = new HashMap<>(Map.of(
        "execution.runtime-mode", "STREAMING",
        "execution.checkpointing.interval", "200ms",
        "parallelism.default", "2",
        "restart-strategy.type", "fixed-delay",
        "restart-strategy.fixed-delay.attempts", "30",
        "restart-strategy.fixed-delay.delay", "100ms"));
    settings.putAll(more);
    return Jobs.env(settings);
  }
}
