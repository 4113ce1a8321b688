package io.ktk.flink.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** One {@code CREATE TABLE} serves {@code INSERT} and {@code SELECT}, for datasets and cube datasets. */
class SqlRoundTripTest {
  @RegisterExtension
  static final MiniClusterExtension FLINK = Sql.miniCluster();

  @TempDir
  Path dir;

  private String events() {
    return "CREATE TABLE events (`day` DATE, customer STRING, amount DOUBLE) PARTITIONED BY (`day`) WITH ("
        + "'connector' = 'kartothek', 'store' = '" + dir.toUri() + "', 'dataset' = 'events', "
        + "'index-columns' = 'customer')";
  }

  @Test
  void aTableWithSinkOptionsIsReadBack() throws Exception {
    StreamTableEnvironment tables = Sql.session(true);
    tables.executeSql(events());
    tables.executeSql("INSERT INTO events VALUES (DATE '2024-01-01', 'alice', 12.5), "
        + "(DATE '2024-01-02', 'bob', 3.0), (DATE '2024-01-02', 'carol', 7.25)").await();
    assertThat(Sql.rows(tables, "SELECT customer, amount FROM events WHERE `day` = DATE '2024-01-02' AND amount > 5"))
        .containsExactly("+I[carol, 7.25]");
  }

