package io.ktk.flink.sink.compaction;

import io.ktk.flink.state.parquet.FieldValueWriter;
import java.io.IOException;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * One top-level column of a file compaction writes, for one row group at a time. A flat column is
 * written by a {@link ChunkWriter} of its own, which takes values copied page by page ({@link
 * FlatCopier}) as well as typed values (converted by parquet-column's value writers); a nested
 * column by a parquet-column column store of its own, from typed values. Either hands its pages to
 * the file's one page store, so each column is written for a whole input row group at a time.
 */
final class OutputColumn {
  final Field field;
  final MessageType schema;
  /** The descriptor of a flat column's only leaf; null for a nested column. */
  final ColumnDescriptor flatLeaf;
  /** Gathers its index values, or null when it is not an index column. */
  final IndexCollector index;
  private final FieldValueWriter typedWriter;
  private final String source;
  private ChunkWriter chunk;
  private final RecordConsumer chunkConsumer = new ChunkConsumer();
  private ColumnWriteStore store;
  private FieldValueWriter.Rows rows;

  OutputColumn(Field field, IndexCollector index, String source) {
    this.field = field;
    this.index = index;
    this.source = source;
    this.typedWriter = new FieldValueWriter(field);
    this.schema = typedWriter.parquetSchema();
    this.flatLeaf = schema.getType(0).isPrimitive() ? schema.getColumns().get(0) : null;
  }

  /**
   * Starts a row group whose pages go to {@code pages}; {@code dictionary} says whether a flat
   * column starts dictionary encoded.
   */
  void start(ParquetProperties properties, ColumnChunkPageWriteStore pages, boolean dictionary) {
    chunk = flatLeaf == null ? null : ChunkWriter.of(flatLeaf, pages.getPageWriter(flatLeaf), dictionary,
        new ChunkWriter.Limits(properties.getPageSizeThreshold(), properties.getPageRowCountLimit(),
            properties.getDictionaryPageSizeThreshold()), source);
    if (chunk == null) {
      ParquetProperties storeProperties = ParquetProperties.copy(properties).withDictionaryEncoding(dictionary).build();
      store = storeProperties.newColumnWriteStore(schema, pages, pages);
    }
    rows = null;
  }

  /** The writer of a flat column's chunk, or null when the column is written from typed values only. */
  ChunkWriter chunk() {
    return chunk;
  }

  /** Writes a whole row of typed values (null for a null). */
  void writeTyped(Object value) {
    if (chunk != null) {
      typedWriter.write(chunkConsumer, value);
      return;
    }
    if (rows == null) {
      rows = typedWriter.open(store);
    }
    rows.write(value);
  }

  /** Writes a null row. */
  void writeNull() {
    if (chunk != null) {
      chunk.addNull();
    } else {
      writeTyped(null);
    }
  }

  /** Ends the typed rows written so far (before the end of the row group). */
  void flushTyped() {
    if (rows != null) {
      rows.flush();
    }
  }

  long bufferedSize() {
    return chunk != null ? chunk.bufferedSize() : store.getBufferedSize();
  }

  /** Ends the row group: the column's last pages go to the page store. */
  void finish() throws IOException {
    if (chunk != null) {
      chunk.finish();
      chunk = null;
      return;
    }
    flushTyped();
    store.close();
    store = null;
    rows = null;
  }

  /** Turns the value calls of parquet-column's value writers for a flat column into chunk writes. */
  private final class ChunkConsumer extends RecordConsumer {
    private boolean present;

    @Override
    public void startMessage() {
      present = false;
    }

    @Override
    public void endMessage() {
      if (!present) {
        chunk.addNull();
      }
    }

    @Override
    public void startField(String name, int position) {}

    @Override
    public void endField(String name, int position) {}

    @Override
    public void startGroup() {
      throw new IllegalStateException("column " + field.getName() + " is flat");
    }

    @Override
    public void endGroup() {
      throw new IllegalStateException("column " + field.getName() + " is flat");
    }

    @Override
    public void addInteger(int value) {
      ((LongChunkWriter) chunk).addValue(value);
      present = true;
    }

    @Override
    public void addLong(long value) {
      ((LongChunkWriter) chunk).addValue(value);
      present = true;
    }

    @Override
    public void addBoolean(boolean value) {
      ((BooleanChunkWriter) chunk).addValue(value);
      present = true;
    }

    @Override
    public void addBinary(Binary value) {
      ((BinaryChunkWriter) chunk).addValue(value);
      present = true;
    }

    @Override
    public void addFloat(float value) {
      throw new IllegalStateException("column " + field.getName() + " of FLOAT values has no chunk writer");
    }

    @Override
    public void addDouble(double value) {
      ((DoubleChunkWriter) chunk).addValue(value);
      present = true;
    }
  }
}
