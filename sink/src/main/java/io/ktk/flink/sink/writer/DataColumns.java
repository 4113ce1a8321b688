package io.ktk.flink.sink.writer;

import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * What the data files of a dataset hold: the declared columns without the partition columns, in
 * declared order, with their positions in the records, their Flink types and declared Arrow
 * fields; and the positions of the index columns.
 */
record DataColumns(
    String dataset,
    RowType rowType,
    int[] positions,
    List<LogicalType> types,
    List<Field> fields,
    int[] indexPositions) {}
