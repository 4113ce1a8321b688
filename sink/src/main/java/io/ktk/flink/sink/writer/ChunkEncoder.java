package io.ktk.flink.sink.writer;

import java.io.IOException;
import java.util.Arrays;
import org.apache.parquet.bytes.ByteBufferAllocator;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridEncoder;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Encodes the rows of a flat column buffer (a nullable leaf of INT32, INT64, FLOAT, DOUBLE or
 * BINARY) straight into version 1 data pages of a column chunk, from its blocks: definition
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
  private final int pageSizeBytes;
  private final int pageRowLimit;
  private final int dictionaryPageSizeBytes;
  private final ByteBufferAllocator allocator;
  /** The dictionary's arrays, kept from chunk to chunk: a writer encodes one chunk at a time. */
  private final Dictionary.Scratch scratch = new Dictionary.Scratch();

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
  int encode(ColumnBuffer column, FlatValues values, PrimitiveType type, boolean dictionaryAllowed, int fromRow,
      int toRow, int fromValue, PageWriter pages) throws IOException {
    int valueCount = toRow - fromRow - column.nullCount(fromRow, toRow);
    int toValue = fromValue + valueCount;
    Dictionary dictionary = dictionaryAllowed && valueCount > 0
        ? Dictionary.build(values, fromValue, toValue, scratch) : null;
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

  private int writePage(ColumnBuffer column, FlatValues values, PrimitiveType type, Dictionary dictionary, int fromRow,
      int toRow, int fromValue, PageWriter pages) throws IOException {
    int rows = toRow - fromRow;
    int nulls = column.nullCount(fromRow, toRow);
    byte[] levels = definitionLevels(column, fromRow, toRow, nulls);
    int toValue = fromValue + rows - nulls;
    Statistics<?> statistics = Statistics.createStats(type);
    statistics.incrementNumNulls(nulls);
    BytesInput encoded;
    Encoding encoding;
    if (dictionary != null) {
      encoded = dictionary.encodeIds(fromValue, toValue, allocator, pageSizeBytes);
      if (values instanceof FlatValues.Bytes) {
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
  private static byte[] definitionLevels(ColumnBuffer column, int fromRow, int toRow, int nulls) {
    int rows = toRow - fromRow;
    if (nulls == 0) {
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
    // a level is 1 where the null bit is 0: the null bits inverted, 64 rows at a time, lowest row first
    for (int row = fromRow; row < toRow; row += 64) {
      int n = Math.min(64, toRow - row);
      long present = ~column.nullBits(row, n);
      if (n < 64) {
        present &= (1L << n) - 1;
      }
      for (int b = 0; b < n; b += 8) {
        out[pos++] = (byte) (present >>> b);
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
    private final FlatValues values;
    /** Per value of the chunk (from the chunk's first), its id. */
    private final int[] ids;
    private final int from;
    /** Per id, the index of the value it was first seen at, and that value's {@link FlatValues#bits}. */
    private int[] firsts;
    private long[] idBits;
    /** Whether equal bits mean equal values (numbers), so no values are compared. */
    private final boolean bitsIdentify;
    private int size;
    /** Open addressing, at most half full: grows with the distinct values, not with the values. */
    private int[] table;
    private final Scratch scratch;

    private Dictionary(FlatValues values, int from, int to, Scratch scratch) {
      this.values = values;
      this.from = from;
      this.ids = scratch.ids(to - from);
      this.firsts = scratch.firsts;
      this.idBits = scratch.idBits;
      this.bitsIdentify = values.bitsIdentify();
      // room for a few thousand distinct values before the first rehash, less for small chunks
      this.table = scratch.table(Math.max(64, Integer.highestOneBit(Math.min(to - from, 4096)) * 2));
      this.scratch = scratch;
    }

    /** The dictionary of values {@code from .. to}, in arrays of {@code scratch} (valid until its next build). */
    static Dictionary build(FlatValues values, int from, int to, Scratch scratch) {
      Dictionary dictionary = new Dictionary(values, from, to, scratch);
      for (int v = from; v < to; v++) {
        dictionary.ids[v - from] = dictionary.idOf(v);
      }
      return dictionary;
    }

    int size() {
      return size;
    }

    /**
     * The arrays a dictionary is built in, reused by the next build instead of allocated per
     * chunk (they would be most of the garbage a file leaves). Sized by the largest chunk seen;
     * at most a few times the values of a chunk.
     */
    static final class Scratch {
      private int[] ids = new int[0];
      private int[] firsts = new int[16];
      private long[] idBits = new long[16];
      private int[] table = new int[0];

      int[] ids(int count) {
        if (ids.length < count) {
          ids = new int[Math.max(count, ids.length + ids.length / 2)];
        }
        return ids;
      }

      /**
       * An empty table (all -1) of at least {@code length} slots (a power of two), the kept array
       * unless it is too small or so large that clearing it would cost more than the chunk.
       */
      int[] table(int length) {
        if (table.length < length || table.length > 4L * length) {
          table = new int[length];
        }
        Arrays.fill(table, -1);
        return table;
      }
    }

    private int idOf(int value) {
      int mask = table.length - 1;
      long bits = values.bits(value);
      long h = bits * 0x9E3779B97F4A7C15L;
      int slot = (int) (h ^ (h >>> 32)) & mask;
      while (table[slot] >= 0) {
        int id = table[slot];
        // numbers are their bits; binaries with the same hash compare their bytes
        if (idBits[id] == bits && (bitsIdentify || values.same(firsts[id], value))) {
          return id;
        }
        slot = (slot + 1) & mask;
      }
      if (size == firsts.length) {
        firsts = Arrays.copyOf(firsts, size * 2);
        idBits = Arrays.copyOf(idBits, size * 2);
        scratch.firsts = firsts;
        scratch.idBits = idBits;
      }
      firsts[size] = value;
      idBits[size] = bits;
      table[slot] = size;
      size++;
      if (2 * size > table.length) {
        rehash();
      }
      return size - 1;
    }

    private void rehash() {
      table = scratch.table(table.length * 2);
      int mask = table.length - 1;
      for (int id = 0; id < size; id++) {
        long h = idBits[id] * 0x9E3779B97F4A7C15L;
        int slot = (int) (h ^ (h >>> 32)) & mask;
        while (table[slot] >= 0) {
          slot = (slot + 1) & mask;
        }
        table[slot] = id;
      }
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
      return values.plain(firsts, size);
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
