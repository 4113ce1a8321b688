package io.ktk.flink.state.rowformat;

import static java.util.Objects.checkFromToIndex;
import static java.util.Objects.checkIndex;

import java.util.Arrays;

/**
 * Assigns dense int ids ({@code 0, 1, 2, ...} in order of first appearance) to distinct encoded
 * rows, so that the sink can route each record to its partition's buffer by an array lookup: encode
 * the record's key into a {@link RowBuffer}, then {@code getOrAdd(buffer)}. Nothing is allocated
 * per lookup; a new key is copied once into one growing byte array.
 *
 * <p>Open addressing with linear probing over a power-of-two table of ids, with the 32-bit hash
 * of each id kept alongside so that most probes compare no bytes. Not thread-safe.
 */
public final class RowKeyMap {
  private static final float LOAD_FACTOR = 0.5f;

  private int[] slots; // id + 1, 0 = empty
  private int[] slotHashes;
  private int mask;
  private byte[] keyBytes;
  private int[] keyOffsets; // key of id i is keyBytes[keyOffsets[i] .. keyOffsets[i + 1])
  private int size;

  public RowKeyMap() {
    this(16);
  }

  public RowKeyMap(int expectedKeys) {
    if (expectedKeys < 0) {
      throw new IllegalArgumentException(
          "Cannot create row key map: expected key count " + expectedKeys + " is negative");
    }
    int capacity = Integer.highestOneBit(Math.max(4, (int) (expectedKeys / LOAD_FACTOR)) * 2 - 1);
    slots = new int[capacity];
    slotHashes = new int[capacity];
    mask = capacity - 1;
    keyBytes = new byte[(int) Math.min(1 << 30, Math.max(64L, expectedKeys * 16L))];
    keyOffsets = new int[Math.max(2, expectedKeys + 1)];
  }

  public int size() {
    return size;
  }

  /** The id of the key, adding it with the next id if absent. */
  public int getOrAdd(byte[] key, int from, int to) {
    checkFromToIndex(from, to, key.length);
    int hash = hash32(key, from, to);
    int slot = hash & mask;
    while (true) {
      int entry = slots[slot];
      if (entry == 0) {
        return add(key, from, to, hash, slot);
      }
      if (slotHashes[slot] == hash && keyEquals(entry - 1, key, from, to)) {
        return entry - 1;
      }
      slot = (slot + 1) & mask;
    }
  }

  public int getOrAdd(RowBuffer key) {
    return getOrAdd(key.array(), 0, key.length());
  }

  /** The id of the key, or -1 if absent. */
  public int get(byte[] key, int from, int to) {
    checkFromToIndex(from, to, key.length);
    int hash = hash32(key, from, to);
    int slot = hash & mask;
    while (true) {
      int entry = slots[slot];
      if (entry == 0) {
        return -1;
      }
      if (slotHashes[slot] == hash && keyEquals(entry - 1, key, from, to)) {
        return entry - 1;
      }
      slot = (slot + 1) & mask;
    }
  }

  public int get(RowBuffer key) {
    return get(key.array(), 0, key.length());
  }

  /** A view of the key with this id (valid as long as the map is not cleared). */
  public RowKey key(int id) {
    checkIndex(id, size);
    return new RowKey(keyBytes, keyOffsets[id], keyOffsets[id + 1]);
  }

  /** The bytes holding every key (valid until the map grows or is cleared). */
  byte[] keyBytes() {
    return keyBytes;
  }

  /** The key of id {@code i} is {@code keyBytes()[keyOffsets()[i] .. keyOffsets()[i + 1])}. */
  int[] keyOffsets() {
    return keyOffsets;
  }

  /** Removes all keys, keeping the allocated capacity; ids start again at 0. */
  public void clear() {
    Arrays.fill(slots, 0);
    size = 0;
    // a view handed out before must not see later keys written over its bytes
    keyBytes = new byte[keyBytes.length];
  }

  private int add(byte[] key, int from, int to, int hash, int slot) {
    int length = to - from;
    int start = keyOffsets[size];
    if (start + length > keyBytes.length || start + length < 0) {
      long wanted = Math.max((long) start + length, 2L * keyBytes.length);
      if (start + (long) length > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException(
            "Cannot add row key: the map already holds " + start + " bytes of keys");
      }
      keyBytes = Arrays.copyOf(keyBytes, (int) Math.min(wanted, Integer.MAX_VALUE - 8));
    }
    if (size + 2 > keyOffsets.length) {
      keyOffsets = Arrays.copyOf(keyOffsets, keyOffsets.length * 2);
    }
    System.arraycopy(key, from, keyBytes, start, length);
    keyOffsets[size + 1] = start + length;
    int id = size++;
    slots[slot] = id + 1;
    slotHashes[slot] = hash;
    if (size > slots.length * LOAD_FACTOR) {
      rehash(slots.length * 2);
    }
    return id;
  }

  private void rehash(int capacity) {
    int[] newSlots = new int[capacity];
    int[] newHashes = new int[capacity];
    int newMask = capacity - 1;
    for (int s = 0; s < slots.length; s++) {
      if (slots[s] != 0) {
        int slot = slotHashes[s] & newMask;
        while (newSlots[slot] != 0) {
          slot = (slot + 1) & newMask;
        }
        newSlots[slot] = slots[s];
        newHashes[slot] = slotHashes[s];
      }
    }
    slots = newSlots;
    slotHashes = newHashes;
    mask = newMask;
  }

  private boolean keyEquals(int id, byte[] key, int from, int to) {
    return Arrays.equals(keyBytes, keyOffsets[id], keyOffsets[id + 1], key, from, to);
  }

  private static int hash32(byte[] key, int from, int to) {
    long h = RowKey.hash(key, from, to);
    return (int) (h ^ (h >>> 32));
  }
}
