package io.ktk.flink.sink.writer;

import java.util.Arrays;
import org.apache.flink.table.data.RowData;

/**
 * {@link RowKeyIds} over the bytes of a {@link KeyEncoder}: open addressing with linear probing
 * over a power-of-two table of ids, each slot keeping the key's hash so that most probes compare
 * no bytes. Keys are copied once, when new, into one growing byte array.
 */
final class ByteKeyIds implements RowKeyIds {
  private static final int INITIAL_SLOTS = 8;

  private final KeyEncoder encoder;
  private int[] slots = new int[INITIAL_SLOTS]; // id + 1; 0 = empty
  private int[] hashes = new int[INITIAL_SLOTS];
  private byte[] keys = new byte[64];
  private int[] ends = new int[INITIAL_SLOTS]; // key of id i is keys[ends[i - 1] .. ends[i])
  private int size;

  ByteKeyIds(KeyEncoder encoder) {
    this.encoder = encoder;
  }

  @Override
  public int idOf(RowData row) {
    encoder.encode(row);
    byte[] key = encoder.bytes();
    int length = encoder.length();
    int hash = hash(key, length);
    int mask = slots.length - 1;
    for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
      int entry = slots[slot];
      if (entry == 0) {
        return add(key, length, hash, slot);
      }
      if (hashes[slot] == hash && matches(entry - 1, key, length)) {
        return entry - 1;
      }
    }
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public void clear() {
    slots = new int[INITIAL_SLOTS];
    hashes = new int[INITIAL_SLOTS];
    keys = new byte[64];
    ends = new int[INITIAL_SLOTS];
    size = 0;
  }

  @Override
  public long retainedBytes() {
    return 4L * (slots.length + hashes.length + ends.length) + keys.length;
  }

  private int add(byte[] key, int length, int hash, int slot) {
    int start = size == 0 ? 0 : ends[size - 1];
    if (start + length > keys.length) {
      keys = Arrays.copyOf(keys, Math.max(keys.length * 2, start + length));
    }
    if (size == ends.length) {
      ends = Arrays.copyOf(ends, ends.length * 2);
    }
    System.arraycopy(key, 0, keys, start, length);
    ends[size] = start + length;
    int id = size++;
    slots[slot] = id + 1;
    hashes[slot] = hash;
    if (size * 2 > slots.length) {
      rehash();
    }
    return id;
  }

  private void rehash() {
    int[] newSlots = new int[slots.length * 2];
    int[] newHashes = new int[newSlots.length];
    int mask = newSlots.length - 1;
    for (int s = 0; s < slots.length; s++) {
      if (slots[s] != 0) {
        int slot = hashes[s] & mask;
        while (newSlots[slot] != 0) {
          slot = (slot + 1) & mask;
        }
        newSlots[slot] = slots[s];
        newHashes[slot] = hashes[s];
      }
    }
    slots = newSlots;
    hashes = newHashes;
  }

  private boolean matches(int id, byte[] key, int length) {
    int start = id == 0 ? 0 : ends[id - 1];
    return Arrays.equals(keys, start, ends[id], key, 0, length);
  }

  private static int hash(byte[] key, int length) {
    int h = 0x9E3779B9;
    for (int i = 0; i < length; i++) {
      h = (h ^ key[i]) * 0x01000193;
    }
    return h ^ (h >>> 16);
  }
}
