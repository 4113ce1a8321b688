package io.ktk.flink.source.table;

import io.ktk.flink.source.rowdata.InternalValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;

/**
 * Turns the source's rows (typed values by the project's convention, the query's columns) into
 * Flink's internal rows of the table's projected columns ({@link InternalValues}), dropping rows
 * outside the partitions Flink's partition pruning kept when the query's conditions cannot say
 * exactly which (several partition columns). Scans without such rows to drop read {@code RowData}
 * from the column vectors directly ({@link io.ktk.flink.source.rowdata.RowDataFormat}).
 */
final class RowDataConversion implements FlatMapFunction<Row, RowData> {
  private static final long serialVersionUID = 2L;

  private final int[] positions;
  private final InternalValues.Converter[] converters;
  private final int[] partitionPositions;
  private final Set<List<Object>> partitions;

  /**
   * @param positions for each output column, its position in the source's rows
   * @param types the output columns' types
   * @param partitionPositions the positions of the partition columns in the source's rows
   * @param partitions the partition values a row must have
   */
  RowDataConversion(int[] positions, List<LogicalType> types, int[] partitionPositions, Set<List<Object>> partitions) {
    this.positions = positions.clone();
    this.converters = new InternalValues.Converter[positions.length];
    for (int i = 0; i < positions.length; i++) {
      converters[i] = InternalValues.converter(types.get(i));
    }
    this.partitionPositions = partitionPositions.clone();
    this.partitions = partitions;
  }

  @Override
  public void flatMap(Row row, Collector<RowData> out) {
    List<Object> values = new ArrayList<>(partitionPositions.length);
    for (int position : partitionPositions) {
      values.add(row.getField(position));
    }
    if (!partitions.contains(values)) {
      return;
    }
    GenericRowData data = new GenericRowData(row.getKind(), positions.length);
    for (int i = 0; i < positions.length; i++) {
      Object value = row.getField(positions[i]);
      data.setField(i, value == null ? null : converters[i].convert(value));
    }
    out.collect(data);
  }
}
