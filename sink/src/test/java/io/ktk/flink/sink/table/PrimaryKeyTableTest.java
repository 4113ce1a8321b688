package io.ktk.flink.sink.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.KtkValidationException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How the SQL sink takes a table's primary key, refused where it cannot work (when a query is planned). */
class PrimaryKeyTableTest {
  @TempDir
  Path dir;

  private StreamTableEnvironment tables() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(
        Map.of("execution.runtime-mode", "STREAMING", "parallelism.default", "1")));
    StreamTableEnvironment tables = StreamTableEnvironment.create(env, EnvironmentSettings.inStreamingMode());
    tables.executeSql("CREATE TABLE events (k BIGINT, p STRING, v BIGINT) WITH ('connector' = 'datagen', "
        + "'number-of-rows' = '10', 'fields.p.length' = '1')");
    return tables;
  }

  private void assertPlanningFails(StreamTableEnvironment tables, String insert, String... message) {
    assertThatThrownBy(() -> tables.executeSql(insert))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, KtkValidationException.class)).get()
            .extracting(Throwable::getMessage).asString().contains(message));
  }

  @Test
  void aKeyWithoutThePartitionColumnsIsRefused() {
    StreamTableEnvironment tables = tables();
    tables.executeSql("CREATE TABLE totals (k BIGINT NOT NULL, p STRING, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) "
        + "PARTITIONED BY (p) WITH ('connector' = 'kartothek', 'store' = '" + dir.toUri() + "', 'dataset' = 't')");
    assertPlanningFails(tables, "INSERT INTO totals SELECT k, p, COUNT(*) FROM events GROUP BY k, p",
        "Cannot use the primary key [k] for dataset 't': it lacks the partition column 'p'");
  }

  @Test
  void theKeyOptionMustAgreeWithThePrimaryKeyClause() {
    StreamTableEnvironment tables = tables();
    tables.executeSql("CREATE TABLE totals (k BIGINT NOT NULL, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ("
        + "'connector' = 'kartothek', 'store' = '" + dir.toUri() + "', 'dataset' = 't', 'primary-key' = 'n')");
    assertPlanningFails(tables, "INSERT INTO totals SELECT k, COUNT(*) FROM events GROUP BY k",
        "PRIMARY KEY [k] and 'primary-key' = [n] disagree");
  }

  @Test
  void theKeyOptionAloneMakesAnUpsertTable() {
    StreamTableEnvironment tables = tables();
    tables.executeSql("CREATE TABLE totals (k BIGINT, n BIGINT) WITH ('connector' = 'kartothek', 'store' = '"
        + dir.toUri() + "', 'dataset' = 't', 'primary-key' = 'k')");
    assertThat(tables.explainSql("INSERT INTO totals SELECT k, COUNT(*) FROM events GROUP BY k"))
        .as("planned as an upsert sink").contains("Sink(table=[default_catalog.default_database.totals]");
  }

  @Test
  void aCubeTablesKeyMustBeItsCell() {
    StreamTableEnvironment tables = tables();
    tables.executeSql("CREATE TABLE cells (k BIGINT NOT NULL, p STRING NOT NULL, v BIGINT, PRIMARY KEY (v, p) NOT "
        + "ENFORCED) PARTITIONED BY (p) WITH ('connector' = 'kartothek', 'store' = '" + dir.toUri() + "', "
        + "'cube' = 'c', 'dimension-columns' = 'k')");
    assertPlanningFails(tables, "INSERT INTO cells SELECT k, p, MAX(v) FROM events GROUP BY k, p",
        "PRIMARY KEY [v, p] is not the cell of dataset seed, [k, p]");
  }
}
