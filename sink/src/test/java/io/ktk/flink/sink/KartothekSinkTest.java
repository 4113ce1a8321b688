package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Path;
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

class KartothekSinkTest {
  @RegisterExtension
  static final MiniClusterExtension FLINK = Jobs.miniCluster();

  @TempDir
  Path dir;

  @Test
  void boundedStreamingJobCommitsEveryRecordOnceOverSeveralCheckpoints() throws Exception {
    long count = 20_000;
    StreamExecutionEnvironment env = Jobs.streaming(2, "100ms");
    DataStream<RowData> rows = env.fromSource(
        new DataGeneratorSource<>(TestRows.generator(), count, RateLimiterStrategy.perCheckpoint(4_000),
            TestRows.TYPE_INFO),
        WatermarkStrategy.noWatermarks(), "rows");
    sink("events").addTo(rows);
    env.execute("streaming");

    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetContents contents = DatasetContents.read(store, "events");
      contents.assertExactlyOnce(count);
      contents.assertIndexOfC();
      assertThat(contents.snapshot().version()).as("one version per checkpoint with data").isGreaterThan(2);
    }
    PyArrowReader.assertExactlyOnce(dir, "events", count);
  }

  @Test
  void batchJobCommitsEveryRecordOnceAtTheEnd() throws Exception {
    long count = 10_000;
    StreamExecutionEnvironment env = Jobs.batch(2);
    DataStream<RowData> rows = env.fromSource(
        new DataGeneratorSource<>(TestRows.generator(), count, TestRows.TYPE_INFO), WatermarkStrategy.noWatermarks(),
        "rows");
    sink("events").addTo(rows);
    env.execute("batch");

    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetContents contents = DatasetContents.read(store, "events");
      contents.assertExactlyOnce(count);
      contents.assertIndexOfC();
      assertThat(contents.snapshot().version()).as("one commit at the end").isZero();
    }
  }

  private KartothekSink sink(String uuid) {
    return KartothekSink.forRowData(TestRows.ROW_TYPE)
        .store(dir.toUri().toString())
        .dataset(uuid)
        .partitionBy("p")
        .indexBy("c")
        .build();
  }
}
