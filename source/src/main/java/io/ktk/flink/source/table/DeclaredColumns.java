package io.ktk.flink.source.table;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.types.ArrowTypeNames;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * The checks a table's declared columns pass against what they read, a cube or a plain dataset
 * alike: each column declared as the Flink type this source reads its Arrow type as ({@link
 * CubeTable#readableType}), and {@code PARTITIONED BY} naming every partition column, in order,
 * each of a type Flink can prune by.
 */
final class DeclaredColumns {
  private DeclaredColumns() {}

  /**
   * @param subject the start of every message ({@code Cannot create the source of table ...: })
   * @param holder what holds the column, for messages ({@code cube}, {@code dataset})
   * @throws KtkValidationException naming the column, both types and the type to declare
   */
  static void checkType(String subject, String holder, Field column, LogicalType declared) {
    String expected = CubeTable.readableType(subject, column);
    if (!declared.copy(true).asSummaryString().equals(expected)) {
      throw new KtkValidationException(subject + "column '" + column.getName() + "' is declared " + declared
          + ", but the " + holder + " holds " + ArrowTypeNames.name(column) + ", read as " + expected + "; declare it "
          + expected);
    }
  }

  /**
   * @param partitionKeys the table's {@code PARTITIONED BY} columns; empty when it has none (nothing to check)
   * @param partitionColumns the cube's or dataset's partition columns, typed
   * @throws KtkValidationException when they differ, or a partition column's values cannot be pruned by Flink
   */
  static void checkPartitionedBy(String subject, String holder, List<String> partitionKeys,
      List<Field> partitionColumns) {
    if (partitionKeys.isEmpty()) {
      return;
    }
    List<String> names = partitionColumns.stream().map(Field::getName).toList();
    if (!partitionKeys.equals(names)) {
      throw new KtkValidationException(subject + "PARTITIONED BY " + partitionKeys + " differs from the " + holder
          + "'s partition columns " + names + "; name them all, in order, or leave out PARTITIONED BY");
    }
    for (Field column : partitionColumns) {
      if (!PartitionStrings.supports(column.getType())) {
        throw new KtkValidationException(subject + "partition column '" + column.getName() + "' has type "
            + ArrowTypeNames.name(column) + ", whose values Flink cannot prune as partitions; leave out"
            + " PARTITIONED BY (filters on the column are still pushed down)");
      }
    }
  }
}
