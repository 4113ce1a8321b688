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
      awaitCommitted(url, name, records / 2, job);
      job.cancel().get();
      Path retained = latestCheckpoint(checkpoints).orElseThrow();

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

  /** Waits until a committed version holds at least {@code records} records of the changelog. */
  private static void awaitCommitted(String url, String name, long records, JobClient job) throws Exception {
    try (ObjectStore store = ObjectStoreFactory.of(url, Map.of()).open()) {
      long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
      while (System.nanoTime() < deadline) {
        assertThat(job.getJobStatus().get().isGloballyTerminalState()).as("the first job is still running").isFalse();
        var state = new LogReader(store, "cdc").latest();
        Optional<Long> checkpoint = state.checkpoints().values().stream().max(Long::compare);
        Long prefix = checkpoint.map(c -> Changelogs.prefix(name, c)).orElse(null);
        if (prefix != null && prefix >= records) {
          return;
        }
        Thread.sleep(100);
      }
    }
    throw new AssertionError("the first job did not commit " + records + " records in 5 minutes");
  }

  /**
   * Checks sampled versions of the log (merged by key) and sampled published views (with pyarrow,
   * pandas and DuckDB) against the changelog's table at their checkpoints, and the last of each
   * against the whole changelog.
   */
  private void assertTables(String url, String name, List<GenericRowData> changes, List<View> seen)
      throws IOException {
    try (ObjectStore store = ObjectStoreFactory.of(url, Map.of()).open()) {
      var latest = new LogReader(store, "cdc").latest();
      assertThat(PrimaryKey.of("cdc", latest.metadata())).contains(List.of("k", "p"));
      Changelogs.assertTable("the log's latest version", ChangeLogReader.read(store, latest),
          Changelogs.state(changes, changes.size()));

      List<Long> versions = new ArrayList<>();
      for (long v = 0; v < latest.version(); v += Math.max(1, latest.version() / 8)) {
        versions.add(v);
      }
      int checked = 0;
      for (long v : versions) {
        Optional<Long> prefix = prefixAt(store, name, v);
        if (prefix.isPresent()) {
          Changelogs.assertTable("the log at version " + v, ChangeLogReader.read(store, "cdc", v),
              Changelogs.state(changes, prefix.get()));
          checked++;
        }
      }
      assertThat(checked).as("sampled versions of the log checked").isGreaterThanOrEqualTo(versions.size() / 2);

      List<View> sampled = new ArrayList<>();
      List<Map<Long, Row>> expected = new ArrayList<>();
      assertThat(seen).as("views published").isNotEmpty();
      View last = seen.get(seen.size() - 1);
      assertThat(last.version()).as("the last view shows the latest version (or one with its state)")
          .isLessThanOrEqualTo(latest.version());
      Consumer<View> sample = view -> {
        try {
          Optional<Long> prefix = prefixAt(store, name, view.version());
          if (prefix.isPresent()) {
            sampled.add(view);
            expected.add(Changelogs.state(changes, prefix.get()));
          }
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      };
      for (int i = 0; i < seen.size() - 1; i += Math.max(1, seen.size() / 6)) {
        sample.accept(seen.get(i));
      }
      sample.accept(last);
      assertThat(sampled).as("sampled views with a known checkpoint").contains(last).hasSizeGreaterThan(1);
      assertThat(new LogReader(store, "cdc").at(0).files().values()).as("the first commit's files are change files")
          .allMatch(file -> file.physicalSchema().getFields().stream()
              .anyMatch(field -> field.getName().equals(PrimaryKey.DELETED_COLUMN)));
      Changelogs.assertTable("the table of the last view's version", expected.get(expected.size() - 1),
          Changelogs.state(changes, changes.size()));
      PublishedViews.assertViews(Path.of(java.net.URI.create(url)), sampled, expected, dir.resolve("work"));
    }
  }

  /** How many changelog records the version holds: those before the barrier of its checkpoint. */
  private static Optional<Long> prefixAt(ObjectStore store, String name, long version) throws IOException {
    return ChangeLogReader.checkpointOf(store, "cdc", version).map(c -> Changelogs.prefix(name, c));
  }

  private static final Pattern CHECKPOINT = Pattern.compile("chk-(\\d+)");

  /** The latest complete checkpoint Flink retained under {@code dir} ({@code <job>/chk-<n>/_metadata}). */
  private static Optional<Path> latestCheckpoint(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir, 2)) {
      return files.filter(path -> CHECKPOINT.matcher(path.getFileName().toString()).matches())
          .filter(path -> Files.isRegularFile(path.resolve("_metadata")))
          .max(Comparator.comparingLong(path -> {
            Matcher matcher = CHECKPOINT.matcher(path.getFileName().toString());
            matcher.matches();
            return Long.parseLong(matcher.group(1));
          }));
    }
  }
}
