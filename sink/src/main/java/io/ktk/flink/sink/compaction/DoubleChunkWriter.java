package io.ktk.flink.sink.compaction;

import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.DoubleStatistics;
import org.apache.parquet.column.statistics.Statistics;

/**
 * The chunk of a DOUBLE column. Dictionary entries are told apart by their bits, so {@code -0.0}
 * and {@code 0.0}, and NaNs of other payloads, keep their own entries (and so their bits).
 */
final class DoubleChunkWriter extends ChunkWriter {
  private double[] plain = new double[1024];
  private long[] entries = new long[64];
  private int entryCount;
  private int[] slots = new int[256];

  DoubleChunkWriter(ColumnDescriptor column, PageWriter pages, boolean dictionary, Limits limits, String source) {
    super(column, pages, dictionary, limits, source);
  }

  void addValue(double value) {
    if (dictionaryMode) {
      addId(idOf(Double.doubleToRawLongBits(value)));
      if ((long) entryCount * 8 > dictionaryLimitBytes) {
        fallBack();
      }
      return;
    }
    if (values == plain.length) {
      plain = Arrays.copyOf(plain, plain.length * 2);
    }
    plain[values] = value;
    present();
  }

  /** Adds the present values {@code source[from, from + count)}. */
  void addValues(double[] source, int from, int count) {
    if (dictionaryMode) {
      for (int i = 0; i < count; i++) {
        addValue(source[from + i]);
      }
      return;
    }
    int done = 0;
    while (done < count) {
      int n = Math.min(count - done, room(8));
      if (values + n > plain.length) {
        plain = Arrays.copyOf(plain, Math.max(values + n, plain.length * 2));
      }
      System.arraycopy(source, from + done, plain, values, n);
      presentRun(n);
      done += n;
    }
  }

  /** See {@link LongChunkWriter#dictionaryIds}. */
  int[] dictionaryIds(double[] inputEntries) {
    if (!dictionaryMode) {
      return null;
    }
    int[] ids = new int[inputEntries.length];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = idOf(Double.doubleToRawLongBits(inputEntries[i]));
    }
    if ((long) entryCount * 8 > dictionaryLimitBytes) {
      fallBack();
      return null;
    }
    return ids;
  }

  private int idOf(long bits) {
    int mask = slots.length - 1;
    int slot = mix(bits) & mask;
    for (int id = slots[slot]; id != 0; id = slots[slot]) {
      if (entries[id - 1] == bits) {
        return id - 1;
      }
      slot = (slot + 1) & mask;
    }
    if (entryCount == entries.length) {
      entries = Arrays.copyOf(entries, entries.length * 2);
    }
    entries[entryCount] = bits;
    slots[slot] = ++entryCount;
    if (entryCount * 2 > slots.length) {
      slots = new int[slots.length * 2];
      int newMask = slots.length - 1;
      for (int id = 0; id < entryCount; id++) {
        int at = mix(entries[id]) & newMask;
        while (slots[at] != 0) {
          at = (at + 1) & newMask;
        }
        slots[at] = id + 1;
      }
    }
    return entryCount - 1;
  }

  private static int mix(long value) {
    long h = value * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }

  @Override
  long plainBytes() {
    return 8L * values;
  }

  @Override
  BytesInput plainValues() {
    byte[] bytes = new byte[values * 8];
    for (int i = 0; i < values; i++) {
      FlatCopier.LONGS.set(bytes, i * 8, Double.doubleToRawLongBits(plain[i]));
    }
    return BytesInput.from(bytes);
  }

  @Override
  void updatePlainStatistics(Statistics<?> statistics) {
    DoubleStatistics doubles = (DoubleStatistics) statistics;
    for (int i = 0; i < values; i++) {
      doubles.updateStats(plain[i]);
    }
  }

  @Override
  void updateStatistics(Statistics<?> statistics, long[] used) {
    DoubleStatistics doubles = (DoubleStatistics) statistics;
    for (int word = 0; word < used.length; word++) {
      for (long bits = used[word]; bits != 0; bits &= bits - 1) {
        doubles.updateStats(Double.longBitsToDouble(entries[(word << 6) + Long.numberOfTrailingZeros(bits)]));
      }
    }
  }

  @Override
  void resetValues() {}

  @Override
  int dictionarySize() {
    return entryCount;
  }

  @Override
  long dictionaryBytesSize() {
    return 8L * entryCount;
  }

  @Override
  BytesInput dictionaryBytes() {
    byte[] bytes = new byte[entryCount * 8];
    for (int i = 0; i < entryCount; i++) {
      FlatCopier.LONGS.set(bytes, i * 8, entries[i]);
    }
    return BytesInput.from(bytes);
  }
}
