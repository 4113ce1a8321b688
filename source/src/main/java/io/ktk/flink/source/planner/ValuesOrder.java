package io.ktk.flink.source.planner;

import io.ktk.flink.state.metadata.IndexFile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Orders lists of typed values (partition values, group keys) column by column, each as the
 * column's index orders it ({@link IndexFile#valueOrder}): the order of partitions and groups in a
 * plan, and the equality partitions of different datasets are aligned by.
 */
final class ValuesOrder {
  private ValuesOrder() {}

  static Comparator<List<Object>> of(List<Field> columns) {
    List<Comparator<Object>> orders = new ArrayList<>();
    columns.forEach(column -> orders.add(IndexFile.valueOrder(column.getType())));
    return (a, b) -> {
      for (int i = 0; i < orders.size(); i++) {
        int c = orders.get(i).compare(a.get(i), b.get(i));
        if (c != 0) {
          return c;
        }
      }
      return 0;
    };
  }
}
