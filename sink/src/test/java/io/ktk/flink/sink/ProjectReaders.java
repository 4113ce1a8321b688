package io.ktk.flink.sink;

import io.ktk.flink.source.KartothekDatasetSource;
import io.ktk.flink.source.dataset.DatasetQuery;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Reads a version of a dataset with a primary key through this project's readers, as a user would:
 * the bounded Flink source ({@link KartothekDatasetSource}, parallelism 2) and a SQL {@code SELECT}
 * on the table a Kartothek catalog lists (with {@code scan.version}), each a job on the test's
 * mini cluster. Each gives the table by key, and fails when a key comes twice (rows not merged).
 */
final class ProjectReaders {
  private ProjectReaders() {}

  /** The table at {@code version} as the bounded Flink source reads it. */
  static Map<List<Object>, List<Object>> bySource(String url, String uuid, long version, List<String> columns,
      List<String> key) throws Exception {
    StreamExecutionEnvironment env = Jobs.batch(2);
    KartothekDatasetSource source = KartothekDatasetSource.builder(url, uuid).version(version)
        .query(DatasetQuery.builder().columns(columns).build()).build();
    try (CloseableIterator<Row> rows = env.fromSource(source, WatermarkStrategy.noWatermarks(), uuid)
        .executeAndCollect("read " + uuid + " at version " + version)) {
      return byKey("the Flink source", rows, columns, key);
    }
  }

  /** The table at {@code version} as {@code SELECT <columns> FROM catalog table} reads it. */
  static Map<List<Object>, List<Object>> bySql(String url, String uuid, long version, List<String> columns,
      List<String> key) throws Exception {
    TableEnvironment tables = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    tables.executeSql("CREATE CATALOG ktk WITH ('type' = 'kartothek', 'store' = '" + url + "')");
    String select = "SELECT " + String.join(", ", columns.stream().map(c -> "`" + c + "`").toList())
        + " FROM ktk.`default`.`" + uuid + "` /*+ OPTIONS('scan.version' = '" + version + "') */";
    try (CloseableIterator<Row> rows = tables.executeSql(select).collect()) {
      return byKey("SQL", rows, columns, key);
    }
  }

  private static Map<List<Object>, List<Object>> byKey(String reader, CloseableIterator<Row> rows,
      List<String> columns, List<String> key) {
    Function<Row, List<Object>> values = row -> {
      List<Object> list = new ArrayList<>();
      for (int i = 0; i < columns.size(); i++) {
        list.add(row.getField(i));
      }
      return list;
    };
    Map<List<Object>, List<Object>> table = new HashMap<>();
    while (rows.hasNext()) {
      List<Object> row = values.apply(rows.next());
      List<Object> rowKey = key.stream().map(c -> row.get(columns.indexOf(c))).toList();
      List<Object> before = table.put(rowKey, row);
      if (before != null) {
        throw new AssertionError(reader + " gave key " + rowKey + " twice: " + before + " and " + row);
      }
    }
    return table;
  }
}
