package io.ktk.flink.sink.writer;

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
 * The elements of a Flink {@link ArrayData} seen as the fields of a row, so that the column
 * buffers, which read rows, read list elements too. One instance is pointed at array after array;
 * it allocates nothing.
 */
final class ArrayElements implements RowData {
  private ArrayData array;

  ArrayElements of(ArrayData array) {
    this.array = array;
    return this;
  }

  @Override
  public int getArity() {
    return array.size();
  }

  @Override
  public RowKind getRowKind() {
    return RowKind.INSERT;
  }

  @Override
  public void setRowKind(RowKind kind) {
    throw new UnsupportedOperationException("Array elements have no row kind");
  }

  @Override
  public boolean isNullAt(int pos) {
    return array.isNullAt(pos);
  }

  @Override
  public boolean getBoolean(int pos) {
    return array.getBoolean(pos);
  }

  @Override
  public byte getByte(int pos) {
    return array.getByte(pos);
  }

  @Override
  public short getShort(int pos) {
    return array.getShort(pos);
  }

  @Override
  public int getInt(int pos) {
    return array.getInt(pos);
  }

  @Override
  public long getLong(int pos) {
    return array.getLong(pos);
  }

  @Override
  public float getFloat(int pos) {
    return array.getFloat(pos);
  }

  @Override
  public double getDouble(int pos) {
    return array.getDouble(pos);
  }

  @Override
  public StringData getString(int pos) {
    return array.getString(pos);
  }

  @Override
  public DecimalData getDecimal(int pos, int precision, int scale) {
    return array.getDecimal(pos, precision, scale);
  }

  @Override
  public TimestampData getTimestamp(int pos, int precision) {
    return array.getTimestamp(pos, precision);
  }

  @Override
  public <T> RawValueData<T> getRawValue(int pos) {
    return array.getRawValue(pos);
  }

  @Override
  public byte[] getBinary(int pos) {
    return array.getBinary(pos);
  }

  @Override
  public ArrayData getArray(int pos) {
    return array.getArray(pos);
  }

  @Override
  public MapData getMap(int pos) {
    return array.getMap(pos);
  }

  @Override
  public RowData getRow(int pos, int numFields) {
    return array.getRow(pos, numFields);
  }

  @Override
  public Variant getVariant(int pos) {
    return array.getVariant(pos);
  }
}
