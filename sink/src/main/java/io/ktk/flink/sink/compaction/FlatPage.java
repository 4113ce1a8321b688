package io.ktk.flink.sink.compaction;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.parquet.HybridDecoder;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;

/**
 * One data page of a flat column (a top-level primitive, required or optional), split into what
 * a copier needs: the definition level of each value (1 present, 0 null; none for a required
 * column), and the present values either as dictionary ids (decoded in bulk) or as the bytes of
 * their plain encoding. Reused from page to page: its arrays grow and are kept.
 *
 * <p>Handles what writers produce by default: data pages v1 and v2, RLE definition levels, plain
 * and dictionary values. {@link #canDecode} tells whether a page uses only those.
 */
final class FlatPage {
  private static final int[] NONE = new int[0];

  /** Values in the page, present or null: rows, for a flat column. */
  int count;
  /** Present values. */
  int present;
  /** Per value 1 (present) or 0 (null); null for a required column. */
  int[] levels;
  /** Whether the present values are dictionary ids ({@link #ids}) rather than plain bytes. */
  boolean dictionary;
  int[] ids = NONE;
  /** The plain values are {@code bytes[from, to)}. */
  byte[] bytes;
  int from;
  int to;
  private int[] levelBuffer = NONE;

  /** Whether every page uses encodings {@link #load} reads, for a column of this descriptor. */
  static boolean canDecode(ColumnDescriptor column, List<DataPage> pages, boolean hasDictionary) {
    if (column.getMaxRepetitionLevel() != 0 || column.getMaxDefinitionLevel() > 1) {
      return false;
    }
    for (DataPage page : pages) {
      Encoding values;
      if (page instanceof DataPageV1 v1) {
        if (column.getMaxDefinitionLevel() > 0 && v1.getDlEncoding() != Encoding.RLE) {
          return false;
        }
        values = v1.getValueEncoding();
      } else if (page instanceof DataPageV2 v2) {
        values = v2.getDataEncoding();
      } else {
        return false;
      }
      boolean dictionaryIds = values == Encoding.PLAIN_DICTIONARY || values == Encoding.RLE_DICTIONARY;
      if (!(values == Encoding.PLAIN || dictionaryIds && hasDictionary)) {
        return false;
      }
    }
    return true;
  }

  /** Decodes the levels and ids of {@code page}; requires {@link #canDecode}. */
  void load(ColumnDescriptor column, DataPage page) throws IOException {
    count = page.getValueCount();
    boolean optional = column.getMaxDefinitionLevel() > 0;
    Encoding encoding;
    if (page instanceof DataPageV1 v1) {
      slice(v1.getBytes());
      if (optional) {
        int length = ByteBuffer.wrap(bytes, from, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        levelBuffer = grow(levelBuffer, count);
        HybridDecoder.decode(bytes, from + 4, from + 4 + length, 1, count, levelBuffer);
        from += 4 + length;
      }
      encoding = v1.getValueEncoding();
    } else {
      DataPageV2 v2 = (DataPageV2) page;
      if (optional) {
        slice(v2.getDefinitionLevels());
        levelBuffer = grow(levelBuffer, count);
        HybridDecoder.decode(bytes, from, to, 1, count, levelBuffer);
      }
      slice(v2.getData());
      encoding = v2.getDataEncoding();
    }
    levels = optional ? levelBuffer : null;
    present = count;
    if (optional) {
      present = 0;
      for (int i = 0; i < count; i++) {
        present += levelBuffer[i];
      }
    }
    dictionary = encoding != Encoding.PLAIN;
    if (dictionary) {
      ids = grow(ids, present);
      if (present > 0) {
        if (from >= to) {
          throw new CorruptDatasetException("column " + column + ": a dictionary page of " + present
              + " values has no ids");
        }
        HybridDecoder.decode(bytes, from + 1, to, bytes[from], present, ids);
      }
    }
  }

  /** Whether value {@code i} of the page is present. */
  boolean isPresent(int i) {
    return levels == null || levels[i] != 0;
  }

  private void slice(BytesInput input) throws IOException {
    ByteBuffer buffer = input.toByteBuffer();
    if (buffer.hasArray()) {
      bytes = buffer.array();
      from = buffer.arrayOffset() + buffer.position();
      to = from + buffer.remaining();
    } else {
      bytes = input.toByteArray();
      from = 0;
      to = bytes.length;
    }
  }

  /** An array of at least {@code count} rounded up to 8 (what the hybrid decoder writes). */
  private static int[] grow(int[] array, int count) {
    int needed = (count + 7) & ~7;
    return array.length >= needed ? array : new int[Math.max(needed, array.length * 2)];
  }
}
