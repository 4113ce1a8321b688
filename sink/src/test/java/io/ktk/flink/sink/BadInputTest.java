package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.types.IncompatibleSchemaException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.RowKind;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class BadInputTest {
  private static final Map<String, Queue<RejectedRecord>> REJECTED = new ConcurrentHashMap<>();
  /** "p=" and 300 characters: more than the 255 bytes a directory name may have. */
  private static final String LONG_PARTITION_VALUE = "v".repeat(300);

  @RegisterExtension
  static final MiniClusterExtension FLINK = Jobs.miniCluster();

  @TempDir
  Path dir;

  /**
   * Test rows, except: id % 100 == 7 has no partition value, 13 a timestamp with nanoseconds, 21 no
   * index value, 31 a partition value too long for a directory name; 33, 47 and 59 are a delete,
   * an update's old row and its new row.
   */
  private static RowData rowWithFaults(long id) {
    GenericRowData row = (GenericRowData) TestRows.row(id);
    switch ((int) (id % 100)) {
      case 7 -> row.setField(1, null);
      case 13 -> row.setField(5, TimestampData.fromLocalDateTime(TestRows.ts(id).plusNanos(1)));
      case 21 -> row.setField(2, null);
      case 31 -> row.setField(1, StringData.fromString(LONG_PARTITION_VALUE));
      case 33 -> row.setRowKind(RowKind.DELETE);
      case 47 -> row.setRowKind(RowKind.UPDATE_BEFORE);
      case 59 -> row.setRowKind(RowKind.UPDATE_AFTER);
      default -> { }
    }
    return row;
  }

  private static boolean faulty(long id) {
    long rest = id % 100;
    return rest == 7 || rest == 13 || rest == 21 || rest == 31 || rest == 33 || rest == 47 || rest == 59;
  }

  @Test
  void declaredTypesThatClashWithTheCommittedSchemaFailTheJobAtStart() throws Exception {
    RowType withStringC = (RowType) DataTypes.ROW(
        DataTypes.FIELD("id", DataTypes.BIGINT()),
        DataTypes.FIELD("p", DataTypes.STRING()),
        DataTypes.FIELD("c", DataTypes.STRING()),
        DataTypes.FIELD("v", DataTypes.DOUBLE()),
        DataTypes.FIELD("s", DataTypes.STRING()),
        DataTypes.FIELD("ts", DataTypes.TIMESTAMP(6))).getLogicalType();
    // Built before the dataset exists, so the clash can only show when the job starts.
    KartothekSink builtBefore = sink(ValidationPolicy.FAIL);
    StreamExecutionEnvironment first = Jobs.batch(1);
    GeneratorFunction<Long, RowData> generator = id -> GenericRowData.of(id, StringData.fromString("a"),
        StringData.fromString("c" + id), 1.0, null, TimestampData.fromEpochMillis(id));
    KartothekSink.forRowData(withStringC).store(dir.toUri().toString()).dataset("events").partitionBy("p").build()
        .addTo(first.fromSource(new DataGeneratorSource<>(generator, 10, InternalTypeInfo.of(withStringC)),
            WatermarkStrategy.noWatermarks(), "rows"));
    first.execute("creates the dataset");

    // A restart strategy is configured, but a clash is no reason to restart: the job fails at once.
    StreamExecutionEnvironment second = Jobs.env(Map.of(
        "execution.runtime-mode", "STREAMING",
        "execution.checkpointing.interval", "100ms",
        "parallelism.default", "2",
        "restart-strategy.type", "fixed-delay",
        "restart-strategy.fixed-delay.attempts", "1000",
        "restart-strategy.fixed-delay.delay", "10s"));
    builtBefore.addTo(second.fromSource(
        new DataGeneratorSource<>(TestRows.generator(), 100, TestRows.TYPE_INFO), WatermarkStrategy.noWatermarks(),
        "rows"));
    assertThatThrownBy(() -> second.execute("declares c as BIGINT"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, IncompatibleSchemaException.class))
            .get()
            .satisfies(clash -> assertThat(clash.column()).contains("c"))
            .extracting(Throwable::getMessage)
            .asString()
            .contains("dataset 'events'", "column 'c'", "string", "int64", "different type classes"));
  }

  @Test
  void deadLetterPolicySendsBadRecordsWithReasonsAndCommitsTheGoodOnes() throws Exception {
    long count = 5_000;
    StreamExecutionEnvironment env = Jobs.streaming(2, "100ms");
    DataStream<RowData> rows = env.fromSource(
        new DataGeneratorSource<>(BadInputTest::rowWithFaults, count, TestRows.TYPE_INFO),
        WatermarkStrategy.noWatermarks(), "rows");
    REJECTED.put("dead-letter", new ConcurrentLinkedQueue<>());
    sink(ValidationPolicy.DEAD_LETTER).addTo(rows)
        .map(rejected -> {
          REJECTED.get("dead-letter").add(rejected);
          return rejected;
        })
        .sinkTo(new DiscardingSink<>());
    env.execute("dead letters");

    List<RejectedRecord> rejected = new ArrayList<>(REJECTED.get("dead-letter"));
    assertThat(rejected).hasSize((int) (7 * count / 100));
    for (RejectedRecord record : rejected) {
      long id = Long.parseLong(record.record().substring("+I{id=".length(), record.record().indexOf(',')));
      assertThat(record.record()).as("row kind of %s", id).startsWith(switch ((int) (id % 100)) {
        case 33 -> "-D{";
        case 47 -> "-U{";
        case 59 -> "+U{";
        default -> "+I{";
      });
      switch ((int) (id % 100)) {
        case 7 -> assertThat(record.reason())
            .isEqualTo("Cannot write to dataset 'events': column 'p' is a partition column and may not be null");
        case 13 -> assertThat(record.reason()).contains("dataset 'events'", "column 'ts'", "would lose precision",
            LocalDateTime.of(2024, 1, 1, 0, 0).plusSeconds(id).plusNanos(1000 * (id % 1000) + 1).toString());
        case 21 -> assertThat(record.reason())
            .isEqualTo("Cannot write to dataset 'events': column 'c' is an index column and may not be null");
        case 31 -> assertThat(record.reason()).isEqualTo("Cannot use " + "v".repeat(60) + "... (300 characters) as a "
            + "partition value of column p: its directory name p=" + "v".repeat(38) + "... is 302 bytes long once "
            + "percent-encoded, and a file or directory name may have at most 255 (dataset 'events')");
        case 33 -> assertThat(record.reason()).startsWith(
            "Cannot write to dataset 'events': the row is a -D (DELETE) row, and the sink writes inserts (+I) only");
        case 47 -> assertThat(record.reason()).startsWith(
            "Cannot write to dataset 'events': the row is a -U (UPDATE_BEFORE) row");
        case 59 -> assertThat(record.reason()).startsWith(
            "Cannot write to dataset 'events': the row is a +U (UPDATE_AFTER) row");
        default -> throw new AssertionError("record " + record + " was rejected");
      }
    }
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      List<Long> committed = DatasetContents.read(store, "events").rows().stream()
          .map(DatasetContents.Row::id).sorted().toList();
      List<Long> good = java.util.stream.LongStream.range(0, count).filter(id -> !faulty(id)).boxed().toList();
      assertThat(committed).isEqualTo(good);
    }
  }

  @Test
  void failPolicyFailsTheJobWithTheReasonAndTheRecord() {
    StreamExecutionEnvironment env = Jobs.streaming(1, "100ms");
    sink(ValidationPolicy.FAIL).addTo(env.fromSource(
        new DataGeneratorSource<>(BadInputTest::rowWithFaults, 100, TestRows.TYPE_INFO),
        WatermarkStrategy.noWatermarks(), "rows"));
    assertThatThrownBy(() -> env.execute("fails"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, KtkValidationException.class))
            .get()
            .extracting(Throwable::getMessage)
            .asString()
            .startsWith("Cannot write to dataset 'events': column 'p' is a partition column and may not be null")
            .contains("(record +I{id=7, p=null, c=7"));
  }

  @Test
  void failPolicyFailsInTheWriterWithoutTheValidationStep() {
    StreamExecutionEnvironment env = Jobs.streaming(1, "100ms");
    env.fromSource(new DataGeneratorSource<>(BadInputTest::rowWithFaults, 100, TestRows.TYPE_INFO),
            WatermarkStrategy.noWatermarks(), "rows")
        .sinkTo(sink(ValidationPolicy.FAIL));
    assertThatThrownBy(() -> env.execute("fails"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, KtkValidationException.class))
            .get()
            .extracting(Throwable::getMessage)
            .asString()
            .contains("column 'p' is a partition column and may not be null", "(record +I{id=7, p=null"));
  }

  private KartothekSink sink(ValidationPolicy policy) {
    return KartothekSink.forRowData(TestRows.ROW_TYPE)
        .store(dir.toUri().toString())
        .dataset("events")
        .partitionBy("p")
        .indexBy("c")
        .validationPolicy(policy)
        .build();
  }
}
