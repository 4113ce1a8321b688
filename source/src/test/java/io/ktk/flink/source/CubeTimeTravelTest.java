package io.ktk.flink.source;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.source.testing.FlinkRows;
import io.ktk.flink.source.testing.SqlTables;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.CubeCommitLog;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.commit.LogExpiry;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.commit.VersionExpiredException;
import io.ktk.flink.state.dataset.NoSuchDatasetException;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cube read as of a time: each dataset at its version of then, without cube transactions
 * recorded later; in-process, as a Flink source, in SQL (option and {@code FOR SYSTEM_TIME AS OF}).
 * The expected rows are written out by hand from what each commit wrote.
 */
class CubeTimeTravelTest {
  @RegisterExtension
  static final MiniClusterExtension FLINK = SqlTables.cluster();

  private static final Field P = field("p", new ArrowType.Int(64, true));
  private static final Field X = field("x", new ArrowType.Int(64, true));
  private static final Field V = field("v", new ArrowType.Int(64, true));
  private static final Field W = field("w", new ArrowType.Int(64, true));
  private static final CubeSpec SPEC = CubeSpec.of("sales", List.of("x"), List.of("p"));
  private static final CubeQuery ALL = CubeQuery.builder().columns("p", "x", "v", "w").build();

  /** After the first commit of both datasets. */
  private static final List<List<Object>> AT_FIRST = List.of(row(1L, 1L, 10L, 100L), row(1L, 2L, 20L, null));
  /** After the second: x=2 overwritten in the seed, enriched; a new partition. */
  private static final List<List<Object>> AT_SECOND = List.of(
      row(1L, 1L, 10L, 100L), row(1L, 2L, 21L, 200L), row(2L, 3L, 30L, null));

  @TempDir Path dir;
  private ObjectStore store;
  private Instant beforeAll;
  private Instant first;
  private Instant second;

  @BeforeEach
  void writeTheCubeInSeveralCommits() throws IOException {
    store = new LocalObjectStore(dir);
    CubeFixture cube = new CubeFixture(store, SPEC);
    beforeAll = Instant.now().minusSeconds(1);
    CubeFixture.DatasetWriter seed = cube.dataset("seed", new Schema(List.of(P, X, V)), "x")
        .commit(List.of(row(1L, 1L, 10L), row(1L, 2L, 20L)));
    CubeFixture.DatasetWriter enrich = cube.dataset("enrich", new Schema(List.of(P, X, W)))
        .commit(List.of(row(1L, 1L, 100L)));
    first = clockPast(committedAt("enrich"));
    seed.commit(List.of(row(1L, 2L, 21L), row(2L, 3L, 30L)));
    enrich.commit(List.of(row(1L, 2L, 200L)));
    second = clockPast(committedAt("enrich"));
  }

  @Test
  void theReaderSeesEachTimesAnswer() throws IOException {
    assertThat(rows(CubeSnapshot.asOf(store, "sales", first))).isEqualTo(AT_FIRST);
    assertThat(CubeSnapshot.asOf(store, "sales", first).versions())
        .containsExactly(Map.entry("enrich", 0L), Map.entry("seed", 0L));
    assertThat(rows(CubeSnapshot.asOf(store, "sales", second))).isEqualTo(AT_SECOND);
    assertThat(rows(CubeSnapshot.latest(store, "sales"))).isEqualTo(AT_SECOND);
    assertThatThrownBy(() -> CubeSnapshot.asOf(store, "sales", beforeAll))
        .isInstanceOf(NoSuchDatasetException.class)
        .hasMessageContaining("cube 'sales'")
        .hasMessageContaining("none of its datasets had a version committed by then");
  }

  @Test
  void aTransactionIsSeenAsOfTheTimeItWasRecordedNotWhenItsDatasetsWereCommitted() throws IOException {
    // a job's checkpoint 7 commits the seed as part of a cube transaction, records it only later
    CommitLog.open(store, "sales++seed", CommitLogOptions.DEFAULTS).commit(DatasetChange.append(List.of("p"),
            new Schema(List.of(P, X, V)),
            List.of(new DataFile("p=3/00000000000000000000000000000007", 1, 100, new Schema(List.of(X, V)))))
        .withWriter("job", 7).withCubeTransaction("sales"));
    Instant committedNotRecorded = clockPast(committedAt("seed"));
    CubeCommitLog.of(store, "sales").record("job", 7, Map.of("seed", 2L));
    Instant recorded = clockPast(CubeCommitLog.of(store, "sales").latest().orElseThrow().timestamp());

    assertThat(CubeSnapshot.asOf(store, "sales", committedNotRecorded).versions())
        .containsExactly(Map.entry("enrich", 1L), Map.entry("seed", 1L));
    assertThat(CubeSnapshot.asOf(store, "sales", recorded).versions())
        .containsExactly(Map.entry("enrich", 1L), Map.entry("seed", 2L));
  }

