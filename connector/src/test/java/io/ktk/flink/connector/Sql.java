package io.ktk.flink.connector;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/** SQL sessions of the connector tests, on the MiniCluster of the test class. */
final class Sql {
  private Sql() {}

  static MiniClusterExtension miniCluster() {
    return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
        .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(4).build());
  }

  /** A BATCH or STREAMING (checkpoints every 100 ms) session, without restarts, in UTC. */
  static StreamTableEnvironment session(boolean batch) {
    Map<String, String> settings = new HashMap<>(Map.of(
        "execution.runtime-mode", batch ? "BATCH" : "STREAMING",
        "parallelism.default", "2",
        "restart-strategy.type", "none",
        "table.local-time-zone", "UTC"));
    if (!batch) {
      settings.put("execution.checkpointing.interval", "100ms");
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
        Configuration.fromMap(settings));
    return StreamTableEnvironment.create(env,
        batch ? EnvironmentSettings.inBatchMode() : EnvironmentSettings.inStreamingMode());
  }

  /** Every row of a bounded query's result, as {@code Row.toString()}. */
  static List<String> rows(StreamTableEnvironment tables, String query) throws Exception {
    List<String> rows = new ArrayList<>();
    TableResult result = tables.executeSql(query);
    try (CloseableIterator<Row> it = result.collect()) {
      it.forEachRemaining(row -> rows.add(row.toString()));
    }
    return rows;
  }
}
