package io.ktk.flink.state.vector;

import java.util.Arrays;

/**
 * A column of typed Java values (strings, binaries, booleans, decimals, nested values, ...): the
 * kinds that have no primitive representation here. Values read from a Parquet dictionary page
 * are decoded once and shared by every row that refers to them.
 */
public final class ObjectVector implements TypedVector {
  private Object[] values;
  private int size;

  public ObjectVector(int capacity) {
    values = new Object[Math.max(1, capacity)];
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean isNull(int row) {
    return values[row] == null;
  }

  @Override
  public Object get(int row) {
    return values[row];
  }

  /** Appends a typed value, or null. */
  public void append(Object value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, Math.max(size + 1, size + (size >> 1)));
    }
    values[size++] = value;
  }

  @Override
  public void appendNull() {
    append(null);
  }

  @Override
  public ObjectVector gather(int[] rows, int count) {
    ObjectVector out = new ObjectVector(count);
    for (int i = 0; i < count; i++) {
      int row = rows[i];
      out.values[i] = row < 0 ? null : values[row];
    }
    out.size = count;
    return out;
  }

  @Override
  public ObjectVector emptyCopy(int capacity) {
    return new ObjectVector(capacity);
  }

  /** Any vector's rows can be appended here, as typed values. */
  @Override
  public boolean canAppend(TypedVector other) {
    return true;
  }

  @Override
  public void appendFrom(TypedVector other) {
    if (other instanceof ObjectVector from) {
      if (size + from.size > values.length) {
        values = Arrays.copyOf(values, Math.max(size + from.size, size + (size >> 1)));
      }
      System.arraycopy(from.values, 0, values, size, from.size);
      size += from.size;
      return;
    }
    for (int row = 0; row < other.size(); row++) {
      append(other.get(row));
    }
  }

  /** A copy of {@code vector} as typed values. */
  public static ObjectVector copyOf(TypedVector vector) {
    ObjectVector out = new ObjectVector(vector.size());
    out.appendFrom(vector);
    return out;
  }
}
