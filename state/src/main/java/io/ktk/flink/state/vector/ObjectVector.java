package io.ktk.flink.state.vector;

import java.util.Arrays;

/**
 * A column of typed Java values (strings, binaries, booleans, decimals, nested values, ...): the
 * kinds that have no primitive representation here. Values read from a Parquet dictionary page
 * are decoded once and shared by every row that refers to them.
 *
 * <p>While every value comes from one dictionary ({@link #appendEntry}) or is null, the vector also
 * knows which entry each row holds ({@link #dictionary()}, {@link #dictionaryIds()}): a condition
 * is then tested once per entry rather than once per row. Appending any other value forgets it.
 */
public final class ObjectVector implements TypedVector {
  private Object[] values;
  private int size;
  /** The entries of the dictionary rows are appended from, or null. */
  private Object[] entries;
  /** Per row, its entry (-1: null), while every row is null or from {@link #entries}; else null. */
  private int[] ids;

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
      grow(size + 1);
    }
    if (ids != null) {
      if (value == null) {
        ids[size] = -1;
      } else {
        ids = null;
      }
    }
    values[size++] = value;
  }

  /**
   * Makes {@code dictionary} the one {@link #appendEntry} appends from. Rows keep their entry ids
   * when it is the first dictionary of a vector without values (nulls aside); a second dictionary
   * ends the ids.
   */
  public void useDictionary(Object[] dictionary) {
    if (dictionary == entries) {
      return;
    }
    boolean onlyNulls = true;
    for (int row = 0; row < size && onlyNulls; row++) {
      onlyNulls = values[row] == null;
    }
    if (entries == null && onlyNulls) {
      ids = new int[values.length];
      Arrays.fill(ids, 0, size, -1);
    } else {
      ids = null;
    }
    entries = dictionary;
  }

  /** Appends entry {@code id} of the dictionary of {@link #useDictionary}. */
  public void appendEntry(int id) {
    if (size == values.length) {
      grow(size + 1);
    }
    if (ids != null) {
      ids[size] = id;
    }
    values[size++] = entries[id];
  }

  /** The dictionary whose entries all non-null rows hold ({@link #dictionaryIds()}), or null. */
  public Object[] dictionary() {
    return ids == null ? null : entries;
  }

  /**
   * Per row, the entry of {@link #dictionary()} it holds, or -1 for a null (valid up to {@link
   * #size()}; read only); null when there is no dictionary.
   */
  public int[] dictionaryIds() {
    return ids;
  }

  private void grow(int needed) {
    int capacity = Math.max(needed, size + (size >> 1));
    values = Arrays.copyOf(values, capacity);
    if (ids != null) {
      ids = Arrays.copyOf(ids, capacity);
    }
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
    if (ids != null) {
      out.entries = entries;
      out.ids = new int[out.values.length];
      for (int i = 0; i < count; i++) {
        out.ids[i] = rows[i] < 0 ? -1 : ids[rows[i]];
      }
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
        grow(size + from.size);
      }
      System.arraycopy(from.values, 0, values, size, from.size);
      if (ids != null && from.ids != null && from.entries == entries) {
        System.arraycopy(from.ids, 0, ids, size, from.size);
      } else {
        ids = null;
      }
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
