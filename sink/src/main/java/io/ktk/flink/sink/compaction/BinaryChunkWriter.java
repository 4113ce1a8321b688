package io.ktk.flink.sink.compaction;

import io.ktk.flink.state.rowformat.RowKeyMap;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.BinaryStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The chunk of a BINARY column (strings, binary) or FIXED_LEN_BYTE_ARRAY column (decimals, fixed
 * size binary): plain values in one byte array (each behind its 4-byte length, for BINARY), the
 * dictionary in a {@link RowKeyMap} with a {@link Binary} per entry for statistics.
 */
final class BinaryChunkWriter extends ChunkWriter {
  private final boolean fixed;
  private byte[] plain = new byte[4096];
  private int plainLength;
  /** Where each plain value of the page starts in {@link #plain}, after its length prefix. */
  private int[] starts = new int[1024];
  private final RowKeyMap dictionary = new RowKeyMap(256);
  private Binary[] entries = new Binary[64];
  private long entryBytes;

  BinaryChunkWriter(ColumnDescriptor column, PageWriter pages, boolean dictionary, Limits limits, String source) {
    super(column, pages, dictionary, limits, source);
    this.fixed = column.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
  }

  void addValue(Binary value) {
    ByteBuffer buffer = value.toByteBuffer();
    if (buffer.hasArray()) {
      addValue(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
    } else {
      byte[] bytes = value.getBytes();
      addValue(bytes, 0, bytes.length);
    }
  }

  /** Adds the present value {@code data[from, from + length)}. */
  void addValue(byte[] data, int from, int length) {
    if (dictionaryMode) {
      addId(idOf(data, from, length));
      if (entryBytes > dictionaryLimitBytes) {
        fallBack();
      }
      return;
    }
    int prefix = fixed ? 0 : 4;
    if (plainLength + prefix + length > plain.length) {
      plain = Arrays.copyOf(plain, Math.max(plainLength + prefix + length, plain.length * 2));
    }
    if (!fixed) {
      FlatCopier.INTS.set(plain, plainLength, length);
    }
    System.arraycopy(data, from, plain, plainLength + prefix, length);
    if (values == starts.length) {
      starts = Arrays.copyOf(starts, starts.length * 2);
    }
    starts[values] = plainLength + prefix;
    plainLength += prefix + length;
    present();
  }

  /** See {@link LongChunkWriter#dictionaryIds}. */
  int[] dictionaryIds(Binary[] inputEntries) {
    if (!dictionaryMode) {
      return null;
    }
    int[] ids = new int[inputEntries.length];
    for (int i = 0; i < ids.length; i++) {
      ByteBuffer buffer = inputEntries[i].toByteBuffer();
      byte[] bytes = buffer.hasArray() ? buffer.array() : inputEntries[i].getBytes();
      int from = buffer.hasArray() ? buffer.arrayOffset() + buffer.position() : 0;
      ids[i] = idOf(bytes, from, inputEntries[i].length());
    }
    if (entryBytes > dictionaryLimitBytes) {
      fallBack();
      return null;
    }
    return ids;
  }

  private int idOf(byte[] data, int from, int length) {
    int size = dictionary.size();
    int id = dictionary.getOrAdd(data, from, from + length);
    if (id == size) {
      if (id == entries.length) {
        entries = Arrays.copyOf(entries, entries.length * 2);
      }
      entries[id] = Binary.fromConstantByteArray(Arrays.copyOfRange(data, from, from + length));
      entryBytes += (fixed ? 0 : 4) + length;
    }
    return id;
  }

  @Override
  long plainBytes() {
    return plainLength;
  }

  @Override
  BytesInput plainValues() {
    return BytesInput.from(Arrays.copyOf(plain, plainLength));
  }

  @Override
  void updatePlainStatistics(Statistics<?> statistics) {
    BinaryStatistics binaries = (BinaryStatistics) statistics;
    for (int i = 0; i < values; i++) {
      int end = i + 1 < values ? starts[i + 1] - (fixed ? 0 : 4) : plainLength;
      binaries.updateStats(Binary.fromReusedByteArray(plain, starts[i], end - starts[i]));
    }
  }

  @Override
  void updateStatistics(Statistics<?> statistics, long[] used) {
    BinaryStatistics binaries = (BinaryStatistics) statistics;
    for (int word = 0; word < used.length; word++) {
      for (long bits = used[word]; bits != 0; bits &= bits - 1) {
        binaries.updateStats(entries[(word << 6) + Long.numberOfTrailingZeros(bits)]);
      }
    }
  }

  @Override
  void resetValues() {
    plainLength = 0;
  }

  @Override
  int dictionarySize() {
    return dictionary.size();
  }

  @Override
  long dictionaryBytesSize() {
    return entryBytes;
  }

  @Override
  BytesInput dictionaryBytes() {
    byte[] bytes = new byte[(int) entryBytes];
    int at = 0;
    for (int id = 0; id < dictionary.size(); id++) {
      byte[] entry = entries[id].getBytesUnsafe();
      if (!fixed) {
        FlatCopier.INTS.set(bytes, at, entry.length);
        at += 4;
      }
      System.arraycopy(entry, 0, bytes, at, entry.length);
      at += entry.length;
    }
    return BytesInput.from(bytes);
  }
}
