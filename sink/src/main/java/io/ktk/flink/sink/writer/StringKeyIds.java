package io.ktk.flink.sink.writer;

import io.ktk.flink.state.rowformat.RowKeyMap;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * {@link RowKeyIds} for a key of one CHAR or VARCHAR column, the most common partition and index
 * column: the string's UTF-8 bytes are looked up where Flink holds them (no encoding of a row key,
 * no copy for a string on one heap segment), and a null has an id of its own. Equality is that of
 * the bytes, as in {@link RowFormatKeyIds}.
 */
final class StringKeyIds implements RowKeyIds {
  private static final long BYTES_PER_KEY = 24;
  private static final long BASE_BYTES = 512;
  private static final int NO_ID = -1;

  private final int position;
  private final RowKeyMap map = new RowKeyMap(4);
  /** The id the null key has, or {@link #NO_ID}; it and the map's ids share one sequence. */
  private int nullId = NO_ID;
  /** Where a string off the heap or over several segments is copied to be looked up. */
  private byte[] scratch = new byte[64];
  private long keyBytes;

  StringKeyIds(int position) {
    this.position = position;
  }

  @Override
  public int idOf(RowData row) {
    if (row.isNullAt(position)) {
      if (nullId == NO_ID) {
        nullId = size();
        keyBytes += BYTES_PER_KEY;
      }
      return nullId;
    }
    StringData string = row.getString(position);
    byte[] bytes;
    int from;
    int length;
    if (string instanceof BinaryStringData binary) {
      binary.ensureMaterialized();
      MemorySegment[] segments = binary.getSegments();
      length = binary.getSizeInBytes();
      if (segments.length == 1 && !segments[0].isOffHeap()) {
        bytes = segments[0].getArray();
        from = binary.getOffset();
      } else {
        if (scratch.length < length) {
          scratch = new byte[Math.max(length, 2 * scratch.length)];
        }
        BinarySegmentUtils.copyToBytes(segments, binary.getOffset(), scratch, 0, length);
        bytes = scratch;
        from = 0;
      }
    } else {
      bytes = string.toBytes();
      from = 0;
      length = bytes.length;
    }
    int mapSize = map.size();
    int id = map.getOrAdd(bytes, from, from + length);
    if (id == mapSize) {
      keyBytes += length + BYTES_PER_KEY;
    }
    // the null key took the id that the map's keys after it would have had
    return nullId != NO_ID && id >= nullId ? id + 1 : id;
  }

  @Override
  public int size() {
    return map.size() + (nullId == NO_ID ? 0 : 1);
  }

  @Override
  public void clear() {
    map.clear();
    nullId = NO_ID;
    keyBytes = 0;
    if (scratch.length > 4096) {
      scratch = new byte[64];
    }
  }

  @Override
  public long retainedBytes() {
    return BASE_BYTES + 2 * keyBytes + scratch.length;
  }
}