  @Test
  void aVersionThatExpiredFailsWithVersionExpired() throws IOException {
    LogExpiry.expire(CommitLog.open(store, "sales++seed", CommitLogOptions.DEFAULTS), Duration.ZERO, 1,
        Instant.now(), false);
    assertThat(rows(CubeSnapshot.asOf(store, "sales", second))).isEqualTo(AT_SECOND);
    assertThatThrownBy(() -> CubeSnapshot.asOf(store, "sales", first))
        .isInstanceOf(VersionExpiredException.class)
        .hasMessageContaining("dataset 'sales++seed'")
        .hasMessageContaining("as of " + first)
        .hasMessageContaining("the log retains versions from 1 on");
  }

  @Test
  void theFlinkSourceReadsAsOfATime() throws Exception {
    KartothekSource source = KartothekSource.builder(dir.toUri().toString(), "sales").asOf(first).query(ALL).build();
    assertThat(source.versions()).containsExactly(Map.entry("enrich", 0L), Map.entry("seed", 0L));
    assertThat(FlinkRows.collect(source, 1)).isEqualTo(AT_FIRST);
  }

  @Test
  void aSqlTableReadsAsOfATimeAndRefusesAVersion() throws Exception {
    TableEnvironment tables = SqlTables.batch();
    tables.executeSql("CREATE TABLE sales_then (p BIGINT, x BIGINT, v BIGINT, w BIGINT) WITH ('connector' ="
        + " 'kartothek', 'store' = '" + dir.toUri() + "', 'cube' = 'sales', 'scan.as-of-timestamp' = '" + first + "')");
    assertThat(SqlTables.rows(tables, "SELECT p, x, v, w FROM sales_then"))
        .containsExactlyInAnyOrderElementsOf(AT_FIRST);

    tables.executeSql("CREATE TABLE sales_v (p BIGINT, x BIGINT, v BIGINT, w BIGINT) WITH ('connector' ="
        + " 'kartothek', 'store' = '" + dir.toUri() + "', 'cube' = 'sales', 'scan.version' = '0')");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM sales_v", "'scan.version' = 0", "cube 'sales'",
        "'scan.as-of-timestamp'");
  }

  @Test
  void forSystemTimeAsOfReadsACubeTableOfTheCatalogAsOfThatTime() throws Exception {
    TableEnvironment tables = SqlTables.batch();
    tables.getConfig().set("table.local-time-zone", "UTC");
    tables.executeSql("CREATE CATALOG ktk WITH ('type' = 'kartothek', 'store' = '" + dir.toUri() + "')");
    tables.executeSql("USE CATALOG ktk");
    String then = LocalDateTime.ofInstant(first, ZoneOffset.UTC)
        .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS"));
    assertThat(SqlTables.rows(tables, "SELECT p, x, v, w FROM sales FOR SYSTEM_TIME AS OF TIMESTAMP '"
        + then + "'")).containsExactlyInAnyOrderElementsOf(AT_FIRST);
    assertThat(SqlTables.rows(tables, "SELECT p, x, v, w FROM sales"))
        .containsExactlyInAnyOrderElementsOf(AT_SECOND);
  }

  private Instant committedAt(String datasetId) throws IOException {
    return new LogReader(store, SPEC.datasetUuid(datasetId)).latest().lastModified();
  }

  /**
   * A whole millisecond after {@code committed} (SQL's timestamps have milliseconds), once the clock
   * has passed it, so that every later commit is later than the instant returned.
   */
  private static Instant clockPast(Instant committed) {
    Instant instant = committed.truncatedTo(ChronoUnit.MILLIS).plusMillis(1);
    while (!Instant.now().isAfter(instant)) {
      Thread.onSpinWait();
    }
    return instant;
  }

  private List<List<Object>> rows(CubeSnapshot snapshot) {
    List<List<Object>> rows = new ArrayList<>();
    new CubeReader(store, snapshot.plan(ALL)).rows().forEachRemaining(rows::add);
    return rows;
  }

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }
}
