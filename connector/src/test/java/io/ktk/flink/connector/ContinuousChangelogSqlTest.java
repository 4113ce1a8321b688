package io.ktk.flink.connector;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.planner.PlainDatasetSnapshot;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.dataset.NoSuchDatasetException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dataset table with a primary key scanned {@code CONTINUOUS} is an upsert changelog: {@code
 * INSERT INTO copy SELECT * FROM src} keeps another keyed dataset equal to it through rounds of
 * inserts, updates, deletes and re-inserts, and a filtered copy ({@code WHERE v > ...}, left to
 * Flink) equal to its rows that pass.
 */
class ContinuousChangelogSqlTest {
  @RegisterExtension
  static final MiniClusterExtension FLINK = Sql.miniCluster();

  private static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("k", DataTypes.BIGINT().notNull()),
      DataTypes.FIELD("p", DataTypes.STRING().notNull()),
      DataTypes.FIELD("v", DataTypes.BIGINT()),
      DataTypes.FIELD("s", DataTypes.STRING())).getLogicalType();
  private static final long THRESHOLD = 500;

  @TempDir
  Path dir;

  private final Random random = new Random(11);
  /** The source table, by key {@code [k, p]}. */
  private final Map<List<Object>, List<Object>> table = new HashMap<>();

  private String create(String name, String dataset, String options) {
    return "CREATE TABLE " + name + " (k BIGINT NOT NULL, p STRING NOT NULL, v BIGINT, s STRING"
        + ", PRIMARY KEY (k, p) NOT ENFORCED) PARTITIONED BY (p) WITH ('connector' = 'kartothek', 'store' = '"
        + dir.toUri() + "', 'dataset' = '" + dataset + "'" + options + ")";
  }

  /** A round of changes over 2,000 keys in 3 partitions, written into dataset {@code src} by the changelog sink. */
  private void round(int changes) throws Exception {
    List<RowData> rows = new ArrayList<>();
    for (int i = 0; i < changes; i++) {
      long k = random.nextInt(2_000);
      List<Object> key = List.of(k, "p" + k % 3);
      List<Object> old = table.get(key);
      if (old != null && random.nextInt(4) == 0) {
        rows.add(rowData(RowKind.DELETE, old));
        table.remove(key);
        continue;
      }
      if (old != null) {
        rows.add(rowData(RowKind.UPDATE_BEFORE, old));
      }
      List<Object> row = Arrays.asList(k, key.get(1), random.nextInt(5) == 0 ? null : (long) random.nextInt(1_000),
          "s" + random.nextInt(100));
      rows.add(rowData(old == null ? RowKind.INSERT : RowKind.UPDATE_AFTER, row));
      table.put(key, row);
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(Map.of(
        "execution.runtime-mode", "STREAMING", "parallelism.default", "2")));
    KartothekSink.forRowData(ROW_TYPE).store(dir.toUri().toString()).dataset("src").partitionBy("p")
        .primaryKey("k", "p").build().addTo(env.fromData(rows, InternalTypeInfo.of(ROW_TYPE)).setParallelism(1));
    env.execute("round of changes");
  }

  private static RowData rowData(RowKind kind, List<Object> row) {
    return GenericRowData.ofKind(kind, row.get(0), StringData.fromString((String) row.get(1)), row.get(2),
        StringData.fromString((String) row.get(3)));
  }

  /** Dataset {@code uuid}'s latest state by key, or null while it does not exist. */
  private Map<List<Object>, List<Object>> read(String uuid) throws Exception {
    Map<List<Object>, List<Object>> rows = new HashMap<>();
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      new CubeReader(store, PlainDatasetSnapshot.latest(store, uuid)
          .plan(DatasetQuery.builder().columns("k", "p", "v", "s").build().toCubeQuery()))
          .rows().forEachRemaining(row -> rows.put(row.subList(0, 2), row));
    } catch (NoSuchDatasetException e) {
      return null;
    }
    return rows;
  }

  /** Waits until dataset {@code uuid} holds {@code expected} (the copying job commits at its checkpoints). */
  private void awaitTable(String uuid, Map<List<Object>, List<Object>> expected, JobClient job) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
    Map<List<Object>, List<Object>> actual = read(uuid);
    while (!expected.equals(actual)) {
      assertThat(job.getJobStatus().get().isGloballyTerminalState()).as("the copying job ended").isFalse();
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError(uuid + " does not hold the table: " + (actual == null ? "no dataset" : actual.size()
            + " keys, " + expected.size() + " expected"));
      }
      Thread.sleep(100); // polls the store: the copy advances at the job's checkpoints
      actual = read(uuid);
    }
  }

  @Test
  @Timeout(300)
  void insertIntoAKeyedTableKeepsACopyOfTheChangelog() throws Exception {
    round(3_000);
    StreamTableEnvironment tables = Sql.session(false);
    tables.executeSql(create("src", "src", ", 'scan.mode' = 'CONTINUOUS', 'scan.discovery-interval' = '100ms'"));
    tables.executeSql(create("copy", "copy", ", 'publish.min-interval' = '200ms'"));
    tables.executeSql(create("big", "big", ", 'publish.min-interval' = '200ms'"));
    assertThat(tables.explainSql("SELECT * FROM src", ExplainDetail.CHANGELOG_MODE))
        .as("the scan's changelog mode").contains("changelogMode=[I,UA,D]");

    StatementSet copies = tables.createStatementSet();
    copies.addInsertSql("INSERT INTO copy SELECT * FROM src");
    copies.addInsertSql("INSERT INTO big SELECT * FROM src WHERE v > " + THRESHOLD);
    JobClient job = copies.execute().getJobClient().orElseThrow();
    try {
      for (int i = 1; i <= 4; i++) {
        if (i > 1) {
          round(1_000);
        }
        awaitTable("copy", table, job);
        Map<List<Object>, List<Object>> big = new HashMap<>(table);
        big.values().removeIf(row -> row.get(2) == null || (Long) row.get(2) <= THRESHOLD);
        awaitTable("big", big, job);
      }
    } finally {
      job.cancel().get();
      // the cancellation is acknowledged before the tasks have closed (and stopped writing to the
      // temporary directory): wait for the job's end
      job.getJobExecutionResult().handle((result, cancelled) -> result).get();
    }
  }
}
