package io.ktk.flink.sink.compaction;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Copies the rows of one input file into the columns of an output file, row group by row group,
 * each column in the cheapest way its types allow: flat columns page by page ({@link FlatCopier}),
 * columns the file lacks or stores with Arrow type {@code null} as nulls without reading anything,
 * and anything else (nested columns, types that need a conversion the copier does not make) as
 * typed values through parquet-column's record assembly and shredding.
 */
final class InputFileCopier implements AutoCloseable {
  /** Columns pandas adds for its index; plateau ignores them, so a rewrite drops them. */
  private static final Pattern PANDAS_INDEX = Pattern.compile("__index_level_\\d+__");

  private enum Kind { NULLS, FLAT, TYPED }

  private final ParquetRowsReader reader;
  private final String source;
  private final List<OutputColumn> columns;
  private final Kind[] kinds;
  private final FlatCopier[] copiers;
  private final ColumnDescriptor[] descriptors;
  private final List<String> flatNames = new ArrayList<>();
  /** Whether the dataset has a primary key: its change files' marker column is read, not copied, by a fold. */
  private final boolean keyed;

  InputFileCopier(ObjectStore store, String key, String source, List<OutputColumn> columns, boolean keyed)
      throws IOException {
    this.reader = ParquetRowsReader.open(store, key);
    this.source = source;
    this.columns = columns;
    this.keyed = keyed;
    this.kinds = new Kind[columns.size()];
    this.copiers = new FlatCopier[columns.size()];
    this.descriptors = new ColumnDescriptor[columns.size()];
    try {
      MessageType schema = reader.parquetSchema();
      checkNoOtherColumns(schema);
      for (int c = 0; c < columns.size(); c++) {
        OutputColumn column = columns.get(c);
        String name = column.field.getName();
        if (!schema.containsField(name)) {
          kinds[c] = Kind.NULLS;
          continue;
        }
        Type type = schema.getType(name);
        if (type.isPrimitive() && type.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.UnknownLogicalTypeAnnotation) {
          kinds[c] = Kind.NULLS; // Arrow type null: every value is null
        } else if (type.isPrimitive() && !type.isRepetition(Type.Repetition.REPEATED) && column.flatLeaf != null
            && ChunkWriter.writes(column.flatLeaf)) {
          copiers[c] = FlatCopier.of(source, type.asPrimitiveType(), column.flatLeaf.getPrimitiveType());
          kinds[c] = copiers[c] == null ? Kind.TYPED : Kind.FLAT;
          descriptors[c] = schema.getColumnDescription(new String[] {name});
          if (copiers[c] != null) {
            flatNames.add(name);
          }
        } else {
          kinds[c] = Kind.TYPED;
        }
      }
    } catch (RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  private void checkNoOtherColumns(MessageType schema) {
    for (Type field : schema.getFields()) {
      String name = field.getName();
      if (columns.stream().noneMatch(c -> c.field.getName().equals(name)) && !PANDAS_INDEX.matcher(name).matches()
          && !(keyed && name.equals(PrimaryKey.DELETED_COLUMN))) {
        throw new KtkValidationException("Cannot compact " + source + ": the file has column '" + name + "', which the "
            + "dataset's schema " + columns.stream().map(c -> c.field.getName()).toList() + " lacks; a rewrite "
            + "would drop its values");
      }
    }
  }

  List<BlockMetaData> rowGroups() {
    return reader.rowGroups();
  }

  long rowCount() {
    return reader.rowCount();
  }

  /**
   * Whether the file's chunk of column {@code c} in row group {@code rowGroup} holds only
   * dictionary-encoded pages: a hint that the output column pays for a dictionary too.
   */
  boolean dictionaryEncoded(int c, int rowGroup) {
    if (kinds[c] != Kind.FLAT) {
      return true;
    }
    String name = columns.get(c).field.getName();
    for (ColumnChunkMetaData chunk : reader.rowGroups().get(rowGroup).getColumns()) {
      if (chunk.getPath().toDotString().equals(name)) {
        if (chunk.getEncodingStats() != null) {
          return !chunk.getEncodingStats().hasNonDictionaryEncodedPages();
        }
        return chunk.getEncodings().stream().anyMatch(encoding -> encoding.usesDictionary());
      }
    }
    return true;
  }

  /**
   * Writes the rows of row group {@code rowGroup} that {@code keep} keeps (all when null) to the
   * output columns, whose stores are started.
   */
  void copy(int rowGroup, boolean[] keep) throws IOException {
    int rows = Math.toIntExact(reader.rowGroups().get(rowGroup).getRowCount());
    if (rows == 0) {
      return;
    }
    PageReadStore pages = flatNames.isEmpty() ? null : reader.rowGroupPages(rowGroup, flatNames);
    for (int c = 0; c < columns.size(); c++) {
      OutputColumn column = columns.get(c);
      switch (kinds[c]) {
        case NULLS -> {
          for (int row = 0; row < rows; row++) {
            if (keep == null || keep[row]) {
              column.writeNull();
            }
          }
          column.flushTyped();
        }
        case FLAT -> copyFlat(c, pages.getPageReader(descriptors[c]), rowGroup, keep);
        case TYPED -> copyTyped(c, rowGroup, keep);
      }
    }
  }

  private void copyFlat(int c, PageReader chunk, int rowGroup, boolean[] keep) throws IOException {
    DictionaryPage dictionary = chunk.readDictionaryPage();
    List<DataPage> pages = new ArrayList<>();
    for (DataPage page = chunk.readPage(); page != null; page = chunk.readPage()) {
      pages.add(page);
    }
    if (!FlatPage.canDecode(descriptors[c], pages, dictionary != null)) {
      copyTyped(c, rowGroup, keep); // an encoding the page decoder does not read: parquet-column does
      return;
    }
    OutputColumn column = columns.get(c);
    copiers[c].copy(descriptors[c], dictionary, pages, keep, column.chunk(), column.index);
  }

  private void copyTyped(int c, int rowGroup, boolean[] keep) throws IOException {
    OutputColumn column = columns.get(c);
    Iterator<List<Object>> rows = reader.rowGroupRows(rowGroup, List.of(column.field.getName()));
    int row = 0;
    try {
      while (rows.hasNext()) {
        Object value = rows.next().get(0);
        if (keep == null || keep[row]) {
          column.writeTyped(value);
          if (column.index != null) {
            column.index.addTyped(value);
          }
        }
        row++;
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } catch (KtkValidationException e) {
      throw new KtkValidationException("Cannot compact " + source + ": " + e.getMessage(), e);
    }
    column.flushTyped();
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
