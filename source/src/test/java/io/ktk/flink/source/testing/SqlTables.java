package io.ktk.flink.source.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.KtkValidationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;

/** A batch table environment on the test's mini cluster, and query results as lists. */
public final class SqlTables {
  private SqlTables() {}

  public static MiniClusterExtension cluster() {
    return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
        .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());
  }

  public static TableEnvironment batch() {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(Map.of(
        "execution.runtime-mode", "BATCH", "parallelism.default", "2", "restart-strategy.type", "none")));
    return StreamTableEnvironment.create(env, EnvironmentSettings.inBatchMode());
  }

  /** The rows of {@code sql}, each as a list of its values (external types: Long, Double, String, ...). */
  public static List<List<Object>> rows(TableEnvironment tables, String sql) throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterator<Row> result = tables.executeSql(sql).collect()) {
      result.forEachRemaining(row -> rows.add(FlinkRows.values(row)));
    }
    return rows;
  }

  /** The optimized physical plan of an {@code EXPLAIN} output. */
  public static String optimizedPlan(String explained) {
    return explained.substring(explained.indexOf("== Optimized Physical Plan =="),
        explained.indexOf("== Optimized Execution Plan =="));
  }

  /** Planning {@code sql} fails with a {@link KtkValidationException} whose message contains every part. */
  public static void assertPlanningFails(TableEnvironment tables, String sql, String... messageParts) {
    assertThatThrownBy(() -> tables.explainSql(sql))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, KtkValidationException.class)).get()
            .extracting(Throwable::getMessage).asString().contains(messageParts));
  }

  /**
   * EXPLAIN shows {@code sql}'s filters and its projection {@code columns} (as {@code a, b}) in the
   * scan of table {@code table}, and no {@code Calc} left for Flink to filter with.
   */
  public static void assertPushedIntoTheScan(TableEnvironment tables, String sql, String table, String columns) {
    assertThat(optimizedPlan(tables.explainSql(sql)))
        .contains("TableSourceScan(table=[[default_catalog, default_database, " + table + ", filter=[",
            "project=[" + columns + "]")
        .doesNotContain("Calc(");
  }
}
