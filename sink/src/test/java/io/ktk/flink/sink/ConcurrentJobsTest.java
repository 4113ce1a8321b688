package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Path;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two jobs append to one dataset at the same time, both creating it with their first commit and
 * then racing for versions: both finish and every record of both is in the dataset once.
 */
class ConcurrentJobsTest {
  private static final int RECORDS_PER_JOB = 30_000;

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberSlotsPerTaskManager(8).build());

  @TempDir
  Path dir;

  private JobClient start(long firstId) throws Exception {
    StreamExecutionEnvironment env = Jobs.streaming(2, "100ms");
    KartothekSink.forRowData(TestRows.ROW_TYPE)
        .store(dir.toUri().toString())
        .dataset("events")
        .partitionBy("p")
        .indexBy("c")
        .build()
        .addTo(env.fromSource(
            new DataGeneratorSource<>(id -> TestRows.row(firstId + id), RECORDS_PER_JOB,
                RateLimiterStrategy.perCheckpoint(RECORDS_PER_JOB / 10), TestRows.TYPE_INFO),
            WatermarkStrategy.noWatermarks(), "rows"));
    return env.executeAsync("appends from " + firstId);
  }

  @Test
  void twoJobsAppendingAtOnceLoseNoCommit() throws Exception {
    JobClient first = start(0);
    JobClient second = start(RECORDS_PER_JOB);
    first.getJobExecutionResult().get();
    second.getJobExecutionResult().get();

    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetContents contents = DatasetContents.read(store, "events");
      contents.assertExactlyOnce(2L * RECORDS_PER_JOB);
      contents.assertIndexOfC();
      assertThat(contents.snapshot().version()).as("versions of both jobs").isGreaterThan(4);
    }
  }
}
