package io.ktk.flink.source.rowdata;

import io.ktk.flink.source.engine.ResultBatch;
import io.ktk.flink.source.reader.RecordFormat;
import io.ktk.flink.state.types.FlinkArrowTypes;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;

/**
 * Records as Flink's internal {@link RowData}, made from a result batch's column vectors without
 * boxing: each record is a view of one row ({@link VectorRowData}) that reads its fields from the
 * vectors when asked, longs and doubles straight from their primitive arrays. The columns are
 * typed as {@link FlinkArrowTypes#toLogicalType} reads the result's Arrow types (what the
 * Kartothek catalog declares); the field values equal what Flink's conversion of the {@link
 * RecordFormat#ROWS} rows to {@code RowData} gives.
 */
public final class RowDataFormat implements RecordFormat<RowData> {
  private static final long serialVersionUID = 1L;

  private final LogicalType[] types;
  private final int[] positions;

  private RowDataFormat(LogicalType[] types, int[] positions) {
    if (types.length != positions.length) {
      throw new IllegalArgumentException(types.length + " types for " + positions.length + " columns");
    }
    this.types = types;
    this.positions = positions;
  }

  /** Every column of the result, typed as {@code type}'s fields. */
  public static RowDataFormat of(RowType type) {
    return new RowDataFormat(type.getChildren().toArray(LogicalType[]::new),
        IntStream.range(0, type.getFieldCount()).toArray());
  }

  /**
   * Field {@code i} is the result's column {@code positions[i]}, of type {@code types.get(i)} (the
   * others, such as columns only a filter needs, are left out).
   */
  public static RowDataFormat of(List<LogicalType> types, int[] positions) {
    return new RowDataFormat(types.toArray(LogicalType[]::new), positions.clone());
  }

  /** The row type of a query's output columns, each as the Kartothek catalog reads its Arrow type. */
  public static RowType rowType(Schema output) {
    List<Field> fields = output.getFields();
    return RowType.of(false, fields.stream().map(FlinkArrowTypes::toLogicalType).toArray(LogicalType[]::new),
        fields.stream().map(Field::getName).toArray(String[]::new));
  }

  /** The records' type information: Flink's own for {@code RowData} of {@code type}. */
  public static InternalTypeInfo<RowData> typeOf(RowType type) {
    return InternalTypeInfo.of(type);
  }

  @Override
  public IntFunction<RowData> records(ResultBatch batch, RowKind kind) {
    ColumnView[] columns = new ColumnView[types.length];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = ColumnView.of(batch.column(positions[i]), types[i]);
    }
    return row -> new VectorRowData(columns, row, kind);
  }
}
