package io.ktk.flink.sink.compaction;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.parquet.HybridEncoder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.Statistics;

/**
 * Writes the column chunk of one flat column (a top-level primitive) of one row group as data
 * pages v1, handing each finished page to parquet-java's {@link PageWriter}, which compresses it
 * and keeps the chunk's metadata, column index and offset index.
 *
 * <p>What it does instead of parquet-java's column writer, for speed: values are buffered per page
 * in primitive arrays and encoded in bulk when the page is cut; page statistics are taken once per
 * distinct dictionary entry a page uses rather than once per row; and a dictionary-encoded input
 * is mapped onto the output's dictionary once per input chunk ({@link #dictionaryIds}), so its rows
 * cost an array lookup each, no hashing. The encodings are parquet-java's for version 1 pages: RLE
 * definition levels with a length prefix, {@code PLAIN_DICTIONARY} ids (bit width, then RLE/bit-packed
 * hybrid, both by {@link HybridEncoder}) with a {@code PLAIN} dictionary page, or {@code PLAIN}
 * values.
 *
 * <p>A page is cut at {@code pageSizeBytes} of values or {@code pageRowLimit} rows. A dictionary
 * that grows past {@code dictionaryLimitBytes} ends dictionary encoding for the rest of the chunk:
 * the pages written so far keep their ids, later ones are plain (as parquet-java falls back).
 *
 * <p>Subclasses hold the values of one physical type; a value is added with {@code addValue}
 * (plain or dictionary, as the chunk is encoded) or {@code addId} (an output dictionary id), a null
 * with {@link #addNull}.
 */
abstract class ChunkWriter {
  final ColumnDescriptor column;
  private final PageWriter pages;
  private final String source;
  private final boolean optional;
  private final int pageSizeBytes;
  private final int pageRowLimit;
  final int dictionaryLimitBytes;
  private final HybridEncoder levelEncoder = new HybridEncoder(1);
  /** The definition level of each row of the page (a page has at most {@code pageRowLimit} rows); only filled from the page's first null on. */
  private final int[] levels;
  /** Rows (values and nulls) in the page. */
  private int rows;
  private int nulls;
  /** Present values in the page. */
  int values;
  /** Whether the chunk's pages are dictionary encoded (until it falls back). */
  boolean dictionaryMode;
  private boolean dictionaryPageDue;
  /** The dictionary ids of the page's values, in dictionary mode. */
  int[] ids = new int[1024];
  /** Per dictionary entry, whether the page uses it: statistics are taken from the used entries. */
  private long[] usedEntries = new long[16];

  ChunkWriter(ColumnDescriptor column, PageWriter pages, boolean dictionary, Limits limits, String source) {
    this.column = column;
    this.pages = pages;
    this.source = source;
    this.optional = column.getMaxDefinitionLevel() > 0;
    this.dictionaryMode = dictionary;
    this.pageSizeBytes = limits.pageSizeBytes();
    this.pageRowLimit = limits.pageRowLimit();
    this.dictionaryLimitBytes = limits.dictionaryLimitBytes();
    this.levels = new int[pageRowLimit];
  }

  /** Page and dictionary sizes. */
  record Limits(int pageSizeBytes, int pageRowLimit, int dictionaryLimitBytes) {}

  /**
   * Whether this class writes chunks of {@code column}'s physical type: not FLOAT and INT96, which
   * normalized schemas do not have.
   */
  static boolean writes(ColumnDescriptor column) {
    return switch (column.getPrimitiveType().getPrimitiveTypeName()) {
      case INT64, INT32, DOUBLE, BOOLEAN, BINARY, FIXED_LEN_BYTE_ARRAY -> true;
      default -> false;
    };
  }

