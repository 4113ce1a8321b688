package io.ktk.flink.state.metadata;

import io.ktk.flink.state.parquet.FieldValueWriter;
import io.ktk.flink.state.parquet.HybridEncoder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.values.ValuesWriter;
import org.apache.parquet.column.values.plain.BooleanPlainValuesWriter;
import org.apache.parquet.column.values.plain.FixedLenByteArrayPlainValuesWriter;
import org.apache.parquet.column.values.plain.PlainValuesWriter;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Encodes one page of an index file: the same rows (values with their labels) as a data page of
 * the value column and a data page of the label column, both version 1 pages, levels in the RLE /
 * bit-packing hybrid, values {@code PLAIN}, compressed by the file's codec. The pages of a row
 * range depend on that range's values and labels only, so a page whose rows did not change is
 * reused as it is ({@link IndexFileWriter}). Values become Parquet values as every other file of the
 * project writes them ({@link FieldValueWriter}); the value page carries their statistics.
 */
final class IndexPageEncoder {
  /** One encoded page of each column, for {@code rows} rows holding {@code labels} labels in all. */
  record Page(int rows, int labels, byte[] values, int valuesSize, Statistics<?> statistics, byte[] labelPage,
      int labelPageSize) {}

  private final FieldValueWriter valueWriter;
  private final ColumnDescriptor valueColumn;
  private final ColumnDescriptor labelColumn;
  private final BytesInputCompressor compressor;
  private final ValuesWriter plainValues;
  private final PlainConsumer consumer;
  private final HybridEncoder valueDefinitions;
  private final HybridEncoder labelRepetitions;
  private final HybridEncoder labelDefinitions;
  private int[] levels = new int[256];
  private byte[] buffer = new byte[1 << 16];
  private int length;

  IndexPageEncoder(Field valueField, ColumnDescriptor valueColumn, ColumnDescriptor labelColumn,
      BytesInputCompressor compressor) {
    this.valueWriter = new FieldValueWriter(valueField);
    this.valueColumn = valueColumn;
    this.labelColumn = labelColumn;
    this.compressor = compressor;
    this.plainValues = plainWriter(valueColumn.getPrimitiveType());
    this.consumer = new PlainConsumer(plainValues);
    this.valueDefinitions = new HybridEncoder(BytesUtils.getWidthFromMaxInt(valueColumn.getMaxDefinitionLevel()));
    this.labelRepetitions = new HybridEncoder(BytesUtils.getWidthFromMaxInt(labelColumn.getMaxRepetitionLevel()));
    this.labelDefinitions = new HybridEncoder(BytesUtils.getWidthFromMaxInt(labelColumn.getMaxDefinitionLevel()));
  }

  /** The pages of rows {@code [from, to)}: {@code values[i]} with the sorted, distinct {@code labels[i]}. */
  Page encode(Object[] values, String[][] labels, int from, int to) throws IOException {
    int rows = to - from;
    Statistics<?> statistics = Statistics.createStats(valueColumn.getPrimitiveType());
    consumer.statistics = statistics;
    plainValues.reset();
    for (int i = from; i < to; i++) {
      valueWriter.write(consumer, values[i]);
    }
    length = 0;
    if (valueColumn.getMaxDefinitionLevel() > 0) {
      putLevels(valueDefinitions, fill(rows, valueColumn.getMaxDefinitionLevel()), rows);
    }
    byte[] plain = plainValues.getBytes().toByteArray();
    put(plain, plain.length);
    int valuesSize = length;
    byte[] valuePage = compress();

    int labelCount = 0;
    for (int i = from; i < to; i++) {
      labelCount += labels[i].length;
    }
    length = 0;
    // Repetition levels: 0 starts a row's list, the maximum continues it. Every label is present.
    int[] repetitions = fill(labelCount, labelColumn.getMaxRepetitionLevel());
    for (int i = from, at = 0; i < to; at += labels[i].length, i++) {
      repetitions[at] = 0;
    }
    putLevels(labelRepetitions, repetitions, labelCount);
    putLevels(labelDefinitions, fill(labelCount, labelColumn.getMaxDefinitionLevel()), labelCount);
    for (int i = from; i < to; i++) {
      for (String label : labels[i]) {
        byte[] bytes = label.getBytes(StandardCharsets.UTF_8);
        ensure(4 + bytes.length);
        intLittleEndian(bytes.length);
        put(bytes, bytes.length);
      }
    }
    int labelPageSize = length;
    return new Page(rows, labelCount, valuePage, valuesSize, statistics, compress(), labelPageSize);
  }

