package io.ktk.flink.sink.writer;

import io.ktk.flink.state.metadata.PrimaryKey;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.types.RowKind;
import org.apache.flink.types.variant.Variant;

/**
 * A change of a dataset with a primary key as the row of a change file ({@code docs/cdc.md}): the
 * record's columns, then the boolean column {@value PrimaryKey#DELETED_COLUMN}, true for a delete
 * ({@code -D}), whose other columns than the key's read as null. A reused view, the mapping step
 * in front of the partition buffers: the buffers store it as they store any row.
 */
final class ChangeRow implements RowData {
  /** The Arrow field of the column that marks deletes, as the change files declare it. */
  static final Field DELETED_FIELD = Field.nullable(PrimaryKey.DELETED_COLUMN, ArrowType.Bool.INSTANCE);

  private final int deletedPosition;
  private final boolean[] keyColumn;
  private RowData row;
  private boolean deleted;

  /**
   * @param columns the record's column names
   * @param primaryKey the key's columns, which a delete keeps
   */
  ChangeRow(List<String> columns, List<String> primaryKey) {
    this.deletedPosition = columns.size();
    this.keyColumn = new boolean[columns.size()];
    for (int pos = 0; pos < keyColumn.length; pos++) {
      keyColumn[pos] = primaryKey.contains(columns.get(pos));
    }
  }

  /** This view over {@code record}, an upsert ({@code +I}, {@code +U}) or a delete ({@code -D}). */
  ChangeRow of(RowData record) {
    this.row = record;
    this.deleted = record.getRowKind() == RowKind.DELETE;
    return this;
  }

  @Override
  public int getArity() {
    return deletedPosition + 1;
  }

  @Override
  public RowKind getRowKind() {
    return RowKind.INSERT;
  }

  @Override
  public void setRowKind(RowKind kind) {
    throw new UnsupportedOperationException("a change row is a read-only view");
  }

  @Override
  public boolean isNullAt(int pos) {
    if (pos == deletedPosition) {
      return false;
    }
    return (deleted && !keyColumn[pos]) || row.isNullAt(pos);
  }

  @Override
  public boolean getBoolean(int pos) {
    return pos == deletedPosition ? deleted : row.getBoolean(pos);
  }

  @Override
  public byte getByte(int pos) {
    return row.getByte(pos);
  }

  @Override
  public short getShort(int pos) {
    return row.getShort(pos);
  }

  @Override
  public int getInt(int pos) {
    return row.getInt(pos);
  }

  @Override
  public long getLong(int pos) {
    return row.getLong(pos);
  }

  @Override
  public float getFloat(int pos) {
    return row.getFloat(pos);
  }

  @Override
  public double getDouble(int pos) {
    return row.getDouble(pos);
  }

  @Override
  public StringData getString(int pos) {
    return row.getString(pos);
  }

  @Override
  public DecimalData getDecimal(int pos, int precision, int scale) {
    return row.getDecimal(pos, precision, scale);
  }

  @Override
  public TimestampData getTimestamp(int pos, int precision) {
    return row.getTimestamp(pos, precision);
  }

  @Override
  public <T> RawValueData<T> getRawValue(int pos) {
    return row.getRawValue(pos);
  }

  @Override
  public byte[] getBinary(int pos) {
    return row.getBinary(pos);
  }

  @Override
  public ArrayData getArray(int pos) {
    return row.getArray(pos);
  }

  @Override
  public MapData getMap(int pos) {
    return row.getMap(pos);
  }

  @Override
  public RowData getRow(int pos, int numFields) {
    return row.getRow(pos, numFields);
  }

  @Override
  public Variant getVariant(int pos) {
    return row.getVariant(pos);
  }
}
