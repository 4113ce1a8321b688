package io.ktk.flink.source.testing;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/** The rows of a Flink source run on the test's mini cluster, each as a list of its values. */
public final class FlinkRows {
  private FlinkRows() {}

  /** Runs {@code source} with {@code parallelism} readers and collects every row, in arrival order. */
  public static List<List<Object>> collect(Source<Row, ?, ?> source, int parallelism) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(parallelism);
    try (CloseableIterator<Row> rows = env.fromSource(source, WatermarkStrategy.noWatermarks(), "source")
        .executeAndCollect()) {
      return take(rows, Integer.MAX_VALUE);
    }
  }

  /** Up to {@code n} rows of {@code rows}, each as a list of its values. */
  public static List<List<Object>> take(CloseableIterator<Row> rows, int n) {
    List<List<Object>> taken = new ArrayList<>();
    while (taken.size() < n && rows.hasNext()) {
      taken.add(values(rows.next()));
    }
    return taken;
  }

  /** The values of a row, in field order. */
  public static List<Object> values(Row row) {
    List<Object> values = new ArrayList<>(row.getArity());
    for (int i = 0; i < row.getArity(); i++) {
      values.add(row.getField(i));
    }
    return values;
  }
}
