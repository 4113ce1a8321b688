package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.commit.LogStats;
import io.ktk.flink.state.commit.VersionExpiredException;
import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Path;
import java.util.Map;
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
 * The sink's maintenance while the job runs: a streaming job commits a small file per partition
 * and checkpoint; its committer compacts them and expires old log versions on the side. Every
 * record is in the dataset once, the partitions hold far fewer files than were committed, and the
 * log keeps only the versions of the retention.
 */
class InJobMaintenanceTest {
  private static final int RECORDS = 30_000;
  private static final int CHECKPOINTS_OF_DATA = 30;

  @RegisterExtension
  static final MiniClusterExtension FLINK = Jobs.miniCluster();

  @TempDir
  Path dir;

  @Test
  void smallFilesAreCompactedAndOldVersionsExpireWhileTheJobRuns() throws Exception {
    StreamExecutionEnvironment env = Jobs.streaming(1, "200ms");
    DataStream<RowData> rows = env.fromSource(
        new DataGeneratorSource<>(TestRows.generator(), RECORDS,
            RateLimiterStrategy.perCheckpoint(RECORDS / CHECKPOINTS_OF_DATA), TestRows.TYPE_INFO),
        WatermarkStrategy.noWatermarks(), "rows");
    KartothekSink.forRowData(TestRows.ROW_TYPE)
        .store(dir.toUri().toString())
        .dataset("events")
        .partitionBy("p")
        .indexBy("c")
        .options(Map.of(
            "maintenance.interval", "300ms",
            "compaction.min-input-files", "3",
            "maintenance.expire.older-than", "0s",
            "maintenance.expire.retain-last", "5"))
        .build()
        .addTo(rows);
    env.execute("maintenance in the job");

    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetContents contents = DatasetContents.read(store, "events");
      contents.assertExactlyOnce(RECORDS);
      contents.assertIndexOfC();
      DatasetState state = new LogReader(store, "events").latest();
      assertThat(state.lastRewriteVersion()).as("a compaction committed").isPositive();
      // Without compaction every checkpoint leaves a file in each of the 7 partitions.
      assertThat(state.files()).as("files after compaction").hasSizeLessThan(7 * CHECKPOINTS_OF_DATA / 2);
      assertThat(state.retainedFrom()).as("expired versions").isPositive();
      LogStats log = LogStats.of(store, "events");
      assertThat(log.entries()).as("entries kept").isLessThan((int) state.version());
      assertThatThrownBy(() -> new LogReader(store, "events").at(0)).isInstanceOf(VersionExpiredException.class);
    }
  }
}
