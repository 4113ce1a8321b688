package io.ktk.flink.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code CREATE CATALOG ... 'type' = 'kartothek'}: the store's datasets and cubes as tables, without DDL. */
class CatalogTest {
  @RegisterExtension
  static final MiniClusterExtension FLINK = Sql.miniCluster();

  @TempDir
  Path dir;

  private StreamTableEnvironment tables;
  private Instant afterFirstCommit;

  @BeforeEach
  void storeWithADatasetAndACube() throws Exception {
    tables = Sql.session(true);
    String store = "'store' = '" + dir.toUri() + "'";
    tables.executeSql("CREATE TABLE events (`day` DATE, customer STRING, amount DOUBLE) PARTITIONED BY (`day`) WITH ("
        + "'connector' = 'kartothek', " + store + ", 'dataset' = 'events', 'index-columns' = 'customer')");
    tables.executeSql("INSERT INTO events VALUES (DATE '2024-01-01', 'alice', 12.5)").await();
    try (LocalObjectStore local = new LocalObjectStore(dir)) {
      afterFirstCommit = DatasetSnapshot.latest(local, "events").committedAt();
    }
    tables.executeSql("INSERT INTO events VALUES (DATE '2024-01-02', 'bob', 3.0)").await();
    tables.executeSql("CREATE TABLE sales (`day` DATE, shop STRING, price DOUBLE) PARTITIONED BY (`day`) WITH ("
        + "'connector' = 'kartothek', " + store + ", 'cube' = 'sales', 'dimension-columns' = 'shop')");
    tables.executeSql("INSERT INTO sales VALUES (DATE '2024-01-01', 'a', 1.5)").await();
    tables.executeSql("CREATE CATALOG ktk WITH ('type' = 'kartothek', " + store + ")");
  }

  @Test
  void listsDatasetsAndCubesWithTheirSchemaAndPartitionKeys() throws Exception {
    assertThat(Sql.rows(tables, "SHOW TABLES IN ktk.`default`"))
        .containsExactly("+I[events]", "+I[sales]", "+I[sales++seed]");
    CatalogTable events = (CatalogTable) tables.getCatalog("ktk").orElseThrow()
        .getTable(new ObjectPath("default", "events"));
    assertThat(events.getPartitionKeys()).containsExactly("day");
    assertThat(tables.from("ktk.`default`.events").getResolvedSchema().toString())
        .contains("`day` DATE", "`customer` STRING", "`amount` DOUBLE");
    assertThat(Sql.rows(tables, "SELECT customer FROM ktk.`default`.events WHERE amount > 5"))
        .containsExactly("+I[alice]");
    assertThat(Sql.rows(tables, "SELECT shop, price FROM ktk.`default`.sales")).containsExactly("+I[a, 1.5]");
  }

  @Test
  void readsTheVersionOfATimeWithForSystemTimeAsOf() throws Exception {
    // SQL times have milliseconds: the first millisecond that ends after the first commit
    Instant then = afterFirstCommit.truncatedTo(java.time.temporal.ChronoUnit.MILLIS).plusMillis(1);
    String time = LocalDateTime.ofInstant(then, ZoneOffset.UTC).toString().replace('T', ' ');
    tables.executeSql("USE CATALOG ktk");
    assertThat(Sql.rows(tables, "SELECT customer FROM events FOR SYSTEM_TIME AS OF TIMESTAMP '" + time + "'"))
        .containsExactly("+I[alice]");
    assertThat(Sql.rows(tables, "SELECT customer FROM events")).containsExactlyInAnyOrder("+I[alice]", "+I[bob]");
  }

  @Test
  void createTableMakesADatasetAndDropTableDeletesIt() throws Exception {
    tables.executeSql("CREATE TABLE ktk.`default`.fresh (id BIGINT, p STRING) PARTITIONED BY (p) "
        + "WITH ('index-columns' = 'id')");
    try (LocalObjectStore local = new LocalObjectStore(dir)) {
      DatasetSnapshot created = DatasetSnapshot.latest(local, "fresh");
      assertThat(created.version()).isZero();
      assertThat(created.indexColumns()).containsExactly("id");
    }
    assertThat(Files.exists(dir.resolve("fresh.by-dataset-metadata.json"))).isTrue();
    tables.executeSql("INSERT INTO ktk.`default`.fresh VALUES (1, 'a'), (2, 'b')").await();
    assertThat(Sql.rows(tables, "SELECT id FROM ktk.`default`.fresh WHERE p = 'b'")).containsExactly("+I[2]");

    tables.executeSql("DROP TABLE ktk.`default`.fresh");
    assertThat(Files.exists(dir.resolve("fresh.by-dataset-metadata.json"))).isFalse();
    try (java.util.stream.Stream<Path> left = Files.walk(dir.resolve("fresh"))) {
      assertThat(left.filter(Files::isRegularFile).toList()).as("objects of the dropped dataset").isEmpty();
    }
    assertThat(Sql.rows(tables, "SHOW TABLES IN ktk.`default`")).doesNotContain("+I[fresh]");
  }

  /**
   * A table created with {@code PRIMARY KEY ... NOT ENFORCED} is a dataset with that key, listed
   * with it, so an updating query can write into it through the catalog and reads merge by it.
   */
  @Test
  void aTableWithAPrimaryKeyTakesAnUpdatingQuery() throws Exception {
    tables.executeSql("CREATE TABLE ktk.`default`.totals (k BIGINT, p STRING, total BIGINT, "
        + "PRIMARY KEY (k, p) NOT ENFORCED) PARTITIONED BY (p)");
    try (LocalObjectStore local = new LocalObjectStore(dir)) {
      assertThat(PrimaryKey.of("totals", DatasetSnapshot.latest(local, "totals").metadata()))
          .contains(List.of("k", "p"));
    }
    assertThat(tables.from("ktk.`default`.totals").getResolvedSchema().getPrimaryKey())
        .map(UniqueConstraint::getColumns).contains(List.of("k", "p"));

    StreamTableEnvironment streaming = Sql.session(false);
    streaming.executeSql("CREATE CATALOG ktk WITH ('type' = 'kartothek', 'store' = '" + dir.toUri() + "')");
    streaming.executeSql("INSERT INTO ktk.`default`.totals SELECT k, p, SUM(v) FROM (VALUES (1, 'a', 10), "
        + "(2, 'a', 5), (1, 'a', 7), (3, 'b', 1), (1, 'a', 1)) AS t(k, p, v) GROUP BY k, p").await();
    assertThat(Sql.rows(tables, "SELECT k, p, total FROM ktk.`default`.totals"))
        .containsExactlyInAnyOrder("+I[1, a, 18]", "+I[2, a, 5]", "+I[3, b, 1]");
  }

  @Test
  void aMisspeltCatalogOptionIsRefusedWithTheClosestKey() {
    assertThatThrownBy(() -> tables.executeSql("CREATE CATALOG typo WITH ('type' = 'kartothek', "
        + "'store' = 's3://bucket/data', 'store.regoin' = 'eu-west-1')"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, KtkValidationException.class)).get()
            .extracting(Throwable::getMessage).asString()
            .contains("unknown option 'store.regoin' (did you mean 'store.region'?)"));
  }
}
