package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.sink.config.WriteMode;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.types.FlinkArrowTypes;
import io.ktk.flink.state.types.InvalidValueException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a sink with a primary key refuses, and how: a key that cannot work (when built), a sink
 * whose key differs from the dataset's (when built and when started), and records whose key
 * columns are null (dead letters naming dataset, column and row kind, or a failed job).
 */
class PrimaryKeySinkTest {
  private static final Map<String, List<RejectedRecord>> REJECTED = new ConcurrentHashMap<>();
  private static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("k", DataTypes.BIGINT()),
      DataTypes.FIELD("p", DataTypes.STRING()),
      DataTypes.FIELD("v", DataTypes.STRING())).getLogicalType();

  @RegisterExtension
  static final MiniClusterExtension FLINK = Jobs.miniCluster();

  @TempDir
  Path dir;

  private KartothekSinkBuilder sink() {
    return KartothekSink.forRowData(ROW_TYPE).store(dir.toUri().toString()).dataset("keyed").partitionBy("p");
  }

  @Test
  void aKeyThatCannotWorkIsRefusedWhenTheSinkIsBuilt() {
    assertThatThrownBy(() -> sink().primaryKey("k").build())
        .isInstanceOf(KtkValidationException.class)
        .hasMessage("Cannot use the primary key [k] for dataset 'keyed': it lacks the partition column 'p'. The key "
            + "must contain every partition column: an update could otherwise move a row to another partition, and "
            + "its old row would stay in the old partition (a checkpoint writes only what changed)");
    assertThatThrownBy(() -> sink().primaryKey("k", "x").build())
        .hasMessage("Cannot build the sink of dataset 'keyed': primary key column 'x' is not a column of [k, p, v]");
    assertThatThrownBy(() -> sink().primaryKey("k", "p").writeMode(WriteMode.REPLACE_PARTITIONS).build())
        .hasMessageStartingWith("Cannot build the sink of dataset 'keyed': a sink with a primary key writes changes "
            + "by key and needs the write mode APPEND, not REPLACE_PARTITIONS");
    RowType reserved = (RowType) DataTypes.ROW(DataTypes.FIELD("k", DataTypes.BIGINT()),
        DataTypes.FIELD(PrimaryKey.DELETED_COLUMN, DataTypes.BOOLEAN())).getLogicalType();
    assertThatThrownBy(() -> KartothekSink.forRowData(reserved).store(dir.toUri().toString()).dataset("keyed")
        .build())
        .hasMessageStartingWith("Cannot build the sink of dataset 'keyed': column '__ktk_deleted' is reserved");
    assertThat(sink().options(Map.of("primary-key", "k,p")).build().config().primaryKey()).containsExactly("k", "p");
  }

  @Test
  void aSinkMustDeclareTheKeyTheDatasetHas() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      CommitLog log = CommitLog.open(store, "keyed", CommitLogOptions.DEFAULTS);
      log.commit(DatasetChange.append(List.of("p"), FlinkArrowTypes.toSchema(ROW_TYPE), List.of())
          .withMetadata(Map.of(PrimaryKey.METADATA_KEY, PrimaryKey.toJson(List.of("k", "p")))));
      CommitLog plain = CommitLog.open(store, "plain", CommitLogOptions.DEFAULTS);
      plain.commit(DatasetChange.append(List.of("p"), FlinkArrowTypes.toSchema(ROW_TYPE),
          List.of(new DataFile("p=a/0", 1, 10, null))));
    }
    assertThatThrownBy(() -> sink().build())
        .hasMessageStartingWith("Cannot write to dataset 'keyed': it has the primary key [k, p] (ktk_primary_key), "
            + "but the sink declares none; declare the dataset's key");
    assertThatThrownBy(() -> sink().primaryKey("p", "k").build())
        .hasMessageStartingWith("Cannot write to dataset 'keyed': it has the primary key [k, p] (ktk_primary_key), "
            + "but the sink declares the primary key [p, k]");
    assertThatThrownBy(() -> sink().dataset("plain").primaryKey("k", "p").build())
        .hasMessageStartingWith("Cannot write to dataset 'plain' with the primary key [k, p]: the dataset has no "
            + "primary key and holds 1 files already");
    assertThat(sink().primaryKey("k", "p").build().config().hasPrimaryKey()).isTrue();
  }

  /** Record {@code i}: key {@code i % 10} in partition a; a null key every 7th (a -D) and 11th (a +U). */
  private static RowData change(long i) {
    boolean nullKey = i % 7 == 3 || i % 11 == 5;
    RowKind kind = i % 7 == 3 ? RowKind.DELETE : i % 11 == 5 ? RowKind.UPDATE_AFTER : RowKind.INSERT;
    GenericRowData row = GenericRowData.ofKind(kind, nullKey ? null : i % 10, StringData.fromString("a"),
        StringData.fromString("v" + i));
    return row;
  }

  @Test
  void nullKeysAreDeadLettersNamingDatasetColumnAndRowKind() throws Exception {
    String run = "dead-letters-" + System.nanoTime();
    REJECTED.put(run, Collections.synchronizedList(new ArrayList<>()));
    StreamExecutionEnvironment env = Jobs.streaming(2, "100ms");
    GeneratorFunction<Long, RowData> changes = PrimaryKeySinkTest::change;
    DataStream<RowData> rows = env.fromSource(new DataGeneratorSource<>(changes, 100, InternalTypeInfo.of(ROW_TYPE)),
        WatermarkStrategy.noWatermarks(), "changes").setParallelism(1);
    sink().primaryKey("k", "p").validationPolicy(ValidationPolicy.DEAD_LETTER).build().addTo(rows)
        .map(record -> {
          REJECTED.get(run).add(record);
          return record;
        }).setParallelism(1);
    env.execute("null keys");

    List<RejectedRecord> rejected = REJECTED.get(run);
    assertThat(rejected).hasSize(22).allSatisfy(record -> assertThat(record.reason()).matches(
        "Cannot write to dataset 'keyed': column 'k' is a primary key column and may not be null \\(in a "
            + "(-D \\(DELETE\\)|\\+U \\(UPDATE_AFTER\\)) row\\): a change without its key cannot be applied"));
    assertThat(rejected).filteredOn(record -> record.record().startsWith("-D{")).hasSize(14);
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      Map<List<Object>, List<Object>> table = ChangeLogReader.read(store, new LogReader(store, "keyed").latest(),
          List.of("k", "p", "v"));
      Map<List<Object>, List<Object>> expected = new java.util.HashMap<>();
      for (long i = 0; i < 100; i++) {
        if (!(i % 7 == 3 || i % 11 == 5)) {
          expected.put(List.of(i % 10, "a"), List.of(i % 10, "a", "v" + i));
        }
      }
      Changelogs.assertTable("the keys written", table, expected);
    }
  }

  @Test
  void aNullKeyFailsTheJobBehindSinkTo() {
    StreamExecutionEnvironment env = Jobs.streaming(2, "100ms");
    GeneratorFunction<Long, RowData> changes = PrimaryKeySinkTest::change;
    env.fromSource(new DataGeneratorSource<>(changes, 100, InternalTypeInfo.of(ROW_TYPE)),
            WatermarkStrategy.noWatermarks(), "changes").setParallelism(1)
        .sinkTo(sink().primaryKey("k", "p").build());
    assertThatThrownBy(() -> env.execute("fails"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, InvalidValueException.class)).get()
            .extracting(Throwable::getMessage).asString()
            .startsWith("Cannot write to dataset 'keyed': column 'k' is a primary key column and may not be null "
                + "(in a -D (DELETE) row)"));
  }
}
