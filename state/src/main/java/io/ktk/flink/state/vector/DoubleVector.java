package io.ktk.flink.state.vector;

import java.nio.DoubleBuffer;
import java.util.Arrays;

/** A column of float16, float or double values, as doubles (narrower values are widened exactly). */
public final class DoubleVector implements ColumnVector {
  private double[] values;
  /** Which rows are null; allocated with the first null. */
  private boolean[] nulls;
  private int size;
  private boolean hasNulls;

  public DoubleVector(int capacity) {
    values = new double[Math.max(1, capacity)];
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean isNull(int row) {
    return nulls != null && nulls[row];
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
    return hasNulls;
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
    markNull(size++);
  }

  private void markNull(int row) {
    if (nulls == null) {
      nulls = new boolean[values.length];
    }
    nulls[row] = true;
    hasNulls = true;
  }

  @Override
  public DoubleVector gather(int[] rows, int count) {
    DoubleVector out = new DoubleVector(count);
    boolean[] rowNulls = hasNulls ? nulls : null;
    for (int i = 0; i < count; i++) {
      int row = rows[i];
      if (row < 0 || rowNulls != null && rowNulls[row]) {
        out.markNull(i);
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
  public boolean canAppend(ColumnVector other) {
    return other instanceof DoubleVector;
  }

  @Override
  public void appendFrom(ColumnVector other) {
    DoubleVector from = (DoubleVector) other;
    ensure(size + from.size);
    System.arraycopy(from.values, 0, values, size, from.size);
    if (from.nulls != null) {
      if (nulls == null) {
        nulls = new boolean[values.length];
      }
      System.arraycopy(from.nulls, 0, nulls, size, from.size);
      hasNulls |= from.hasNulls;
    }
    size += from.size;
  }

  private void ensure(int capacity) {
    if (capacity > values.length) {
      int grown = Math.max(capacity, values.length + (values.length >> 1));
      values = Arrays.copyOf(values, grown);
      if (nulls != null) {
        nulls = Arrays.copyOf(nulls, grown);
      }
    }
  }
}