  @Test
  void misspeltSourceOptionsAreRefusedWithTheClosestKey() {
    StreamTableEnvironment tables = Sql.session(true);
    tables.executeSql("CREATE TABLE typo (id BIGINT) WITH ('connector' = 'kartothek', 'store' = '" + dir.toUri()
        + "', 'dataset' = 'typo', 'scan.verison' = '1')");
    assertThatThrownBy(() -> tables.executeSql("SELECT * FROM typo"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, KtkValidationException.class)).get()
            .extracting(Throwable::getMessage).asString()
            .contains("unknown option 'scan.verison' (did you mean 'scan.version'?)"));
  }

  @Test
  void aCubeDatasetIsWrittenAndReadFromSql() throws Exception {
    StreamTableEnvironment tables = Sql.session(true);
    tables.executeSql("CREATE TABLE sales (`day` DATE, shop STRING, item BIGINT, price DOUBLE) PARTITIONED BY (`day`) "
        + "WITH ('connector' = 'kartothek', 'store' = '" + dir.toUri() + "', 'cube' = 'sales', "
        + "'dimension-columns' = 'shop,item')");
    tables.executeSql("INSERT INTO sales VALUES (DATE '2024-01-01', 'a', 1, 2.5), (DATE '2024-01-01', 'b', 1, 4.0),"
        + " (DATE '2024-01-02', 'a', 2, 1.0)").await();
    // an enrichment of the cube, by shop and day; its dimension and partition columns come from the store
    tables.executeSql("CREATE TABLE weather (`day` DATE, shop STRING, temp DOUBLE) PARTITIONED BY (`day`) "
        + "WITH ('connector' = 'kartothek', 'store' = '" + dir.toUri() + "', 'cube' = 'sales', "
        + "'datasets' = 'weather')");
    tables.executeSql("INSERT INTO weather VALUES (DATE '2024-01-01', 'a', 21.0)").await();

    assertThat(Sql.rows(tables, "SELECT shop, item, price FROM sales WHERE `day` = DATE '2024-01-01'"))
        .containsExactlyInAnyOrder("+I[a, 1, 2.5]", "+I[b, 1, 4.0]");
    tables.executeSql("CREATE TABLE sales_cube (`day` DATE, shop STRING, item BIGINT, price DOUBLE, temp DOUBLE) "
        + "PARTITIONED BY (`day`) WITH ('connector' = 'kartothek', 'store' = '" + dir.toUri() + "', 'cube' = 'sales')");
    assertThat(Sql.rows(tables, "SELECT shop, item, temp FROM sales_cube"))
        .containsExactlyInAnyOrder("+I[a, 1, 21.0]", "+I[b, 1, null]", "+I[a, 2, null]");
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      assertThat(DatasetSnapshot.latest(store, "sales++seed").indexColumns()).containsExactlyInAnyOrder("shop", "item");
      assertThat(DatasetSnapshot.latest(store, "sales++weather").metadata()).containsKey("ktk_cube_dimension_columns");
    }
  }

  @Test
  void aNewCubeNeedsItsDimensionColumns() {
    StreamTableEnvironment tables = Sql.session(true);
    tables.executeSql("CREATE TABLE sales (`day` DATE, shop STRING, price DOUBLE) PARTITIONED BY (`day`) "
        + "WITH ('connector' = 'kartothek', 'store' = '" + dir.toUri() + "', 'cube' = 'sales')");
    assertThatThrownBy(() -> tables.executeSql("INSERT INTO sales VALUES (DATE '2024-01-01', 'a', 1.0)"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, KtkValidationException.class)).get()
            .extracting(Throwable::getMessage).asString()
            .contains("the store holds no cube 'sales' yet; give its dimension columns with 'dimension-columns'"));
  }

  @Test
  void timeTravelReadsAnEarlierVersion() throws Exception {
    StreamTableEnvironment tables = Sql.session(true);
    tables.executeSql(events());
    tables.executeSql("INSERT INTO events VALUES (DATE '2024-01-01', 'alice', 1.0)").await();
    Instant between;
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      between = DatasetSnapshot.latest(store, "events").committedAt();
    }
    tables.executeSql("INSERT INTO events VALUES (DATE '2024-01-01', 'bob', 2.0)").await();
    String options = "'connector' = 'kartothek', 'store' = '" + dir.toUri() + "', 'dataset' = 'events'";
    tables.executeSql("CREATE TABLE v0 (customer STRING) WITH (" + options + ", 'scan.version' = '0')");
    tables.executeSql("CREATE TABLE as_of (customer STRING) WITH (" + options + ", 'scan.as-of-timestamp' = '"
        + between + "')");
    tables.executeSql("CREATE TABLE now (customer STRING) WITH (" + options + ")");
    assertThat(Sql.rows(tables, "SELECT customer FROM v0")).containsExactly("+I[alice]");
    assertThat(Sql.rows(tables, "SELECT customer FROM as_of")).containsExactly("+I[alice]");
    assertThat(Sql.rows(tables, "SELECT customer FROM now")).containsExactlyInAnyOrder("+I[alice]", "+I[bob]");
    tables.executeSql("CREATE TABLE before (customer STRING) WITH (" + options + ", 'scan.as-of-timestamp' = "
        + "'2000-01-01T00:00:00Z')");
    assertThatThrownBy(() -> tables.executeSql("SELECT customer FROM before"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowableWithMessage(e,
            "as of 2000-01-01T00:00:00Z: its first version was committed later")).isPresent());
  }

  @Test
  void aLimitPlansOnlyTheFilesThatHoldEnoughRows() throws Exception {
    StreamTableEnvironment tables = Sql.session(true);
    tables.executeSql(events());
    for (String day : List.of("2024-01-01", "2024-01-02", "2024-01-03")) {
      tables.executeSql("INSERT INTO events VALUES (DATE '" + day + "', 'x', 1.0)").await();
    }
    // The file of the last partition goes missing: only a scan that plans it fails.
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      List<Partition> partitions = new ArrayList<>(DatasetSnapshot.latest(store, "events").partitions());
      Partition last = partitions.stream().filter(p -> p.path().contains("2024-01-03")).findFirst().orElseThrow();
      DataFile file = last.files().get(0);
      Files.delete(dir.resolve(file.key("events")));
    }
    StreamTableEnvironment one = Sql.session(true);
    one.getConfig().set("parallelism.default", "1");
    one.executeSql(events());
    assertThat(Sql.rows(one, "SELECT customer FROM events LIMIT 1")).containsExactly("+I[x]");
    assertThatThrownBy(() -> Sql.rows(one, "SELECT customer FROM events")).isNotNull();
  }

  @Test
  @Timeout(180)
  void aContinuousCubeTableSeesLaterCommits() throws Exception {
    StreamTableEnvironment batch = Sql.session(true);
    String options = "'connector' = 'kartothek', 'store' = '" + dir.toUri() + "', 'cube' = 'sales'";
    batch.executeSql("CREATE TABLE sales (`day` DATE, shop STRING, price DOUBLE) PARTITIONED BY (`day`) WITH ("
        + options + ", 'dimension-columns' = 'shop')");
    batch.executeSql("INSERT INTO sales VALUES (DATE '2024-01-01', 'a', 1.0)").await();

    StreamTableEnvironment streaming = Sql.session(false);
    streaming.executeSql("CREATE TABLE sales (`day` DATE, shop STRING, price DOUBLE) PARTITIONED BY (`day`) WITH ("
        + options + ", 'scan.mode' = 'CONTINUOUS', 'scan.discovery-interval' = '200ms')");
    TableResult result = streaming.executeSql("SELECT shop, price FROM sales WHERE price > 0");
    try (CloseableIterator<Row> rows = result.collect()) {
      assertThat(rows.next().toString()).isEqualTo("+I[a, 1.0]");
      batch.executeSql("INSERT INTO sales VALUES (DATE '2024-01-02', 'b', 2.0), (DATE '2024-01-02', 'c', -1.0)")
          .await();
      assertThat(rows.next().toString()).isEqualTo("+I[b, 2.0]");
    }
  }

  @Test
  @Timeout(180)
  void aContinuousDatasetTableSeesLaterCommitsOnce() throws Exception {
    StreamTableEnvironment batch = Sql.session(true);
    batch.executeSql(events());
    batch.executeSql("INSERT INTO events VALUES (DATE '2024-01-01', 'alice', 12.5)").await();

    StreamTableEnvironment streaming = Sql.session(false);
    streaming.executeSql("CREATE TABLE events (`day` DATE, customer STRING, amount DOUBLE) PARTITIONED BY (`day`) WITH ("
        + "'connector' = 'kartothek', 'store' = '" + dir.toUri() + "', 'dataset' = 'events', "
        + "'scan.mode' = 'CONTINUOUS', 'scan.discovery-interval' = '200ms')");
    TableResult result = streaming.executeSql("SELECT customer, amount FROM events WHERE amount > 0");
    try (CloseableIterator<Row> rows = result.collect()) {
      assertThat(rows.next().toString()).isEqualTo("+I[alice, 12.5]");
      batch.executeSql("INSERT INTO events VALUES (DATE '2024-01-01', 'bob', 3.0), (DATE '2024-01-02', 'carol', -1.0)")
          .await();
      assertThat(rows.next().toString()).isEqualTo("+I[bob, 3.0]");
      batch.executeSql("INSERT INTO events VALUES (DATE '2024-01-03', 'dave', 4.0)").await();
      // alice's file is not served again with a later commit: the next row is dave's
      assertThat(rows.next().toString()).isEqualTo("+I[dave, 4.0]");
    }
  }

  /**
   * A condition on the partition column of a continuous scan holds for partitions that later
   * commits create: it is not a list of the partitions that existed when the query was planned.
   */
  @Test
  @Timeout(180)
  void aContinuousScanWithAPartitionConditionServesPartitionsCreatedLater() throws Exception {
    StreamTableEnvironment batch = Sql.session(true);
    batch.executeSql(events());
    batch.executeSql("INSERT INTO events VALUES (DATE '2024-01-01', 'alice', 12.5), (DATE '2024-01-05', 'bob', 1.0)")
        .await();

    StreamTableEnvironment streaming = Sql.session(false);
    streaming.executeSql("CREATE TABLE events (`day` DATE, customer STRING, amount DOUBLE) PARTITIONED BY (`day`) WITH ("
        + "'connector' = 'kartothek', 'store' = '" + dir.toUri() + "', 'dataset' = 'events', "
        + "'scan.mode' = 'CONTINUOUS', 'scan.discovery-interval' = '200ms')");
    TableResult result = streaming.executeSql("SELECT customer, `day` FROM events WHERE `day` >= DATE '2024-01-03'");
    try (CloseableIterator<Row> rows = result.collect()) {
      assertThat(rows.next().toString()).isEqualTo("+I[bob, 2024-01-05]");
      batch.executeSql("INSERT INTO events VALUES (DATE '2024-01-02', 'carol', 2.0), (DATE '2024-01-07', 'dave', 3.0)")
          .await();
      assertThat(rows.next().toString()).isEqualTo("+I[dave, 2024-01-07]");
    }
  }

  @Test
  void aContinuousScanOfADatasetWithAPrimaryKeyNeedsTheKeyDeclared() throws Exception {
    StreamTableEnvironment batch = Sql.session(true);
    batch.executeSql("CREATE TABLE keyed (id BIGINT, amount DOUBLE, PRIMARY KEY (id) NOT ENFORCED) WITH ("
        + "'connector' = 'kartothek', 'store' = '" + dir.toUri() + "', 'dataset' = 'keyed')");
    batch.executeSql("INSERT INTO keyed VALUES (1, 2.0)").await();
    StreamTableEnvironment streaming = Sql.session(false);
    streaming.executeSql("CREATE TABLE keyed (id BIGINT NOT NULL, amount DOUBLE) WITH ('connector' = 'kartothek', "
        + "'store' = '" + dir.toUri() + "', 'dataset' = 'keyed', 'scan.mode' = 'CONTINUOUS')");
    assertThatThrownBy(() -> streaming.executeSql("SELECT * FROM keyed"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, KtkValidationException.class)).get()
            .extracting(Throwable::getMessage).asString()
            .contains("a continuous scan of a dataset with a primary key is an upsert changelog keyed by it, so the"
                + " table must declare PRIMARY KEY (id) NOT ENFORCED"));
  }
}
