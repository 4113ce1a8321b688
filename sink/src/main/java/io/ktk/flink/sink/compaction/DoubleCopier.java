package io.ktk.flink.sink.compaction;

import org.apache.parquet.column.Dictionary;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/** Copies into DOUBLE outputs, from DOUBLE or FLOAT (widened exactly). */
final class DoubleCopier extends FlatCopier {
  private double[] dictionary = new double[0];
  private double[] values = new double[0];
  private final boolean floats;

  DoubleCopier(String source, PrimitiveType input) {
    super(source, input);
    this.floats = input.getPrimitiveTypeName() == PrimitiveTypeName.FLOAT;
  }

  @Override
  int[] setDictionary(Dictionary dict, ChunkWriter out) {
    dictionary = new double[dict.getMaxId() + 1];
    for (int id = 0; id < dictionary.length; id++) {
      dictionary[id] = floats ? dict.decodeToFloat(id) : dict.decodeToDouble(id);
    }
    return ((DoubleChunkWriter) out).dictionaryIds(dictionary);
  }

  @Override
  void emitDictionary(int[] outputIds, boolean[] keep, int row0, ChunkWriter chunk, IndexCollector index) {
    DoubleChunkWriter out = (DoubleChunkWriter) chunk;
    if (keep == null && page.present == page.count && outputIds != null) {
      out.addIds(outputIds, page.ids, 0, page.count);
      for (int k = 0; index != null && k < page.count; k++) {
        index.addDouble(dictionary[page.ids[k]]);
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
          index.addDouble(dictionary[ids[k]]);
        }
      }
      if (present) {
        k++;
      }
    }
  }

  @Override
  void decodePlain(int count) {
    values = values.length >= count ? values : new double[Math.max(count, values.length * 2)];
    byte[] bytes = page.bytes;
    int pos = page.from;
    if (floats) {
      for (int k = 0; k < count; k++, pos += 4) {
        values[k] = Float.intBitsToFloat((int) INTS.get(bytes, pos));
      }
    } else {
      for (int k = 0; k < count; k++, pos += 8) {
        values[k] = Double.longBitsToDouble((long) LONGS.get(bytes, pos));
      }
    }
  }

  @Override
  void emitPlain(boolean[] keep, int row0, ChunkWriter chunk, IndexCollector index) {
    DoubleChunkWriter out = (DoubleChunkWriter) chunk;
    if (keep == null && page.present == page.count) {
      out.addValues(values, 0, page.count);
      for (int k = 0; index != null && k < page.count; k++) {
        index.addDouble(values[k]);
      }
      return;
    }
    int[] levels = page.levels;
    int k = 0;
    for (int i = 0; i < page.count; i++) {
      boolean present = levels == null || levels[i] != 0;
      if (keep == null || keep[row0 + i]) {
        if (present) {
          out.addValue(values[k]);
          if (index != null) {
            index.addDouble(values[k]);
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
