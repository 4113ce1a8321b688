package io.ktk.flink.source.testing;

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
      while (result.hasNext()) {
        Row row = result.next();
        List<Object> values = new ArrayList<>();
        for (int i = 0; i < row.getArity(); i++) {
          values.add(row.getField(i));
        }
        rows.add(values);
      }
    }
    return rows;
  }
}
