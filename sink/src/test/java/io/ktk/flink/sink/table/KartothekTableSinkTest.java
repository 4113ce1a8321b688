package io.ktk.flink.sink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.config.UnknownOptionException;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class KartothekTableSinkTest {
  private static final long ROWS = 6_000;

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberSlotsPerTaskManager(4).build());

  @TempDir
  Path dir;

  private StreamTableEnvironment tables(boolean batch) {
    Map<String, String> settings = new HashMap<>(Map.of(
        "execution.runtime-mode", batch ? "BATCH" : "STREAMING",
        "parallelism.default", "2",
        "restart-strategy.type", "none"));
    if (!batch) {
      settings.put("execution.checkpointing.interval", "100ms");
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(settings));
    StreamTableEnvironment tables = StreamTableEnvironment.create(env,
        batch ? EnvironmentSettings.inBatchMode() : EnvironmentSettings.inStreamingMode());
    tables.executeSql("CREATE TABLE numbers (id BIGINT) WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence', "
        + "'fields.id.start' = '0', 'fields.id.end' = '" + (ROWS - 1) + "', 'number-of-rows' = '" + ROWS + "', "
        + "'rows-per-second' = '20000')");
    tables.executeSql("CREATE TABLE events (id BIGINT, p STRING, v DOUBLE) PARTITIONED BY (p) WITH ("
        + "'connector' = 'kartothek', 'store' = '" + dir.toUri() + "', 'dataset' = 'events', "
        + "'index-columns' = 'id', 'compression' = 'ZSTD')");
    return tables;
  }

  @Test
  void insertIntoInStreamingMode() throws Exception {
    tables(false).executeSql("INSERT INTO events SELECT id, CONCAT('p', CAST(MOD(id, 3) AS STRING)), "
        + "CAST(id AS DOUBLE) / 2 FROM numbers").await();
    assertEveryRowOnce();
  }

  @Test
  void insertIntoInBatchMode() throws Exception {
    tables(true).executeSql("INSERT INTO events SELECT id, CONCAT('p', CAST(MOD(id, 3) AS STRING)), "
        + "CAST(id AS DOUBLE) / 2 FROM numbers").await();
    assertEveryRowOnce();
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      assertThat(DatasetSnapshot.latest(store, "events").version()).as("one commit at the end").isZero();
    }
  }

  @Test
  void anUpdatingQueryIsRefusedWhenPlanned() {
    StreamTableEnvironment tables = tables(false);
    assertThatThrownBy(() -> tables.executeSql(
            "INSERT INTO events SELECT MAX(id), p, 0.5 FROM (SELECT id, CAST(MOD(id, 3) AS STRING) AS p FROM numbers) "
                + "GROUP BY p"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, KtkValidationException.class)).get()
            .extracting(Throwable::getMessage).asString()
            .contains("table default_catalog.default_database.events", "dataset 'events'", "inserts only",
                "UPDATE_AFTER"));
  }

  @Test
  void theDeadLetterPolicyIsRefusedInSql() {
    StreamTableEnvironment tables = tables(false);
    tables.executeSql("CREATE TABLE lenient (id BIGINT, p STRING) PARTITIONED BY (p) WITH ("
        + "'connector' = 'kartothek', 'store' = '" + dir.toUri() + "', 'dataset' = 'lenient', "
        + "'validation-policy' = 'DEAD_LETTER')");
    assertThatThrownBy(() -> tables.executeSql("INSERT INTO lenient SELECT id, 'a' FROM numbers"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, KtkValidationException.class)).get()
            .extracting(Throwable::getMessage).asString().contains("DEAD_LETTER needs the DataStream API"));
  }

  @Test
  void misspeltOptionsAreRefusedWhenPlannedWithTheClosestKey() {
    StreamTableEnvironment tables = tables(false);
    tables.executeSql("CREATE TABLE typo (id BIGINT, p STRING) PARTITIONED BY (p) WITH ("
        + "'connector' = 'kartothek', 'store' = '" + dir.toUri() + "', 'dataset' = 'typo', "
        + "'index-colums' = 'id')");
    assertThatThrownBy(() -> tables.executeSql("INSERT INTO typo SELECT id, 'a' FROM numbers"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, UnknownOptionException.class)).get()
            .extracting(Throwable::getMessage).asString()
            .startsWith("Cannot create the sink of table default_catalog.default_database.typo: unknown option "
                + "'index-colums' (did you mean 'index-columns'?)"));
    tables.executeSql("CREATE TABLE s3typo (id BIGINT, p STRING) PARTITIONED BY (p) WITH ("
        + "'connector' = 'kartothek', 'store' = 's3://bucket/data', 'store.regoin' = 'eu-west-1', "
        + "'dataset' = 'typo')");
    assertThatThrownBy(() -> tables.executeSql("INSERT INTO s3typo SELECT id, 'a' FROM numbers"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, UnknownOptionException.class)).get()
            .extracting(Throwable::getMessage).asString()
            .contains("unknown option 'store.regoin' (did you mean 'store.region'?)"));
  }

  private void assertEveryRowOnce() throws Exception {
    List<Long> ids = new ArrayList<>();
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetSnapshot snapshot = DatasetSnapshot.latest(store, "events");
      assertThat(snapshot.partitionKeys()).extracting(f -> f.getName()).containsExactly("p");
      for (Partition partition : snapshot.partitions()) {
        for (DataFile file : partition.files()) {
          try (ParquetRowsReader reader = ParquetRowsReader.open(store, file.key("events"))) {
            for (List<Object> row : reader.readAll(List.of("id", "v"))) {
              long id = (Long) row.get(0);
              assertThat(partition.values()).as("partition of %d", id).containsExactly("p" + id % 3);
              assertThat(row.get(1)).isEqualTo(id / 2.0);
              ids.add(id);
            }
          }
        }
      }
      assertThat(snapshot.index("id")).hasSize((int) ROWS);
    }
    assertThat(ids).containsExactlyInAnyOrderElementsOf(LongStream.range(0, ROWS).boxed().toList());
  }
}
