package io.ktk.flink.state.vector;

import java.nio.DoubleBuffer;
import java.util.Arrays;

/** A column of float16, float or double values, as doubles (narrower values are widened exactly). */
public final class DoubleVector implements TypedVector {
  private double[] values;
  private final NullFlags nulls = new NullFlags();
  private int size;

  public DoubleVector(int capacity) {
    values = new double[Math.max(1, capacity)];
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean isNull(int row) {
    return nulls.isNull(row);
  }

  /** The value of a row that is not null. */
  public double value(int row) {
    return values[row];
  }

  /** The backing values, valid up to {@link #size()}; a null row holds 0. */
  public double[] values() {
    return values;
  }

  /** Whether any row is null. */
  public boolean hasNulls() {
    return nulls.any();
  }

  @Override
  public Object get(int row) {
    return isNull(row) ? null : values[row];
  }

  public void append(double value) {
    ensure(size + 1);
    values[size++] = value;
  }

  /** Appends the next {@code count} values of {@code source}, none of them null. */
  public void append(DoubleBuffer source, int count) {
    ensure(size + count);
    source.get(values, size, count);
    size += count;
  }

  @Override
  public void appendNull() {
    ensure(size + 1);
    nulls.mark(size++, values.length);
  }

  @Override
  public DoubleVector gather(int[] rows, int count) {
    DoubleVector out = new DoubleVector(count);
    boolean anyNull = nulls.any();
    for (int i = 0; i < count; i++) {
      int row = rows[i];
      if (row < 0 || anyNull && nulls.isNull(row)) {
        out.nulls.mark(i, count);
      } else {
        out.values[i] = values[row];
      }
    }
    out.size = count;
    return out;
  }

  @Override
  public DoubleVector emptyCopy(int capacity) {
    return new DoubleVector(capacity);
  }

  @Override
  public boolean canAppend(TypedVector other) {
    return other instanceof DoubleVector;
  }

  @Override
  public void appendFrom(TypedVector other) {
    DoubleVector from = (DoubleVector) other;
    ensure(size + from.size);
    System.arraycopy(from.values, 0, values, size, from.size);
    nulls.copy(from.nulls, from.size, size, values.length);
    size += from.size;
  }

  private void ensure(int capacity) {
    if (capacity > values.length) {
      int grown = Math.max(capacity, values.length + (values.length >> 1));
      values = Arrays.copyOf(values, grown);
      nulls.grow(grown);
    }
  }
}
