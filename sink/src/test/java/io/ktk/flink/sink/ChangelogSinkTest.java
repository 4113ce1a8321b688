package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.Changelogs.Row;
import io.ktk.flink.sink.PublishedViews.View;
import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A changelog like a database's CDC stream ({@link Changelogs}) written by the DataStream sink into
 * a dataset with a primary key: the commit log, read by merging on key, and the published plateau
 * view, read by pyarrow, pandas and DuckDB, hold exactly the table the changelog's prefix up to
 * each checkpoint makes, through injected failures and a restart from a retained checkpoint.
 */
class ChangelogSinkTest {
  @RegisterExtension
  static final MiniClusterExtension FLINK = Jobs.miniCluster();

  @TempDir
  Path dir;

  @Test
  void aChangelogBehindSinkToIsUpsertedByKey() throws Exception {
    String name = "small-" + System.nanoTime();
    List<GenericRowData> changes = Changelogs.register(name, 7, 2_000, 3, 20_000);
    String url = dir.resolve("store").toUri().toString();
    try (PublishedViews views = new PublishedViews(ObjectStoreFactory.of(url, Map.of()), "cdc")) {
      StreamExecutionEnvironment env = Jobs.streaming(2, "100ms");
      source(env, name, changes.size(), 10).sinkTo(sink(url).build());
      env.execute("changelog via sinkTo");
      views.close();
      assertTables(url, name, changes, views.views());
    }
  }

  /**
   * The sink's maintenance compacts a dataset with a primary key while the job runs, merging by
   * key: the publications (whose folds are rewrites too) are held back to the first commit and the
   * end, so the other rewrites are the maintenance's, and every sampled version of the log still
   * holds the table of its checkpoint.
   */
  @Test
  void maintenanceInTheJobCompactsByKey() throws Exception {
    String name = "maintained-" + System.nanoTime();
    List<GenericRowData> changes = Changelogs.register(name, 11, 2_000, 3, 20_000);
    String url = dir.resolve("store").toUri().toString();
    try (PublishedViews views = new PublishedViews(ObjectStoreFactory.of(url, Map.of()), "cdc")) {
      StreamExecutionEnvironment env = Jobs.streaming(2, "100ms");
      source(env, name, changes.size(), 30).sinkTo(sink(url)
          .publishMinInterval(Duration.ofHours(1))
          .options(Map.of("maintenance.interval", "200ms", "compaction.min-input-files", "3"))
          .build());
      env.execute("changelog with maintenance");
      views.close();
      try (ObjectStore store = ObjectStoreFactory.of(url, Map.of()).open()) {
        long latest = new LogReader(store, "cdc").latest().version();
        long rewrites = 0;
        for (long v = 1; v <= latest; v++) {
          if (new LogReader(store, "cdc").at(v).lastRewriteVersion() == v) {
            rewrites++;
          }
        }
        assertThat(rewrites).as("rewrites besides the folds of the first and the last publication").isGreaterThan(2);
      }
      assertTables(url, name, changes, views.views());
    }
  }

  /**
   * The CDC stream of the issue: 100,000 keys in 6 partitions, inserts, updates, deletes,
   * re-inserts and bursts on hot keys; five failures injected; the first job cancelled halfway and
   * the second restored from its retained checkpoint. {@code -Dktk.cdc.records=N} changes the
   * length of the changelog (400,000 records by default).
   */
  @Test
  void aCdcStreamThroughFailuresAndARetainedCheckpoint() throws Exception {
    long seed = Long.getLong("ktk.seed", System.nanoTime());
    int records = Integer.getInteger("ktk.cdc.records", 400_000);
    String name = "cdc-" + seed;
    List<GenericRowData> changes = Changelogs.register(name, seed, 100_000, 6, records);
    Random random = new Random(seed);
    int[] failurePoints = random.ints(5, 1_000, records / 8).toArray();
    Faults.planRecordFailures(name, failurePoints);
    String url = dir.resolve("store").toUri().toString();
    Path checkpoints = dir.resolve("checkpoints");
    String context = "seed " + seed + ", failures after " + java.util.Arrays.toString(failurePoints) + " records";

    try (PublishedViews views = new PublishedViews(ObjectStoreFactory.of(url, Map.of()), "cdc")) {
      StreamExecutionEnvironment first = failingEnv(Map.of(
          "execution.checkpointing.dir", checkpoints.toUri().toString(),
          "execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION"));
      cdcJob(first, name, records, url);
      JobClient job = first.executeAsync("cdc, first run");
      try (ObjectStore store = ObjectStoreFactory.of(url, Map.of()).open()) {
        ChangelogChecks.awaitCommitted(store, "cdc", name, records / 2, job);
      }
      job.cancel().get();
      Path retained = ChangelogChecks.latestCheckpoint(checkpoints).orElseThrow();

      StreamExecutionEnvironment second = failingEnv(Map.of(
          "execution.state-recovery.path", retained.toUri().toString()));
      cdcJob(second, name, records, url);
      second.execute("cdc, restored from " + retained.getFileName());
      views.close();

      assertThat(Faults.recordFailures(name)).as("failures injected, " + context).isEqualTo(5);
      assertTables(url, name, changes, views.views());
    }
  }

  private static StreamExecutionEnvironment failingEnv(Map<String, String> more) {
    Map<String, String> settings = new java.util.HashMap<>(Map.of(
        "execution.runtime-mode", "STREAMING",
        "execution.checkpointing.interval", "200ms",
        "parallelism.default", "2",
        "restart-strategy.type", "fixed-delay",
        "restart-strategy.fixed-delay.attempts", "30",
        "restart-strategy.fixed-delay.delay", "100ms"));
    settings.putAll(more);
    return Jobs.env(settings);
  }

  private void cdcJob(StreamExecutionEnvironment env, String name, int records, String url) {
    DataStream<RowData> rows = source(env, name, records, 40);
    DataStream<RowData> failing = rows.map(new Faults.FailingMap(name), Changelogs.TYPE_INFO)
        .name("failing map").uid("failing-map").setParallelism(1);
    sink(url).build().addTo(failing, "cdc-sink");
  }

  /** The changelog, at parallelism 1, about {@code checkpoints} checkpoints long, with its prefixes noted. */
  private static DataStream<RowData> source(StreamExecutionEnvironment env, String name, int records,
      int checkpoints) {
    return env.fromSource(new DataGeneratorSource<>(new Changelogs.Records(name), records,
            RateLimiterStrategy.perCheckpoint(Math.max(1, records / checkpoints)), Changelogs.TYPE_INFO),
            WatermarkStrategy.noWatermarks(), "changelog")
        .uid("changelog").setParallelism(1)
        .map(new Changelogs.Prefixes(name), Changelogs.TYPE_INFO)
        .name("prefixes").uid("prefixes").setParallelism(1);
  }

  private static KartothekSinkBuilder sink(String url) {
    return KartothekSink.forRowData(Changelogs.ROW_TYPE)
        .store(url)
        .dataset("cdc")
        .partitionBy("p")
        .primaryKey("k", "p")
        .publishMinInterval(Duration.ofMillis(300));
  }

  private void assertTables(String url, String name, List<GenericRowData> changes, List<View> seen)
      throws IOException {
    try (ObjectStore store = ObjectStoreFactory.of(url, Map.of()).open()) {
      ChangelogChecks.assertTables(store, Path.of(java.net.URI.create(url)), "cdc", name, changes.size(),
          records -> Changelogs.byKey(Changelogs.state(changes, records)), Changelogs.COLUMNS, seen, dir.resolve("work"));
    }
  }
}