  /** A writer of the chunk of {@code column} into {@code pages}; null when it does not {@link #writes} it. */
  static ChunkWriter of(ColumnDescriptor column, PageWriter pages, boolean dictionary, Limits limits, String source) {
    return switch (column.getPrimitiveType().getPrimitiveTypeName()) {
      case INT64, INT32 -> new LongChunkWriter(column, pages, dictionary, limits, source);
      case DOUBLE -> new DoubleChunkWriter(column, pages, dictionary, limits, source);
      case BOOLEAN -> new BooleanChunkWriter(column, pages, limits, source);
      case BINARY, FIXED_LEN_BYTE_ARRAY -> new BinaryChunkWriter(column, pages, dictionary, limits, source);
      default -> null;
    };
  }

  /** Adds a null row. */
  final void addNull() {
    if (!optional) {
      throw new KtkValidationException("Cannot compact " + source + ": column '" + column.getPath()[0] + "' holds a "
          + "null, but the dataset's schema declares it not nullable");
    }
    if (nulls == 0) {
      Arrays.fill(levels, 0, rows, 1); // the rows before hold values
    }
    levels[rows++] = 0;
    nulls++;
    if (rows >= pageRowLimit) {
      flushPage();
    }
  }

  /** Adds the dictionary id of a present value; only in dictionary mode. */
  final void addId(int id) {
    if (values == ids.length) {
      ids = Arrays.copyOf(ids, ids.length * 2);
    }
    ids[values] = id;
    int word = id >>> 6;
    if (word >= usedEntries.length) {
      usedEntries = Arrays.copyOf(usedEntries, Math.max(word + 1, usedEntries.length * 2));
    }
    usedEntries[word] |= 1L << id;
    present();
  }

  /** Ends a present value stored by a subclass at index {@link #values}. */
  final void present() {
    values++;
    if (nulls > 0) {
      levels[rows] = 1;
    }
    rows++;
    if (rows >= pageRowLimit || pageBytes() >= pageSizeBytes) {
      flushPage();
    }
  }

  /**
   * Ends {@code count} present values stored by a subclass at {@link #values} on; requires that
   * they fit the page ({@link #room}).
   */
  final void presentRun(int count) {
    if (nulls > 0) {
      Arrays.fill(levels, rows, rows + count, 1);
    }
    values += count;
    rows += count;
    if (rows >= pageRowLimit || pageBytes() >= pageSizeBytes) {
      flushPage();
    }
  }

  /** How many more values of {@code bytesPerValue} bytes the page takes before it is cut (at least 1). */
  final int room(int bytesPerValue) {
    long byBytes = (pageSizeBytes - pageBytes() + bytesPerValue - 1) / bytesPerValue;
    return (int) Math.max(1, Math.min(pageRowLimit - rows, byBytes));
  }

  /** Adds present values with the dictionary ids {@code outputIds[ids[from .. from + count)]}. */
  final void addIds(int[] outputIds, int[] ids, int from, int count) {
    int done = 0;
    while (done < count) {
      int n = Math.min(count - done, room(4));
      if (values + n > this.ids.length) {
        this.ids = Arrays.copyOf(this.ids, Math.max(values + n, this.ids.length * 2));
      }
      for (int i = 0; i < n; i++) {
        int id = outputIds[ids[from + done + i]];
        this.ids[values + i] = id;
        int word = id >>> 6;
        if (word >= usedEntries.length) {
          usedEntries = Arrays.copyOf(usedEntries, Math.max(word + 1, usedEntries.length * 2));
        }
        usedEntries[word] |= 1L << id;
      }
      presentRun(n);
      done += n;
    }
  }

  /** Encoded bytes the page's values take so far (ids count 4 bytes each, an upper bound). */
  private long pageBytes() {
    return dictionaryMode ? 4L * values : plainBytes();
  }

  /**
   * Ends dictionary encoding: the page so far is written with its ids, the rest of the chunk plain.
   */
  final void fallBack() {
    flushPage();
    dictionaryMode = false;
  }

