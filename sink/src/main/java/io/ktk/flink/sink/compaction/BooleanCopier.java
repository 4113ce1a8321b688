package io.ktk.flink.sink.compaction;

import org.apache.parquet.column.Dictionary;
import org.apache.parquet.schema.PrimitiveType;

/** Copies into BOOLEAN outputs. */
final class BooleanCopier extends FlatCopier {
  private boolean[] values = new boolean[0];

  BooleanCopier(String source, PrimitiveType input) {
    super(source, input);
  }

  @Override
  int[] setDictionary(Dictionary dict, ChunkWriter out) {
    throw new IllegalStateException("Cannot compact " + source + ": boolean column '" + column
        + "' has a dictionary page");
  }

  @Override
  void emitDictionary(int[] outputIds, boolean[] keep, int row0, ChunkWriter out, IndexCollector index) {
    throw new IllegalStateException("Cannot compact " + source + ": boolean column '" + column
        + "' has dictionary ids");
  }

  @Override
  void decodePlain(int count) {
    values = values.length >= count ? values : new boolean[Math.max(count, values.length * 2)];
    byte[] bytes = page.bytes;
    int from = page.from;
    for (int k = 0; k < count; k++) {
      values[k] = ((bytes[from + (k >>> 3)] >>> (k & 7)) & 1) != 0;
    }
  }

  @Override
  void emitPlain(boolean[] keep, int row0, ChunkWriter chunk, IndexCollector index) {
    BooleanChunkWriter out = (BooleanChunkWriter) chunk;
    int[] levels = page.levels;
    int k = 0;
    for (int i = 0; i < page.count; i++) {
      boolean present = levels == null || levels[i] != 0;
      if (keep == null || keep[row0 + i]) {
        if (present) {
          out.addValue(values[k]);
          if (index != null) {
            index.addBoolean(values[k]);
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
