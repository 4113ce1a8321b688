package io.ktk.flink.sink.writer;

import io.ktk.flink.state.rowformat.RowBuffer;
import io.ktk.flink.state.rowformat.RowConverter;
import io.ktk.flink.state.rowformat.RowDataEncoder;
import io.ktk.flink.state.rowformat.RowKeyMap;
import io.ktk.flink.state.types.FlinkArrowTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@link RowKeyIds} over the project's row format: the key columns are encoded in its unordered
 * form (equality and hashing only; -0.0 equals 0.0 and all NaNs are equal) into a reused {@link
 * RowBuffer}, and a {@link RowKeyMap} gives the dense ids.
 */
final class RowFormatKeyIds implements RowKeyIds {
  /** Rough heap cost of a key beyond its bytes: table slots, hash and offset. */
  private static final long BYTES_PER_KEY = 24;
  private static final long BASE_BYTES = 512;

  private final RowDataEncoder encoder;
  private final RowBuffer buffer = new RowBuffer();
  private final RowKeyMap map = new RowKeyMap(4);
  private long keyBytes;

  RowFormatKeyIds(RowType rowType, int... positions) {
    List<Field> fields = new ArrayList<>(positions.length);
    for (int position : positions) {
      fields.add(FlinkArrowTypes.toField(rowType.getFieldNames().get(position), rowType.getTypeAt(position)));
    }
    this.encoder = RowConverter.unordered(fields).rowDataEncoder(rowType, positions);
  }

  @Override
  public int idOf(RowData row) {
    encoder.encode(row, buffer);
    int size = map.size();
    int id = map.getOrAdd(buffer);
    if (id == size) {
      keyBytes += buffer.length() + BYTES_PER_KEY;
    }
    return id;
  }

  @Override
  public int size() {
    return map.size();
  }

  @Override
  public void clear() {
    map.clear();
    keyBytes = 0;
  }

  @Override
  public long retainedBytes() {
    return BASE_BYTES + 2 * keyBytes;
  }
}
