package io.ktk.flink.sink.writer;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.RowType;

/**
 * Dense ids {@code 0, 1, 2, ...} for the distinct values of some columns of rows, in order of
 * first appearance: how the writer finds a record's partition buffer (partition columns) and
 * whether an index value is new in a buffer (one index column). A lookup encodes the key columns
 * into a reused byte buffer (the row format of {@code state.rowformat}) and probes a hash table of
 * those bytes; it allocates nothing unless the key is new.
 *
 * <p>Not thread-safe.
 */
@Internal
public interface RowKeyIds {

  /** The id of the row's key, adding the key with the next id if it is new. */
  int idOf(RowData row);

  /** How many distinct keys have ids. */
  int size();

  /** Forgets every key; ids start again at 0. */
  void clear();

  /** Bytes of memory the keys and the table hold. */
  long retainedBytes();

  /** Ids for the key made of the columns at {@code positions} of rows of {@code rowType}. */
  static RowKeyIds of(RowType rowType, int... positions) {
    if (positions.length == 1 && rowType.getTypeAt(positions[0]).is(LogicalTypeFamily.CHARACTER_STRING)) {
      return new StringKeyIds(positions[0]);
    }
    return new RowFormatKeyIds(rowType, positions);
  }
}
