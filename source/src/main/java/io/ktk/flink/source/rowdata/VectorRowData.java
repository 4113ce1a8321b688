package io.ktk.flink.source.rowdata;

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
 * One row of a result batch as Flink's {@link RowData}: a view of row {@code row} of the batch's
 * column vectors, which are read-only once the batch is made, so nothing is copied or boxed until
 * a field is read. Like Flink's {@code ColumnarRowData}, but over this project's vectors; the
 * {@link org.apache.flink.table.runtime.typeutils.RowDataSerializer} copies or serializes it field
 * by field like any other {@code RowData}.
 */
final class VectorRowData implements RowData {
  private final ColumnView[] columns;
  private final int row;
  private RowKind kind;

  VectorRowData(ColumnView[] columns, int row, RowKind kind) {
    this.columns = columns;
    this.row = row;
    this.kind = kind;
  }

  @Override
  public int getArity() {
    return columns.length;
  }

  @Override
  public RowKind getRowKind() {
    return kind;
  }

  @Override
  public void setRowKind(RowKind kind) {
    this.kind = kind;
  }

  @Override
  public boolean isNullAt(int pos) {
    return columns[pos].isNull(row);
  }

  @Override
  public boolean getBoolean(int pos) {
    return columns[pos].getBoolean(row);
  }

  @Override
  public byte getByte(int pos) {
    return columns[pos].getByte(row);
  }

  @Override
  public short getShort(int pos) {
    return columns[pos].getShort(row);
  }

  @Override
  public int getInt(int pos) {
    return columns[pos].getInt(row);
  }

  @Override
  public long getLong(int pos) {
    return columns[pos].getLong(row);
  }

  @Override
  public float getFloat(int pos) {
    return columns[pos].getFloat(row);
  }

  @Override
  public double getDouble(int pos) {
    return columns[pos].getDouble(row);
  }

  @Override
  public StringData getString(int pos) {
    return columns[pos].getString(row);
  }

  /** The column's own precision and scale: they are those of its type. */
  @Override
  public DecimalData getDecimal(int pos, int precision, int scale) {
    return columns[pos].getDecimal(row);
  }

  /** The timestamp at the column's own precision. */
  @Override
  public TimestampData getTimestamp(int pos, int precision) {
    return columns[pos].getTimestamp(row);
  }

  @Override
  public <T> RawValueData<T> getRawValue(int pos) {
    throw new UnsupportedOperationException("A Kartothek result has no RAW columns (column " + pos + ")");
  }

  @Override
  public byte[] getBinary(int pos) {
    return columns[pos].getBinary(row);
  }

  @Override
  public ArrayData getArray(int pos) {
    return columns[pos].getArray(row);
  }

  @Override
  public MapData getMap(int pos) {
    throw new UnsupportedOperationException("A Kartothek result has no MAP columns (column " + pos + ")");
  }

  @Override
  public RowData getRow(int pos, int numFields) {
    return columns[pos].getRow(row);
  }

  @Override
  public Variant getVariant(int pos) {
    throw new UnsupportedOperationException("A Kartothek result has no VARIANT columns (column " + pos + ")");
  }

  @Override
  public String toString() {
    return kind.shortString() + "(row " + row + " of a batch of " + columns.length + " columns)";
  }
}
