package io.ktk.flink.sink.compaction;

import io.ktk.flink.state.KtkValidationException;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/** Copies into INT64 and INT32 outputs: integers, unsigned integers, dates, timestamps (of another unit too). */
final class LongCopier extends FlatCopier {
  static final int SAME = 0;
  static final int SIGNED_INT = 1;
  static final int UNSIGNED_INT = 2;
  static final int MULTIPLY = 3;
  static final int DIVIDE_EXACTLY = 4;
  private final int conversion;
  private final long factor;
  private long[] dictionary = new long[0];
  private long[] values = new long[0];

  LongCopier(String source, PrimitiveType input, int conversion, long factor) {
    super(source, input);
    this.conversion = conversion;
    this.factor = factor;
  }

  @Override
  int[] setDictionary(Dictionary dict, ChunkWriter out) {
    dictionary = new long[dict.getMaxId() + 1];
    for (int id = 0; id < dictionary.length; id++) {
      dictionary[id] = convert(input.getPrimitiveTypeName() == PrimitiveTypeName.INT32
          ? dict.decodeToInt(id) : dict.decodeToLong(id));
    }
    return ((LongChunkWriter) out).dictionaryIds(dictionary);
  }

  @Override
  void emitDictionary(int[] outputIds, boolean[] keep, int row0, ChunkWriter chunk, IndexCollector index) {
    LongChunkWriter out = (LongChunkWriter) chunk;
    if (keep == null && page.present == page.count && outputIds != null) {
      out.addIds(outputIds, page.ids, 0, page.count);
      for (int k = 0; index != null && k < page.count; k++) {
        index.addLong(dictionary[page.ids[k]]);
      }
      return;
    }
    int[] levels = page.levels;
    int[] ids = page.ids;
    int k = 0;
    for (int i = 0; i < page.count; i++) {
      boolean present = levels == null || levels[i] != 0;
      if (keep == null || keep[row0 + i]) {
        if (!present) {
          out.addNull();
        } else if (outputIds != null) {
          out.addId(outputIds[ids[k]]);
        } else {
          out.addValue(dictionary[ids[k]]);
        }
        if (present && index != null) {
          index.addLong(dictionary[ids[k]]);
        }
      }
      if (present) {
        k++;
      }
    }
  }

  @Override
  void decodePlain(int count) {
    values = grow(values, count);
    byte[] bytes = page.bytes;
    int pos = page.from;
    if (input.getPrimitiveTypeName() == PrimitiveTypeName.INT64) {
      for (int k = 0; k < count; k++, pos += 8) {
        values[k] = (long) LONGS.get(bytes, pos);
      }
    } else {
      for (int k = 0; k < count; k++, pos += 4) {
        values[k] = (int) INTS.get(bytes, pos);
      }
    }
    if (conversion != SAME && conversion != SIGNED_INT) {
      for (int k = 0; k < count; k++) {
        values[k] = convert(values[k]);
      }
    }
  }

  private long convert(long value) {
    switch (conversion) {
      case SAME:
      case SIGNED_INT:
        return value;
      case UNSIGNED_INT:
        return value & 0xFFFF_FFFFL;
      case MULTIPLY:
        try {
          return Math.multiplyExact(value, factor);
        } catch (ArithmeticException e) {
          throw new KtkValidationException("Cannot compact " + source + ": column '" + column + "' holds the "
              + "timestamp " + value + " (" + input.getLogicalTypeAnnotation() + "), which is outside the range "
              + "of the dataset's timestamp type");
        }
      default:
        if (value % factor != 0) {
          throw new KtkValidationException("Cannot compact " + source + ": column '" + column + "' holds the "
              + "timestamp " + value + " (" + input.getLogicalTypeAnnotation() + "), finer than the dataset's "
              + "timestamp unit; Kartothek stores timestamps in microseconds and this value would lose precision");
        }
        return value / factor;
    }
  }

  @Override
  void emitPlain(boolean[] keep, int row0, ChunkWriter chunk, IndexCollector index) {
    LongChunkWriter out = (LongChunkWriter) chunk;
    if (keep == null && page.present == page.count) {
      out.addValues(values, 0, page.count);
      for (int k = 0; index != null && k < page.count; k++) {
        index.addLong(values[k]);
      }
      return;
    }
    int[] levels = page.levels;
    long[] v = values;
    int k = 0;
    for (int i = 0; i < page.count; i++) {
      boolean present = levels == null || levels[i] != 0;
      if (keep == null || keep[row0 + i]) {
        if (present) {
          out.addValue(v[k]);
          if (index != null) {
            index.addLong(v[k]);
          }
        } else {
          out.addNull();
        }
      }
      if (present) {
        k++;
      }
    }
  }
}
