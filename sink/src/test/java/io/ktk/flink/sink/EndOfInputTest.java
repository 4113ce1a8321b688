package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.GatedRateLimiter;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiter;
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
 * A bounded job whose two writer subtasks reach end of input at different checkpoints: one
 * source reader emits its half at once and finishes before the first checkpoint, the other emits
 * a tenth of its half per checkpoint. (Apache Iceberg 1.11's FlinkSink was seen losing rows in
 * this situation.)
 */
class EndOfInputTest {
  private static final int RECORDS = 40_000;
  private static final int SLOW_STEPS = 10;
  private static final AtomicInteger READERS = new AtomicInteger();

  @RegisterExtension
  static final MiniClusterExtension FLINK = Jobs.miniCluster();

  @TempDir
  Path dir;

  /** The first reader created is not limited; the others emit a fixed share per checkpoint. */
  private static RateLimiterStrategy oneFastOneSlow() {
    return parallelism -> READERS.getAndIncrement() == 0
        ? unlimited()
        : new GatedRateLimiter(RECORDS / parallelism / SLOW_STEPS);
  }

  private static RateLimiter unlimited() {
    return () -> CompletableFuture.completedFuture(null);
  }

  @Test
  void writersEndingAtDifferentCheckpointsCommitEveryRecord() throws Exception {
    StreamExecutionEnvironment env = Jobs.streaming(2, "100ms");
    DataStream<RowData> rows = env.fromSource(
        new DataGeneratorSource<>(TestRows.generator(), RECORDS, oneFastOneSlow(), TestRows.TYPE_INFO),
        WatermarkStrategy.noWatermarks(), "rows");
    KartothekSink.forRowData(TestRows.ROW_TYPE)
        .store(dir.toUri().toString())
        .dataset("events")
        .partitionBy("p")
        .indexBy("c")
        .build()
        .addTo(rows);
    env.execute("uneven end of input");

    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetContents contents = DatasetContents.read(store, "events");
      contents.assertExactlyOnce(RECORDS);
      contents.assertIndexOfC();
      // The fast half is committed long before the last version: the subtasks ended apart.
      long last = contents.snapshot().version();
      long fastHalfCommitted = -1;
      for (long version = 0; version <= last && fastHalfCommitted < 0; version++) {
        if (DatasetSnapshot.at(store, "events", version).rows() >= RECORDS / 2) {
          fastHalfCommitted = version;
        }
      }
      assertThat(last - fastHalfCommitted).as("versions after the fast half, of %d", last).isGreaterThanOrEqualTo(3);
    }
  }
}
