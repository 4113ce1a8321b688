package io.ktk.flink.sink.writer;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The distinct values one index column takes in one partition buffer, as typed values: when the
 * buffer becomes a file, each of them gets the file's label in the commit's index delta. A value
 * seen before costs a key lookup; only a new one is converted and kept.
 */
final class IndexValues {
  /** Rough heap cost of one typed value and its list slot. */
  private static final long BYTES_PER_VALUE = 64;

  private final String dataset;
  private final RowType rowType;
  private final int position;
  private final RowKeyIds ids;
  private final List<Object> values = new ArrayList<>();
  private long reported;

  IndexValues(String dataset, RowType rowType, int position) {
    this.dataset = dataset;
    this.rowType = rowType;
    this.position = position;
    this.ids = RowKeyIds.of(rowType, position);
  }

  /** Adds the row's value; returns the change of retained bytes to report. */
  long add(RowData row) {
    if (row.isNullAt(position)) {
      return 0; // a delete of a dataset with a primary key: its index columns are not written
    }
    if (ids.idOf(row) < values.size()) {
      return 0;
    }
    values.add(RowFieldValues.typed(dataset, rowType, row, position, false));
    long now = ids.retainedBytes() + BYTES_PER_VALUE * values.size();
    long delta = now - reported;
    reported = now;
    return delta;
  }

  String column() {
    return rowType.getFieldNames().get(position);
  }

  List<Object> values() {
    return values;
  }

  /** Forgets the values; returns the (negative) change of retained bytes to report. */
  long clear() {
    ids.clear();
    values.clear();
    long delta = -reported;
    reported = 0;
    return delta;
  }
}
