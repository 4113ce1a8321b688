package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.sink.config.WriteMode;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.MemorySize;
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

  @Test
  void replacePartitionsReplacesWhatThePartitionsWrittenHeld() throws Exception {
    StreamExecutionEnvironment first = Jobs.batch(2);
    sink("events").addTo(first.fromSource(
        new DataGeneratorSource<>(TestRows.generator(), 7_000, TestRows.TYPE_INFO), WatermarkStrategy.noWatermarks(),
        "rows"));
    first.execute("append");

    StreamExecutionEnvironment second = Jobs.batch(2);
    DataStream<RowData> replacement = second
        .fromSource(new DataGeneratorSource<>(id -> TestRows.row(10_000 + id), 700, TestRows.TYPE_INFO),
            WatermarkStrategy.noWatermarks(), "rows")
        .filter(row -> row.getString(1).toString().equals("p1") || row.getString(1).toString().equals("p2"));
    KartothekSink.forRowData(TestRows.ROW_TYPE)
        .store(dir.toUri().toString())
        .dataset("events")
        .partitionBy("p")
        .indexBy("c")
        .writeMode(WriteMode.REPLACE_PARTITIONS)
        .build()
        .addTo(replacement);
    second.execute("replace p1 and p2");

    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetContents contents = DatasetContents.read(store, "events");
      Map<String, List<Long>> idsByPartition = new TreeMap<>();
      for (DatasetContents.Row row : contents.rows()) {
        idsByPartition.computeIfAbsent(row.p(), p -> new ArrayList<>()).add(row.id());
      }
      for (int p = 0; p < TestRows.PARTITIONS; p++) {
        int partition = p;
        LongStream ids = p == 1 || p == 2
            ? LongStream.range(10_000, 10_700).filter(id -> id % 7 == partition)
            : LongStream.range(0, 7_000).filter(id -> id % 7 == partition);
        assertThat(idsByPartition.get("p" + p)).as("ids of p%d", p).containsExactlyInAnyOrderElementsOf(
            ids.boxed().toList());
      }
      contents.assertIndexOfC();
      assertThat(contents.snapshot().version()).isEqualTo(1);
    }
  }

  @Test
  void aSmallMemoryBudgetWritesPartFilesAndLosesNothing() throws Exception {
    long count = 20_000;
    StreamExecutionEnvironment env = Jobs.batch(1);
    KartothekSink.forRowData(TestRows.ROW_TYPE)
        .store(dir.toUri().toString())
        .dataset("events")
        .partitionBy("p")
        .indexBy("c")
        .memoryBudget(MemorySize.parse("64kb"))
        .build()
        .addTo(env.fromSource(new DataGeneratorSource<>(TestRows.generator(), count, TestRows.TYPE_INFO),
            WatermarkStrategy.noWatermarks(), "rows"));
    env.execute("small budget");

    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetContents contents = DatasetContents.read(store, "events");
      contents.assertExactlyOnce(count);
      contents.assertIndexOfC();
      assertThat(contents.snapshot().version()).as("one commit").isZero();
      assertThat(contents.snapshot().fileCount()).as("part files").isGreaterThan(5 * TestRows.PARTITIONS);
    }
  }

  @Test
  void writerIdsStartWithTheGivenPrefixSoThatAJobCanFindItsCommits() throws Exception {
    StreamExecutionEnvironment env = Jobs.streaming(2, "100ms");
    KartothekSink.forRowData(TestRows.ROW_TYPE).store(dir.toUri().toString()).dataset("events").partitionBy("p")
        .writerIdPrefix("ingest-7f3a-")
        .build()
        .addTo(env.fromSource(new DataGeneratorSource<>(TestRows.generator(), 5_000,
            RateLimiterStrategy.perCheckpoint(2_000), TestRows.TYPE_INFO), WatermarkStrategy.noWatermarks(), "rows"));
    env.execute("with a writer id prefix");

    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetState state = new LogReader(store, "events").latest();
      assertThat(state.version()).as("several commits").isGreaterThan(1);
      assertThat(state.checkpoints().keySet()).isNotEmpty().allSatisfy(id -> assertThat(id).startsWith("ingest-7f3a-"));
    }
    assertThatThrownBy(() -> KartothekSink.forRowData(TestRows.ROW_TYPE).store(dir.toUri().toString())
        .dataset("events").writerIdPrefix("a/b").build())
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("the writer id prefix may hold up to 64 of the characters A-Z a-z 0-9 . _ -, not 'a/b'");
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
