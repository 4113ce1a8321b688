package io.ktk.flink.sink.compaction;

import java.util.Arrays;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.BooleanStatistics;
import org.apache.parquet.column.statistics.Statistics;

/** The chunk of a BOOLEAN column: plain, bit-packed values (booleans have no dictionary). */
final class BooleanChunkWriter extends ChunkWriter {
  private boolean[] plain = new boolean[1024];

  BooleanChunkWriter(ColumnDescriptor column, PageWriter pages, Limits limits, String source) {
    super(column, pages, false, limits, source);
  }

  void addValue(boolean value) {
    if (values == plain.length) {
      plain = Arrays.copyOf(plain, plain.length * 2);
    }
    plain[values] = value;
    present();
  }

  @Override
  long plainBytes() {
    return (values + 7) / 8;
  }

  @Override
  BytesInput plainValues() {
    byte[] bytes = new byte[(values + 7) / 8];
    for (int i = 0; i < values; i++) {
      if (plain[i]) {
        bytes[i >>> 3] |= (byte) (1 << (i & 7));
      }
    }
    return BytesInput.from(bytes);
  }

  @Override
  void updatePlainStatistics(Statistics<?> statistics) {
    BooleanStatistics booleans = (BooleanStatistics) statistics;
    for (int i = 0; i < values; i++) {
      booleans.updateStats(plain[i]);
    }
  }

  @Override
  void updateStatistics(Statistics<?> statistics, long[] used) {
    throw new IllegalStateException("a boolean chunk has no dictionary");
  }

  @Override
  void resetValues() {}

  @Override
  int dictionarySize() {
    return 0;
  }

  @Override
  long dictionaryBytesSize() {
    return 0;
  }

  @Override
  BytesInput dictionaryBytes() {
    throw new IllegalStateException("a boolean chunk has no dictionary");
  }
}
