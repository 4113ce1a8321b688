package io.ktk.flink.sink.writer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Encodes the rows of a flat column buffer (a nullable leaf of INT32, INT64, FLOAT, DOUBLE or
 * BINARY) straight into version 1 data pages of a column chunk, from its arrays: definition
 * levels from its null bits (one run when the column has no nulls), values plainly in bulk or as
 * ids of a dictionary built over the chunk, statistics per page. This is what Parquet's column
 * writer does value by value (levels, encoders, statistics and a hash map per value), at a
 * fraction of the cost.
 *
 * <p>The dictionary is decided once per chunk, before any page is written: none when the
 * options turn dictionaries off or the column is mostly distinct ({@link
 * ColumnBuffer#mostlyDistinct}); otherwise the dictionary of the chunk's values, unless it would
 * exceed the dictionary page size or save nothing over plain values, which is how Parquet's own
 * writer falls back.
 */
final class ChunkEncoder {
  /**
   * The values of a flat column, as the buffer holds them (present values only, in row order),
   * and what the encoder needs of them by index.
   */
  abstract static class Values {
    /** Bytes of values {@code from .. to} in PLAIN encoding. */
    abstract long plainSize(int from, int to);

    /** Values {@code from .. to} in PLAIN encoding: little-endian numbers, or a 4-byte length before each binary. */
    abstract byte[] plain(int from, int to);

    abstract void updateStatistics(int from, int to, Statistics<?> statistics);

    /** The bits a dictionary tells values apart by (numbers: their raw bits; binaries: a hash). */
    abstract long bits(int value);

    abstract boolean same(int a, int b);

    /** The values at {@code indexes[0 .. count)}, in that order. */
    abstract Values select(int[] indexes, int count);
  }

  static final class Longs extends Values {
    private final long[] values;

    Longs(long[] values) {
      this.values = values;
    }

    @Override
    long plainSize(int from, int to) {
      return 8L * (to - from);
    }

    @Override
    byte[] plain(int from, int to) {
      byte[] out = new byte[8 * (to - from)];
      ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().put(values, from, to - from);
      return out;
    }

    @Override
    void updateStatistics(int from, int to, Statistics<?> statistics) {
      for (int i = from; i < to; i++) {
        statistics.updateStats(values[i]);
      }
    }

    @Override
    long bits(int value) {
      return values[value];
    }

    @Override
    boolean same(int a, int b) {
      return values[a] == values[b];
    }

    @Override
    Values select(int[] indexes, int count) {
      long[] selected = new long[count];
      for (int i = 0; i < count; i++) {
        selected[i] = values[indexes[i]];
      }
      return new Longs(selected);
    }
  }

  static final class Doubles extends Values {
    private final double[] values;

    Doubles(double[] values) {
      this.values = values;
    }

    @Override
    long plainSize(int from, int to) {
      return 8L * (to - from);
    }

    @Override
    byte[] plain(int from, int to) {
      byte[] out = new byte[8 * (to - from)];
      ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().put(values, from, to - from);
      return out;
    }

    @Override
    void updateStatistics(int from, int to, Statistics<?> statistics) {
      for (int i = from; i < to; i++) {
        statistics.updateStats(values[i]);
      }
    }

    @Override
    long bits(int value) {
      return Double.doubleToRawLongBits(values[value]);
    }

    @Override
    boolean same(int a, int b) {
      return bits(a) == bits(b);
    }

    @Override
    Values select(int[] indexes, int count) {
      double[] selected = new double[count];
      for (int i = 0; i < count; i++) {
        selected[i] = values[indexes[i]];
      }
      return new Doubles(selected);
    }
  }

  static final class Ints extends Values {
    private final int[] values;

    Ints(int[] values) {
      this.values = values;
    }

    @Override
    long plainSize(int from, int to) {
      return 4L * (to - from);
    }

    @Override
    byte[] plain(int from, int to) {
      byte[] out = new byte[4 * (to - from)];
      ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(values, from, to - from);
      return out;
    }

    @Override
    void updateStatistics(int from, int to, Statistics<?> statistics) {
      for (int i = from; i < to; i++) {
        statistics.updateStats(values[i]);
      }
    }

    @Override
    long bits(int value) {
      return values[value];
    }

    @Override
    boolean same(int a, int b) {
      return values[a] == values[b];
    }

    @Override
    Values select(int[] indexes, int count) {
      int[] selected = new int[count];
      for (int i = 0; i < count; i++) {
        selected[i] = values[indexes[i]];
      }
      return new Ints(selected);
    }
  }

  static final class Floats extends Values {
    private final float[] values;

    Floats(float[] values) {
      this.values = values;
    }

    @Override
    long plainSize(int from, int to) {
      return 4L * (to - from);
    }

    @Override
    byte[] plain(int from, int to) {
      byte[] out = new byte[4 * (to - from)];
      ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().put(values, from, to - from);
      return out;
    }

    @Override
    void updateStatistics(int from, int to, Statistics<?> statistics) {
      for (int i = from; i < to; i++) {
        statistics.updateStats(values[i]);
      }
    }

    @Override
    long bits(int value) {
      return Float.floatToRawIntBits(values[value]);
    }

    @Override
    boolean same(int a, int b) {
      return bits(a) == bits(b);
    }

    @Override
    Values select(int[] indexes, int count) {
      float[] selected = new float[count];
      for (int i = 0; i < count; i++) {
        selected[i] = values[indexes[i]];
      }
      return new Floats(selected);
    }
  }

  /** Value {@code i} is {@code data[ends[i - 1] .. ends[i])}. */
  static final class Bytes extends Values {
    private final byte[] data;
    private final int[] ends;

    Bytes(byte[] data, int[] ends) {
      this.data = data;
      this.ends = ends;
    }

    private int start(int value) {
      return value == 0 ? 0 : ends[value - 1];
    }

    @Override
    long plainSize(int from, int to) {
      return to == from ? 0 : 4L * (to - from) + ends[to - 1] - start(from);
    }

    @Override
    byte[] plain(int from, int to) {
      byte[] out = new byte[(int) plainSize(from, to)];
      int pos = 0;
      for (int v = from; v < to; v++) {
        int start = start(v);
        int length = ends[v] - start;
        out[pos] = (byte) length;
        out[pos + 1] = (byte) (length >>> 8);
        out[pos + 2] = (byte) (length >>> 16);
        out[pos + 3] = (byte) (length >>> 24);
        System.arraycopy(data, start, out, pos + 4, length);
        pos += 4 + length;
      }
      return out;
    }

    @Override
    void updateStatistics(int from, int to, Statistics<?> statistics) {
      for (int i = from; i < to; i++) {
        int start = start(i);
        statistics.updateStats(Binary.fromConstantByteArray(data, start, ends[i] - start));
      }
    }

    /** FNV-1a over the bytes: a collision merely costs a comparison. */
    @Override
    long bits(int value) {
      long h = 0xcbf29ce484222325L;
      for (int i = start(value); i < ends[value]; i++) {
        h = (h ^ (data[i] & 0xff)) * 0x100000001b3L;
      }
      return h;
    }

    @Override
    boolean same(int a, int b) {
      return Arrays.equals(data, start(a), ends[a], data, start(b), ends[b]);
    }

    @Override
    Values select(int[] indexes, int count) {
      int[] selectedEnds = new int[count];
      int total = 0;
      for (int i = 0; i < count; i++) {
        total += ends[indexes[i]] - start(indexes[i]);
        selectedEnds[i] = total;
      }
      byte[] selected = new byte[total];
      for (int i = 0; i < count; i++) {
        int start = start(indexes[i]);
        System.arraycopy(data, start, selected, i == 0 ? 0 : selectedEnds[i - 1], ends[indexes[i]] - start);
      }
      return new Bytes(selected, selectedEnds);
    }
  }

  private final int pageSizeBytes;
  private final int pageRowLimit;
  private final int dictionaryPageSizeBytes;
  private final ByteBufferAllocator allocator;

  ChunkEncoder(int pageSizeBytes, int pageRowLimit, int dictionaryPageSizeBytes, ByteBufferAllocator allocator) {
    this.pageSizeBytes = pageSizeBytes;
    this.pageRowLimit = pageRowLimit;
    this.dictionaryPageSizeBytes = dictionaryPageSizeBytes;
    this.allocator = allocator;
  }

  /**
   * Writes rows {@code fromRow .. toRow} of {@code column}, whose values start at value {@code
   * fromValue}, as pages of {@code pages}; returns the value after the last one written.
   */
  int encode(ColumnBuffer column, Values values, PrimitiveType type, boolean dictionaryAllowed, int fromRow,
      int toRow, int fromValue, PageWriter pages) throws IOException {
    int valueCount = 0;
    for (int row = fromRow; row < toRow; row++) {
      valueCount += column.isNull(row) ? 0 : 1;
    }
    int toValue = fromValue + valueCount;
    Dictionary dictionary = dictionaryAllowed && valueCount > 0 ? Dictionary.build(values, fromValue, toValue) : null;
    if (dictionary != null && !dictionary.pays(fromValue, toValue, dictionaryPageSizeBytes)) {
      dictionary = null;
    }
    if (dictionary != null) {
      pages.writeDictionaryPage(new DictionaryPage(BytesInput.from(dictionary.plainBytes()), dictionary.size(),
          Encoding.PLAIN_DICTIONARY));
    }
    int bytesPerValue = dictionary != null || valueCount == 0 ? 4
        : (int) Math.min(Integer.MAX_VALUE, values.plainSize(fromValue, toValue) / valueCount);
    int rowsPerPage = Math.max(1, Math.min(pageRowLimit, pageSizeBytes / Math.max(1, bytesPerValue)));
    int value = fromValue;
    for (int pageStart = fromRow; pageStart < toRow; pageStart += rowsPerPage) {
      int pageEnd = Math.min(toRow, pageStart + rowsPerPage);
      value = writePage(column, values, type, dictionary, pageStart, pageEnd, value, pages);
    }
    return value;
  }

  private int writePage(ColumnBuffer column, Values values, PrimitiveType type, Dictionary dictionary, int fromRow,
      int toRow, int fromValue, PageWriter pages) throws IOException {
    int rows = toRow - fromRow;
    byte[] levels = definitionLevels(column, fromRow, toRow);
    int nulls = 0;
    for (int row = fromRow; row < toRow && column.hasNulls(); row++) {
      nulls += column.isNull(row) ? 1 : 0;
    }
    int toValue = fromValue + rows - nulls;
    Statistics<?> statistics = Statistics.createStats(type);
    statistics.incrementNumNulls(nulls);
    BytesInput encoded;
    Encoding encoding;
    if (dictionary != null) {
      encoded = dictionary.encodeIds(fromValue, toValue, allocator, pageSizeBytes);
      if (values instanceof Bytes) {
        dictionary.updateStatistics(fromValue, toValue, statistics); // comparing bytes is dear
      } else {
        values.updateStatistics(fromValue, toValue, statistics);
      }
      encoding = Encoding.PLAIN_DICTIONARY;
    } else {
      encoded = BytesInput.from(values.plain(fromValue, toValue));
      values.updateStatistics(fromValue, toValue, statistics);
      encoding = Encoding.PLAIN;
    }
    pages.writePage(BytesInput.concat(BytesInput.from(levels), encoded), rows, rows, statistics, Encoding.RLE,
        Encoding.RLE, encoding);
    return toValue;
  }

  /**
   * The definition levels of the rows (1 for a value, 0 for a null) in the RLE / bit-packing
   * hybrid with its 4-byte length: one RLE run without nulls, else one bit-packed run.
   */
  private static byte[] definitionLevels(ColumnBuffer column, int fromRow, int toRow) {
    int rows = toRow - fromRow;
    boolean anyNull = false;
    for (int row = fromRow; row < toRow && column.hasNulls() && !anyNull; row++) {
      anyNull = column.isNull(row);
    }
    if (!anyNull) {
      byte[] out = new byte[4 + varintSize((long) rows << 1) + 1];
      int pos = putVarint(out, 4, (long) rows << 1);
      out[pos++] = 1;
      putLength(out, pos - 4);
      return out;
    }
    int groups = (rows + 7) / 8;
    long header = ((long) groups << 1) | 1;
    byte[] out = new byte[4 + varintSize(header) + groups];
    int pos = putVarint(out, 4, header);
    for (int row = fromRow; row < toRow; row++) {
      if (!column.isNull(row)) {
        int bit = row - fromRow;
        out[pos + (bit >>> 3)] |= (byte) (1 << (bit & 7));
      }
    }
    putLength(out, out.length - 4);
    return out;
  }

  private static void putLength(byte[] out, int length) {
    out[0] = (byte) length;
    out[1] = (byte) (length >>> 8);
    out[2] = (byte) (length >>> 16);
    out[3] = (byte) (length >>> 24);
  }

  private static int varintSize(long value) {
    int size = 1;
    while ((value >>>= 7) != 0) {
      size++;
    }
    return size;
  }

  private static int putVarint(byte[] out, int pos, long value) {
    while ((value & ~0x7FL) != 0) {
      out[pos++] = (byte) ((value & 0x7F) | 0x80);
      value >>>= 7;
    }
    out[pos++] = (byte) value;
    return pos;
  }

  /**
   * The distinct values of a chunk in order of first appearance, with each value's id: an
   * open-addressing table of value indexes, keyed by the value's bits (numbers: their raw bits,
   * so NaNs with other payloads and -0.0 stay apart) or bytes.
   */
  static final class Dictionary {
    private final Values values;
    /** Per value of the chunk (from the chunk's first), its id. */
    private final int[] ids;
    private final int from;
    /** Per id, the index of the value it was first seen at. */
    private int[] firsts;
    private int size;
    private final int[] table;

    private Dictionary(Values values, int from, int to) {
      this.values = values;
      this.from = from;
      this.ids = new int[to - from];
      this.firsts = new int[16];
      this.table = new int[Integer.highestOneBit(Math.max(16, to - from) - 1) << 2];
      Arrays.fill(table, -1);
    }

    static Dictionary build(Values values, int from, int to) {
      Dictionary dictionary = new Dictionary(values, from, to);
      for (int v = from; v < to; v++) {
        dictionary.ids[v - from] = dictionary.idOf(v);
      }
      return dictionary;
    }

    int size() {
      return size;
    }

    private int idOf(int value) {
      int mask = table.length - 1;
      long h = values.bits(value) * 0x9E3779B97F4A7C15L;
      int slot = (int) (h ^ (h >>> 32)) & mask;
      while (table[slot] >= 0) {
        int id = table[slot];
        if (values.same(firsts[id], value)) {
          return id;
        }
        slot = (slot + 1) & mask;
      }
      if (size == firsts.length) {
        firsts = Arrays.copyOf(firsts, size * 2);
      }
      firsts[size] = value;
      table[slot] = size;
      return size++;
    }

    private int bitWidth() {
      return size <= 1 ? 1 : 32 - Integer.numberOfLeadingZeros(size - 1);
    }

    /** Whether the dictionary fits its page and, with the ids, is smaller than the plain values. */
    boolean pays(int fromValue, int toValue, int maxDictionaryBytes) {
      long dictionaryBytes = 0;
      for (int id = 0; id < size; id++) {
        dictionaryBytes += values.plainSize(firsts[id], firsts[id] + 1);
      }
      long idBytes = ((long) (toValue - fromValue) * bitWidth() + 7) / 8;
      return dictionaryBytes <= maxDictionaryBytes
          && dictionaryBytes + idBytes < values.plainSize(fromValue, toValue);
    }

    /** The dictionary page's content: the distinct values, PLAIN, in id order. */
    byte[] plainBytes() {
      return values.select(firsts, size).plain(0, size);
    }

    /** The ids of values {@code from .. to}: their bit width in a byte, then the RLE / bit-packing hybrid. */
    BytesInput encodeIds(int fromValue, int toValue, ByteBufferAllocator allocator, int pageSize) throws IOException {
      int width = bitWidth();
      try (RunLengthBitPackingHybridEncoder encoder = new RunLengthBitPackingHybridEncoder(width,
          Math.min(pageSize, 64 * 1024), pageSize, allocator)) {
        for (int v = fromValue; v < toValue; v++) {
          encoder.writeInt(ids[v - from]);
        }
        byte[] bytes = encoder.toBytes().toByteArray();
        return BytesInput.concat(BytesInput.from(new byte[] {(byte) width}), BytesInput.from(bytes));
      }
    }

    /** Updates the statistics with each distinct value among values {@code from .. to}, once. */
    void updateStatistics(int fromValue, int toValue, Statistics<?> statistics) {
      boolean[] seen = new boolean[size];
      for (int v = fromValue; v < toValue; v++) {
        seen[ids[v - from]] = true;
      }
      for (int id = 0; id < size; id++) {
        if (seen[id]) {
          values.updateStatistics(firsts[id], firsts[id] + 1, statistics);
        }
      }
    }
  }
}
