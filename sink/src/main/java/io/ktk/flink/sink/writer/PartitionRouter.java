package io.ktk.flink.sink.writer;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.metadata.PartitionLabel;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Gives each distinct combination of partition values a dense id and, the first time it is seen,
 * checks that it can be a Kartothek partition label (PartitionValues' rules: no nulls, dates in
 * years 1 to 9999, timestamps in pandas' range, UTF-8 binary, ...). A combination that cannot is
 * remembered with its reason and refused every time it comes again.
 */
final class PartitionRouter {
  /** One partition: the label of its files up to the file id, or why it cannot have one. */
  record Partition(PartitionLabel label, String invalidReason) {
    String path() {
      return label.physicalPartition();
    }
  }

  private static final PartitionLabel UNPARTITIONED = new PartitionLabel(List.of(), "0");

  private final String dataset;
  private final RowType rowType;
  private final int[] positions;
  private final List<Field> fields;
  private final RowKeyIds keys;
  private final List<Partition> partitions = new ArrayList<>();

  PartitionRouter(String dataset, RowType rowType, int[] positions, List<Field> fields) {
    this.dataset = dataset;
    this.rowType = rowType;
    this.positions = positions.clone();
    this.fields = List.copyOf(fields);
    this.keys = positions.length == 0 ? null : RowKeyIds.of(rowType, positions);
    if (keys == null) {
      partitions.add(new Partition(UNPARTITIONED, null));
    }
  }

  /** The id of the row's partition. @throws KtkValidationException when its values cannot be a label */
  int route(RowData row) {
    if (keys == null) {
      return 0;
    }
    int id = keys.idOf(row);
    if (id == partitions.size()) {
      partitions.add(newPartition(row));
    }
    Partition partition = partitions.get(id);
    if (partition.invalidReason() != null) {
      throw new KtkValidationException(partition.invalidReason());
    }
    return id;
  }

  Partition partition(int id) {
    return partitions.get(id);
  }

  int size() {
    return partitions.size();
  }

  /** Forgets all partitions; ids start again at 0. */
  void clear() {
    if (keys != null) {
      keys.clear();
      partitions.clear();
    }
  }

  private Partition newPartition(RowData row) {
    List<Object> values = new ArrayList<>(positions.length);
    for (int position : positions) {
      values.add(RowFieldValues.typed(dataset, rowType, row, position, true));
    }
    try {
      return new Partition(PartitionLabel.of(fields, values, "0"), null);
    } catch (KtkValidationException e) {
      return new Partition(null, e.getMessage() + " (dataset '" + dataset + "')");
    }
  }
}
