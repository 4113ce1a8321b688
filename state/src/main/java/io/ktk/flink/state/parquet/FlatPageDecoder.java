package io.ktk.flink.state.parquet;

import io.ktk.flink.state.CorruptDatasetException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Decodes the pages of a flat column chunk (a top-level primitive, required or optional) into a
 * {@link VectorConverters.Filler} page by page rather than value by value: definition levels and
 * dictionary ids are decoded in bulk ({@link HybridDecoder}), plain values read straight from the
 * page bytes. It handles what writers produce by default (plain and dictionary values, RLE
 * levels, data pages v1 and v2); {@link #canDecode} says when a chunk uses something else, which
 * parquet-column's column reader then decodes.
 */
final class FlatPageDecoder {
  private FlatPageDecoder() {}

  /** Whether every page of {@code chunk} uses encodings this decoder reads. */
  static boolean canDecode(ColumnDescriptor column, ParquetChunks.ChunkPages chunk) {
    if (column.getMaxRepetitionLevel() != 0 || column.getMaxDefinitionLevel() > 1) {
      return false;
    }
    for (DataPage page : chunk.pages()) {
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
      boolean dictionary = values == Encoding.PLAIN_DICTIONARY || values == Encoding.RLE_DICTIONARY;
      if (!(values == Encoding.PLAIN || dictionary && chunk.readDictionaryPage() != null)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Decodes the {@code rows} values of the chunk into {@code filler}, or with a {@code selection}
   * (null: all rows) only the selected rows' values, skipping the others' and leaving out pages
   * without a selected row; requires {@link #canDecode}.
   */
  static void decode(ColumnDescriptor column, ParquetChunks.ChunkPages chunk, VectorConverters.Filler filler, int rows,
      RowSelection selection) throws IOException {
    RowSelection selected = selection == null || selection.all() ? null : selection;
    DictionaryPage dictionaryPage = chunk.readDictionaryPage();
    if (dictionaryPage != null && (selected == null || selected.count() > 0)) {
      Dictionary dictionary = dictionaryPage.getEncoding().initDictionary(column, dictionaryPage);
      filler.setDictionary(dictionary);
    }
    boolean optional = column.getMaxDefinitionLevel() > 0;
    int[] levels = new int[0];
    int[] ids = new int[0];
    int decoded = 0;
    List<DataPage> pages = chunk.pages();
    for (DataPage page : pages) {
      int count = page.getValueCount();
      if (selected != null && !selected.any(decoded, decoded + count)) {
        // no row of this page is wanted: its levels and values are not even decoded
        decoded += count;
        continue;
      }
      levels = optional ? grow(levels, count) : levels;
      Slice data;
      Encoding encoding;
      if (page instanceof DataPageV1 v1) {
        data = Slice.of(v1.getBytes());
        if (optional) {
          int length = ByteBuffer.wrap(data.bytes, data.from, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
          HybridDecoder.decode(data.bytes, data.from + 4, data.from + 4 + length, 1, count, levels);
          data = new Slice(data.bytes, data.from + 4 + length, data.to);
        }
        encoding = v1.getValueEncoding();
      } else {
        DataPageV2 v2 = (DataPageV2) page;
        if (optional) {
          Slice levelBytes = Slice.of(v2.getDefinitionLevels());
          HybridDecoder.decode(levelBytes.bytes, levelBytes.from, levelBytes.to, 1, count, levels);
        }
        data = Slice.of(v2.getData());
        encoding = v2.getDataEncoding();
      }
      int present = count;
      if (optional) {
        present = 0;
        for (int i = 0; i < count; i++) {
          present += levels[i];
        }
      }
      if (encoding == Encoding.PLAIN) {
        if (selected != null || present < count || !filler.appendPlain(data.bytes, data.from, count)) {
          plain(column.getPrimitiveType(), data.bytes, data.from, count, optional ? levels : null, filler, selected,
              decoded);
        }
      } else {
        ids = grow(ids, present);
        if (present > 0) {
          HybridDecoder.decode(data.bytes, data.from + 1, data.to, data.bytes[data.from], present, ids);
        }
        int id = 0;
        for (int i = 0; i < count; i++) {
          boolean wanted = selected == null || selected.contains(decoded + i);
          if (optional && levels[i] == 0) {
            if (wanted) {
              filler.vector().appendNull();
            }
          } else if (wanted) {
            filler.addValueFromDictionary(ids[id++]);
          } else {
            id++;
          }
        }
      }
      decoded += count;
    }
    if (decoded != rows) {
      throw new CorruptDatasetException("column chunk " + column + " has " + decoded + " values in its pages, not " + rows);
    }
  }

  /**
   * Appends plain values; with {@code selected} only those of the selected rows (the page's first
   * row is row {@code first} of the row group), stepping over the others.
   */
  private static void plain(PrimitiveType type, byte[] data, int from, int count, int[] levels,
      VectorConverters.Filler filler, RowSelection selected, int first) {
    ByteBuffer buffer = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
    int pos = from;
    int bit = 0;
    for (int i = 0; i < count; i++) {
      boolean wanted = selected == null || selected.contains(first + i);
      if (levels != null && levels[i] == 0) {
        if (wanted) {
          filler.vector().appendNull();
        }
        continue;
      }
      switch (type.getPrimitiveTypeName()) {
        case INT64 -> {
          if (wanted) {
            filler.addLong(buffer.getLong(pos));
          }
          pos += 8;
        }
        case INT32 -> {
          if (wanted) {
            filler.addInt(buffer.getInt(pos));
          }
          pos += 4;
        }
        case DOUBLE -> {
          if (wanted) {
            filler.addDouble(buffer.getDouble(pos));
          }
          pos += 8;
        }
        case FLOAT -> {
          if (wanted) {
            filler.addFloat(buffer.getFloat(pos));
          }
          pos += 4;
        }
        case BOOLEAN -> {
          if (wanted) {
            filler.addBoolean(((data[from + (bit >>> 3)] >>> (bit & 7)) & 1) != 0);
          }
          bit++;
        }
        case BINARY -> {
          int length = buffer.getInt(pos);
          if (wanted) {
            filler.addBinary(Binary.fromConstantByteArray(data, pos + 4, length));
          }
          pos += 4 + length;
        }
        case FIXED_LEN_BYTE_ARRAY -> {
          int length = type.getTypeLength();
          if (wanted) {
            filler.addBinary(Binary.fromConstantByteArray(data, pos, length));
          }
          pos += length;
        }
        case INT96 -> {
          if (wanted) {
            filler.addBinary(Binary.fromConstantByteArray(data, pos, 12));
          }
          pos += 12;
        }
        default -> throw new IllegalStateException("Unexpected type " + type);
      }
    }
  }

  /** Bytes {@code [from, to)} of an array: a page's bytes without copying them out of the chunk. */
  private record Slice(byte[] bytes, int from, int to) {
    static Slice of(BytesInput input) throws IOException {
      ByteBuffer buffer = input.toByteBuffer();
      if (buffer.hasArray()) {
        int from = buffer.arrayOffset() + buffer.position();
        return new Slice(buffer.array(), from, from + buffer.remaining());
      }
      byte[] copy = input.toByteArray();
      return new Slice(copy, 0, copy.length);
    }
  }

  private static int[] grow(int[] array, int count) {
    int needed = (count + 7) & ~7;
    return array.length >= needed ? array : new int[needed];
  }
}