  /** The levels array with {@code count} levels of {@code level}. */
  private int[] fill(int count, int level) {
    if (levels.length < count) {
      levels = new int[Math.max(count, levels.length * 2)];
    }
    Arrays.fill(levels, 0, count, level);
    return levels;
  }

  /** Appends {@code levels[0, count)} encoded, after their length (a version 1 page's layout). */
  private void putLevels(HybridEncoder encoder, int[] levels, int count) {
    encoder.encode(levels, count);
    ensure(4 + encoder.length());
    intLittleEndian(encoder.length());
    put(encoder.bytes(), encoder.length());
  }

  private byte[] compress() throws IOException {
    return compressor.compress(BytesInput.from(buffer, 0, length)).toByteArray();
  }

  private void put(byte[] bytes, int count) {
    ensure(count);
    System.arraycopy(bytes, 0, buffer, length, count);
    length += count;
  }

  private void intLittleEndian(int value) {
    buffer[length++] = (byte) value;
    buffer[length++] = (byte) (value >>> 8);
    buffer[length++] = (byte) (value >>> 16);
    buffer[length++] = (byte) (value >>> 24);
  }

  private void ensure(int more) {
    if (length + more > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(length + more, buffer.length * 2));
    }
  }

  private static ValuesWriter plainWriter(PrimitiveType type) {
    switch (type.getPrimitiveTypeName()) {
      case BOOLEAN:
        return new BooleanPlainValuesWriter();
      case FIXED_LEN_BYTE_ARRAY:
        return new FixedLenByteArrayPlainValuesWriter(
            type.getTypeLength(), 1 << 10, 1 << 20, HeapByteBufferAllocator.getInstance());
      default:
        return new PlainValuesWriter(1 << 10, 1 << 20, HeapByteBufferAllocator.getInstance());
    }
  }

  /** Takes the one primitive value of a flat column's row into a {@link ValuesWriter} and statistics. */
  private static final class PlainConsumer extends RecordConsumer {
    private final ValuesWriter out;
    private Statistics<?> statistics;

    PlainConsumer(ValuesWriter out) {
      this.out = out;
    }

    @Override
    public void startMessage() {}

    @Override
    public void endMessage() {}

    @Override
    public void startField(String field, int index) {}

    @Override
    public void endField(String field, int index) {}

    @Override
    public void startGroup() {
      throw new IllegalStateException("an index value is never a group");
    }

    @Override
    public void endGroup() {
      throw new IllegalStateException("an index value is never a group");
    }

    @Override
    public void addInteger(int value) {
      out.writeInteger(value);
      statistics.updateStats(value);
    }

    @Override
    public void addLong(long value) {
      out.writeLong(value);
      statistics.updateStats(value);
    }

    @Override
    public void addBoolean(boolean value) {
      out.writeBoolean(value);
      statistics.updateStats(value);
    }

    @Override
    public void addBinary(Binary value) {
      out.writeBytes(value);
      statistics.updateStats(value);
    }

    @Override
    public void addFloat(float value) {
      out.writeFloat(value);
      statistics.updateStats(value);
    }

    @Override
    public void addDouble(double value) {
      out.writeDouble(value);
      statistics.updateStats(value);
    }
  }
}
