package io.ktk.flink.source.table;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.abilities.SupportsPartitionPushDown;
import org.apache.flink.table.types.DataType;

/**
 * The bounded scan of a table: as {@link KartothekTableSource}, and Flink prunes the partitions
 * that exist at the pinned versions itself ({@link SupportsPartitionPushDown}). Only bounded scans
 * take partitions as a list: a continuous scan's later commits create partitions the list lacks.
 */
final class PartitionPruningTableSource extends KartothekTableSource implements SupportsPartitionPushDown {

  PartitionPruningTableSource(KartothekTable table, DataType physicalType) {
    super(table, physicalType);
  }

  private PartitionPruningTableSource(PartitionPruningTableSource other) {
    super(other);
  }

  @Override
  public DynamicTableSource copy() {
    return new PartitionPruningTableSource(this);
  }

  @Override
  public Optional<List<Map<String, String>>> listPartitions() {
    return Optional.of(new ArrayList<>(partitionsByStrings().keySet()));
  }

  @Override
  public void applyPartitions(List<Map<String, String>> remainingPartitions) {
    Map<Map<String, String>, List<Object>> byStrings = partitionsByStrings();
    Set<List<Object>> kept = new HashSet<>();
    for (Map<String, String> partition : remainingPartitions) {
      List<Object> values = byStrings.get(partition);
      if (values == null) {
        throw new IllegalStateException("Cannot apply partition " + partition + " to table " + table.name()
            + ": it is not one of the partitions listed");
      }
      kept.add(values);
    }
    prunePartitions(kept);
  }

  /** The table's partitions by their values as SQL strings, in the order of the partition columns. */
  private Map<Map<String, String>, List<Object>> partitionsByStrings() {
    Map<Map<String, String>, List<Object>> byStrings = new LinkedHashMap<>();
    List<Field> columns = table.partitionColumns();
    for (List<Object> values : table.partitions()) {
      Map<String, String> strings = new LinkedHashMap<>();
      for (int i = 0; i < columns.size(); i++) {
        strings.put(columns.get(i).getName(), PartitionStrings.render(columns.get(i).getType(), values.get(i)));
      }
      byStrings.put(strings, values);
    }
    return byStrings;
  }
}
