package io.ktk.flink.sink.compaction;

import io.ktk.flink.state.parquet.FieldValueWriter;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.schema.MessageType;

/**
 * One top-level column of a file compaction writes, with a column store of its own per row group:
 * each column is written for a whole input row group at a time (its own records ended row by
 * row), and all of them hand their pages to the file's one page store. A flat column is written
 * through its {@link ColumnWriter} directly; any column also takes typed values ({@link #rows}).
 */
final class OutputColumn {
  final Field field;
  final MessageType schema;
  /** The descriptor of a flat column's only leaf; null for a nested column. */
  final ColumnDescriptor flatLeaf;
  /** Gathers its index values, or null when it is not an index column. */
  final IndexCollector index;
  private final FieldValueWriter typedWriter;
  private ColumnWriteStore store;
  private ColumnWriter writer;
  private FieldValueWriter.Rows rows;

  OutputColumn(Field field, IndexCollector index) {
    this.field = field;
    this.index = index;
    this.typedWriter = new FieldValueWriter(field);
    this.schema = typedWriter.parquetSchema();
    this.flatLeaf = schema.getType(0).isPrimitive() ? schema.getColumns().get(0) : null;
  }

  /** Starts a row group: a new store over {@code pages}. */
  void start(ParquetProperties properties, ColumnChunkPageWriteStore pages) {
    store = properties.newColumnWriteStore(schema, pages, pages);
    writer = flatLeaf == null ? null : store.getColumnWriter(flatLeaf);
    rows = null;
  }

  ColumnWriteStore store() {
    return store;
  }

  /** The writer of a flat column's leaf. */
  ColumnWriter writer() {
    return writer;
  }

  /** Writes a whole row of typed values (null for a null); ends the record. */
  void writeTyped(Object value) {
    if (rows == null) {
      rows = typedWriter.open(store);
    }
    rows.write(value);
  }

  /** Writes a null row; ends the record. */
  void writeNull() {
    if (writer != null && flatLeaf.getMaxDefinitionLevel() > 0) {
      writer.writeNull(0, 0);
      store.endRecord();
    } else {
      writeTyped(null);
    }
  }

  /** Ends the typed rows written so far (before direct writes or the end of the row group). */
  void flushTyped() {
    if (rows != null) {
      rows.flush();
    }
  }

  long bufferedSize() {
    return store.getBufferedSize();
  }

  /** Ends the row group: the column's pages go to the page store. */
  void finish() {
    flushTyped();
    store.close();
    store = null;
    writer = null;
    rows = null;
  }
}
