package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import io.ktk.flink.state.testing.S3Proxy;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once under failure: a bounded stream of {@link #RECORDS} records, parallelism 2,
 * checkpoints every 200 ms, five failures at random record counts in the pipeline and three
 * crashes of the committer around its commits (before a claim: the checkpoint completed but its
 * commit did not happen; after a claim: the commit happened but Flink did not learn of it). Every
 * record must be in the dataset exactly once, read with this project's reader and with pyarrow.
 *
 * <p>{@code -Dktk.exactly-once.records=N} changes the record count (1,000,000 by default);
 * {@code -Dktk.seed=...} repeats a run's failure points (each run prints its seed on failure).
 */
class ExactlyOnceTest {
  static final int RECORDS = Integer.getInteger("ktk.exactly-once.records", 1_000_000);
  private static final int CHECKPOINTS_OF_DATA = 25;

  @RegisterExtension
  static final MiniClusterExtension FLINK = Jobs.miniCluster();

  @RegisterExtension
  static final S3Proxy S3 = S3Proxy.inMemory();

  @TempDir
  Path dir;

  @Test
  void everyRecordOnceDespiteFailuresOnALocalDirectory() throws Exception {
    String url = dir.toUri().toString();
    runWithFailures("local", ObjectStoreFactory.of(url, Map.of()));
    PyArrowReader.assertExactlyOnce(dir, "events", RECORDS);
  }

  @Test
  void everyRecordOnceDespiteFailuresOnS3() throws Exception {
    runWithFailures("s3", ObjectStoreFactory.of(S3.url("exactly-once"), S3.options()));
    PyArrowReader.assertExactlyOnce(S3, "exactly-once", "events", RECORDS);
  }

  private void runWithFailures(String name, ObjectStoreFactory store) throws Exception {
    long seed = Long.getLong("ktk.seed", System.nanoTime());
    Random random = new Random(seed);
    int[] failurePoints = random.ints(5, 2_000, 3 * RECORDS / CHECKPOINTS_OF_DATA / 2).toArray();
    String plan = name + "-" + seed;
    Faults.planRecordFailures(plan, failurePoints);
    Faults.planCommitCrashes(plan, Map.of(2L, Faults.When.AFTER, 5L, Faults.When.BEFORE, 8L, Faults.When.AFTER));
    String context = "seed " + seed + ", failures after " + Arrays.toString(failurePoints) + " records";

    StreamExecutionEnvironment env = Jobs.env(Map.of(
        "execution.runtime-mode", "STREAMING",
        "execution.checkpointing.interval", "200ms",
        "parallelism.default", "2",
        "restart-strategy.type", "fixed-delay",
        "restart-strategy.fixed-delay.attempts", "30",
        "restart-strategy.fixed-delay.delay", "100ms"));
    DataStream<RowData> rows = env
        .fromSource(new DataGeneratorSource<>(TestRows.generator(), RECORDS,
                RateLimiterStrategy.perCheckpoint(RECORDS / CHECKPOINTS_OF_DATA), TestRows.TYPE_INFO),
            WatermarkStrategy.noWatermarks(), "rows")
        .map(new Faults.FailingMap(plan), TestRows.TYPE_INFO)
        .name("failing map");
    KartothekSink.forRowData(TestRows.ROW_TYPE)
        .store(new Faults.CrashingStoreFactory(store, plan))
        .dataset("events")
        .partitionBy("p")
        .indexBy("c")
        .build()
        .addTo(rows);
    env.execute("exactly once " + name);

    assertThat(Faults.recordFailures(plan)).as("record failures injected, " + context).isEqualTo(5);
    assertThat(Faults.commitCrashes(plan)).as("commit crashes injected, " + context).containsExactlyInAnyOrder(2L, 5L, 8L);
    try (ObjectStore opened = store.open()) {
      DatasetContents contents = DatasetContents.read(opened, "events");
      System.out.println(name + ": " + contents.snapshot() + ", " + context);
      contents.assertExactlyOnce(RECORDS);
      contents.assertIndexOfC();
    }
  }
}