  /** Writes the page buffered so far, if any. */
  final void flushPage() {
    if (rows == 0) {
      return;
    }
    try {
      Statistics<?> statistics = Statistics.createStats(column.getPrimitiveType());
      statistics.incrementNumNulls(nulls);
      BytesInput valueBytes;
      Encoding encoding;
      if (dictionaryMode && values > 0) { // a page of nulls only is plain: no dictionary page for it
        updateStatistics(statistics, usedEntries);
        Arrays.fill(usedEntries, 0);
        valueBytes = encodeIds();
        encoding = Encoding.PLAIN_DICTIONARY;
        dictionaryPageDue = true;
      } else {
        updatePlainStatistics(statistics);
        valueBytes = plainValues();
        encoding = Encoding.PLAIN;
      }
      BytesInput page = optional ? BytesInput.concat(encodeLevels(), valueBytes) : valueBytes;
      // repetition levels (none: a flat column), then definition levels
      pages.writePage(page, rows, rows, statistics, Encoding.BIT_PACKED, optional ? Encoding.RLE : Encoding.BIT_PACKED,
          encoding);
      rows = 0;
      nulls = 0;
      values = 0;
      resetValues();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes the last page and the dictionary page: the chunk is complete. */
  final void finish() throws IOException {
    flushPage();
    if (dictionaryPageDue) {
      pages.writeDictionaryPage(new DictionaryPage(dictionaryBytes(), dictionarySize(), Encoding.PLAIN_DICTIONARY));
    }
  }

  /** Bytes the chunk holds: pages handed on (compressed) and the page and dictionary being built. */
  final long bufferedSize() {
    return pages.getMemSize() + pageBytes() + rows / 8 + (dictionaryPageDue || dictionaryMode ? dictionaryBytesSize() : 0);
  }

  /** The definition levels, RLE/bit-packed with their length in front; a page without nulls is one run. */
  private BytesInput encodeLevels() {
    if (nulls == 0) {
      byte[] run = new byte[4 + 6];
      int length = writeUnsignedVarInt(run, 4, rows << 1);
      run[length] = 1;
      length++;
      FlatCopier.INTS.set(run, 0, length - 4);
      return BytesInput.from(run, 0, length);
    }
    levelEncoder.encode(levels, rows);
    byte[] encoded = new byte[4 + levelEncoder.length()];
    FlatCopier.INTS.set(encoded, 0, levelEncoder.length());
    System.arraycopy(levelEncoder.bytes(), 0, encoded, 4, levelEncoder.length());
    return BytesInput.from(encoded);
  }

  /** The page's dictionary ids: their bit width in one byte, then RLE/bit-packed. */
  private BytesInput encodeIds() {
    int bitWidth = BytesUtils.getWidthFromMaxInt(Math.max(0, dictionarySize() - 1));
    HybridEncoder encoder = new HybridEncoder(bitWidth);
    encoder.encode(ids, values);
    byte[] encoded = new byte[1 + encoder.length()];
    encoded[0] = (byte) bitWidth;
    System.arraycopy(encoder.bytes(), 0, encoded, 1, encoder.length());
    return BytesInput.from(encoded);
  }

  private static int writeUnsignedVarInt(byte[] out, int at, int value) {
    int v = value;
    while ((v & ~0x7F) != 0) {
      out[at++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[at++] = (byte) v;
    return at;
  }

  /** Bytes the page's plain values take. */
  abstract long plainBytes();

  /** The page's plain values, encoded. */
  abstract BytesInput plainValues();

  /** Adds the page's plain values to its statistics. */
  abstract void updatePlainStatistics(Statistics<?> statistics);

  /** Adds the dictionary entries whose bits are set in {@code used} to the page's statistics. */
  abstract void updateStatistics(Statistics<?> statistics, long[] used);

  /** Forgets the page's plain values. */
  abstract void resetValues();

  abstract int dictionarySize();

  /** Bytes of the dictionary's entries, plainly encoded. */
  abstract long dictionaryBytesSize();

  abstract BytesInput dictionaryBytes();
}
