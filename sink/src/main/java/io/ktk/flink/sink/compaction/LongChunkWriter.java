package io.ktk.flink.sink.compaction;

import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.IntStatistics;
import org.apache.parquet.column.statistics.LongStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The chunk of an INT64 or INT32 column (integers, dates, timestamps): values held as longs (an
 * INT32 column's in int range), the dictionary in an open-addressing table of longs.
 */
final class LongChunkWriter extends ChunkWriter {
  private final boolean int32;
  private final int width;
  /** Whether the column's statistics compare unsigned (integers annotated unsigned). */
  private final boolean unsigned;
  private long[] plain = new long[1024];
  private long[] entries = new long[64];
  private int entryCount;
  /** Open addressing: slot holds id + 1 (0: empty); the key is {@code entries[id]}. */
  private int[] slots = new int[256];

  LongChunkWriter(ColumnDescriptor column, PageWriter pages, boolean dictionary, Limits limits, String source) {
    super(column, pages, dictionary, limits, source);
    this.int32 = column.getPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT32;
    this.width = int32 ? 4 : 8;
    this.unsigned = column.getPrimitiveType().getLogicalTypeAnnotation()
        instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer && !integer.isSigned();
  }

  /** Adds a present value. */
  void addValue(long value) {
    if (dictionaryMode) {
      addId(idOf(value));
      if ((long) entryCount * width > dictionaryLimitBytes) {
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
  void addValues(long[] source, int from, int count) {
    if (dictionaryMode) {
      for (int i = 0; i < count; i++) {
        addValue(source[from + i]);
      }
      return;
    }
    int done = 0;
    while (done < count) {
      int n = Math.min(count - done, room(width));
      if (values + n > plain.length) {
        plain = Arrays.copyOf(plain, Math.max(values + n, plain.length * 2));
      }
      System.arraycopy(source, from + done, plain, values, n);
      presentRun(n);
      done += n;
    }
  }

  /**
   * The output dictionary ids of an input dictionary's entries (added to the output dictionary),
   * or null when the chunk is plain (or turns plain because they do not fit).
   */
  int[] dictionaryIds(long[] inputEntries) {
    if (!dictionaryMode) {
      return null;
    }
    int[] ids = new int[inputEntries.length];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = idOf(inputEntries[i]);
    }
    if ((long) entryCount * width > dictionaryLimitBytes) {
      fallBack();
      return null;
    }
    return ids;
  }

  private int idOf(long value) {
    int mask = slots.length - 1;
    int slot = mix(value) & mask;
    for (int id = slots[slot]; id != 0; id = slots[slot]) {
      if (entries[id - 1] == value) {
        return id - 1;
      }
      slot = (slot + 1) & mask;
    }
    if (entryCount == entries.length) {
      entries = Arrays.copyOf(entries, entries.length * 2);
    }
    entries[entryCount] = value;
    slots[slot] = ++entryCount;
    if (entryCount * 2 > slots.length) {
      rehash();
    }
    return entryCount - 1;
  }

  private void rehash() {
    slots = new int[slots.length * 2];
    int mask = slots.length - 1;
    for (int id = 0; id < entryCount; id++) {
      int slot = mix(entries[id]) & mask;
      while (slots[slot] != 0) {
        slot = (slot + 1) & mask;
      }
      slots[slot] = id + 1;
    }
  }

  private static int mix(long value) {
    long h = value * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }

  @Override
  long plainBytes() {
    return (long) values * width;
  }

  @Override
  BytesInput plainValues() {
    return BytesInput.from(encode(plain, values));
  }

  private byte[] encode(long[] source, int count) {
    byte[] bytes = new byte[count * width];
    if (int32) {
      for (int i = 0; i < count; i++) {
        FlatCopier.INTS.set(bytes, i * 4, (int) source[i]);
      }
    } else {
      for (int i = 0; i < count; i++) {
        FlatCopier.LONGS.set(bytes, i * 8, source[i]);
      }
    }
    return bytes;
  }

  @Override
  void updatePlainStatistics(Statistics<?> statistics) {
    if (values == 0) {
      return;
    }
    // min and max in one pass, compared as the column's statistics compare (signed or unsigned)
    long min = plain[0];
    long max = plain[0];
    if (unsigned) {
      for (int i = 1; i < values; i++) {
        long v = int32 ? plain[i] & 0xFFFF_FFFFL : plain[i];
        min = Long.compareUnsigned(v, int32 ? min & 0xFFFF_FFFFL : min) < 0 ? plain[i] : min;
        max = Long.compareUnsigned(v, int32 ? max & 0xFFFF_FFFFL : max) > 0 ? plain[i] : max;
      }
    } else {
      for (int i = 1; i < values; i++) {
        min = Math.min(min, plain[i]);
        max = Math.max(max, plain[i]);
      }
    }
    if (int32) {
      ((IntStatistics) statistics).initializeStats((int) min, (int) max);
    } else {
      ((LongStatistics) statistics).initializeStats(min, max);
    }
  }

  @Override
  void updateStatistics(Statistics<?> statistics, long[] used) {
    long min = 0;
    long max = 0;
    boolean any = false;
    for (int word = 0; word < used.length; word++) {
      for (long bits = used[word]; bits != 0; bits &= bits - 1) {
        long v = entries[(word << 6) + Long.numberOfTrailingZeros(bits)];
        if (!any) {
          min = v;
          max = v;
          any = true;
        } else if (unsigned) {
          long mask = int32 ? 0xFFFF_FFFFL : -1L;
          min = Long.compareUnsigned(v & mask, min & mask) < 0 ? v : min;
          max = Long.compareUnsigned(v & mask, max & mask) > 0 ? v : max;
        } else {
          min = Math.min(min, v);
          max = Math.max(max, v);
        }
      }
    }
    if (!any) {
      return;
    }
    if (int32) {
      ((IntStatistics) statistics).initializeStats((int) min, (int) max);
    } else {
      ((LongStatistics) statistics).initializeStats(min, max);
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
    return (long) entryCount * width;
  }

  @Override
  BytesInput dictionaryBytes() {
    return BytesInput.from(encode(entries, entryCount));
  }
}
