package io.ktk.flink.state.vector;

import static java.util.Objects.requireNonNull;

import java.nio.LongBuffer;
import java.util.Arrays;

/**
 * A column of values held as longs: integers, dates, times, timestamps and decimals of up to 18
 * digits, each interpreted by the vector's {@link LongType}.
 */
public final class LongVector implements TypedVector {
  private final LongType type;
  private long[] values;
  private final NullFlags nulls = new NullFlags();
  private int size;

  public LongVector(LongType type, int capacity) {
    this.type = requireNonNull(type, "type is null");
    values = new long[Math.max(1, capacity)];
  }

  public LongType type() {
    return type;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean isNull(int row) {
    return nulls.isNull(row);
  }

  /** The long of a row that is not null. */
  public long value(int row) {
    return values[row];
  }

  /** The backing values, valid up to {@link #size()}; a null row holds 0. */
  public long[] values() {
    return values;
  }

  /** Whether any row is null. */
  public boolean hasNulls() {
    return nulls.any();
  }

  @Override
  public Object get(int row) {
    return isNull(row) ? null : type.box(values[row]);
  }

  public void append(long value) {
    ensure(size + 1);
    values[size++] = value;
  }

  /** Appends the next {@code count} values of {@code source}, none of them null. */
  public void append(LongBuffer source, int count) {
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
  public LongVector gather(int[] rows, int count) {
    LongVector out = new LongVector(type, count);
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
  public LongVector emptyCopy(int capacity) {
    return new LongVector(type, capacity);
  }

  @Override
  public boolean canAppend(TypedVector other) {
    return other instanceof LongVector from && from.type.equals(type);
  }

  @Override
  public void appendFrom(TypedVector other) {
    LongVector from = (LongVector) other;
    if (!from.type.equals(type)) {
      throw new IllegalArgumentException("Cannot append longs of type " + from.type + " to a vector of " + type);
    }
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
