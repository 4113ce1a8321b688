package io.ktk.flink.state.vector;

import java.util.Arrays;

/**
 * A column of typed Java values (strings, binaries, booleans, decimals, nested values, ...): the
 * kinds that have no primitive representation here. Values read from a Parquet dictionary page
 * are decoded once and shared by every row that refers to them.
 *
 * <p>While every value comes from a dictionary ({@link #appendEntry}, or rows of vectors that have
 * one: their dictionaries are merged) or is null, the vector also knows which entry each row holds
 * ({@link #dictionary()}, {@link #dictionaryIds()}): a condition is then tested, a key ranked, once
 * per entry rather than once per row. Appending any other value ends this for good.
 */
public final class ObjectVector implements TypedVector {
  /** Past this many entries a dictionary of appended vectors is given up (it saves little per row then). */
  private static final int MAX_MERGED_ENTRIES = 1 << 16;

  private Object[] values;
  private int size;
  /** The dictionary {@link #appendEntry} appends from, or null. */
  private Object[] source;
  /** The entries rows hold by id: {@link #source}, or a merge of the dictionaries of appended vectors. */
  private Object[] entries;
  /** Per row, its entry (-1: null), while every row is null or has an entry of {@link #entries}; else null. */
  private int[] ids;
  /** Whether a row holds a value without an entry: the rows have no dictionary from then on. */
  private boolean uncoded;
  /** Each entry's id, built on the first merge. */
  private java.util.Map<Object, Integer> index;

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
    if (value != null) {
      uncode();
    } else if (ids != null) {
      ids[size] = -1;
    }
    values[size++] = value;
  }

  private void uncode() {
    uncoded = true;
    ids = null;
    entries = null;
    index = null;
  }

  /** Starts ids with {@code dictionary} when no row holds a value yet (nulls get -1). */
  private boolean startCoding(Object[] dictionary) {
    if (uncoded || ids != null) {
      return false;
    }
    ids = new int[values.length];
    Arrays.fill(ids, 0, size, -1);
    entries = dictionary;
    return true;
  }

  /**
   * Makes {@code dictionary} the one {@link #appendEntry} appends from. Rows keep their entry ids
   * when it is the first dictionary of a vector without values (nulls aside); a second dictionary
   * ends the ids.
   */
  public void useDictionary(Object[] dictionary) {
    if (dictionary == source) {
      return;
    }
    source = dictionary;
    if (!startCoding(dictionary) && ids != null) {
      uncode();
    }
  }

  /** Appends entry {@code id} of the dictionary of {@link #useDictionary}. */
  public void appendEntry(int id) {
    if (size == values.length) {
      grow(size + 1);
    }
    if (ids != null) {
      ids[size] = id;
    }
    values[size++] = source[id];
  }

  /**
   * Adds the entries of {@code other} that are not among {@link #entries} (by {@code equals});
   * returns the id each of them has here, or null when the merged dictionary grows too large.
   */
  private int[] merge(Object[] other) {
    if (index == null) {
      index = new java.util.HashMap<>(Math.max(16, entries.length * 2));
      for (int id = 0; id < entries.length; id++) {
        index.putIfAbsent(entries[id], id);
      }
    }
    int[] remap = new int[other.length];
    java.util.List<Object> added = new java.util.ArrayList<>();
    for (int i = 0; i < other.length; i++) {
      Integer id = index.get(other[i]);
      if (id == null) {
        id = entries.length + added.size();
        index.put(other[i], id);
        added.add(other[i]);
      }
      remap[i] = id;
    }
    if (!added.isEmpty()) {
      if (entries.length + added.size() > MAX_MERGED_ENTRIES) {
        return null;
      }
      Object[] merged = Arrays.copyOf(entries, entries.length + added.size());
      for (int i = 0; i < added.size(); i++) {
        merged[entries.length + i] = added.get(i);
      }
      entries = merged; // a new array: the dictionaries merged from are never written
    }
    return remap;
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
    out.uncoded = uncoded;
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
      appendIds(from);
      size += from.size;
      return;
    }
    for (int row = 0; row < other.size(); row++) {
      append(other.get(row));
    }
  }

  /** Continues the ids with those of {@code from}'s rows, merging its dictionary into this one's. */
  private void appendIds(ObjectVector from) {
    if (uncoded) {
      return;
    }
    if (from.ids == null) {
      if (from.uncoded) {
        uncode();
      } else if (ids != null) {
        Arrays.fill(ids, size, size + from.size, -1); // only nulls
      }
      return;
    }
    if (ids == null) {
      startCoding(from.entries);
    }
    if (from.entries == entries) {
      System.arraycopy(from.ids, 0, ids, size, from.size);
      return;
    }
    int[] remap = merge(from.entries);
    if (remap == null) {
      uncode();
      return;
    }
    for (int i = 0; i < from.size; i++) {
      int id = from.ids[i];
      ids[size + i] = id < 0 ? -1 : remap[id];
    }
  }

  /** A copy of {@code vector} as typed values. */
  public static ObjectVector copyOf(TypedVector vector) {
    ObjectVector out = new ObjectVector(vector.size());
    out.appendFrom(vector);
    return out;
  }
}
