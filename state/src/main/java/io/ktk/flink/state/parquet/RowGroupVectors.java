package io.ktk.flink.state.parquet;

import io.ktk.flink.state.vector.ObjectVector;
import io.ktk.flink.state.vector.TypedVector;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Reads columns of one row group into column vectors ({@link ParquetRowsReader#readColumns}):
 * flat columns page by page ({@link FlatPageDecoder}, or parquet-column's column reader for
 * encodings it does not know), nested ones assembled as rows. With a {@link RowSelection} only
 * the selected rows' values are materialized; the others are stepped over.
 */
final class RowGroupVectors {
  private RowGroupVectors() {}

  static List<TypedVector> read(ParquetRowsReader reader, int index, int count, MessageType requestedColumns,
      List<String> columns, RowSelection selection) throws IOException {
    RowSelection selected = selection == null || selection.all() ? null : selection;
    int size = selected == null ? count : selected.count();
    TypedVector[] vectors = new TypedVector[columns.size()];
    List<String> nested = new ArrayList<>();
    List<Type> flat = new ArrayList<>();
    for (Type field : requestedColumns.getFields()) {
      if (field.isPrimitive() && !field.isRepetition(Type.Repetition.REPEATED)) {
        flat.add(field);
      } else {
        nested.add(field.getName());
      }
    }
    MessageType schema = reader.parquetSchema();
    if (!flat.isEmpty() && size > 0) {
      readFlat(reader, index, new MessageType(schema.getName(), flat), count, columns, vectors, selected);
    }
    if (!nested.isEmpty() && size > 0) {
      ObjectVector[] assembled = new ObjectVector[nested.size()];
      Arrays.setAll(assembled, i -> new ObjectVector(size));
      List<List<Object>> rows = reader.readRowGroup(index, nested);
      for (int row = 0; row < rows.size(); row++) {
        if (selected == null || selected.contains(row)) {
          for (int i = 0; i < assembled.length; i++) {
            assembled[i].append(rows.get(row).get(i));
          }
        }
      }
      for (int i = 0; i < assembled.length; i++) {
        vectors[columns.indexOf(nested.get(i))] = assembled[i];
      }
    }
    for (int i = 0; i < vectors.length; i++) {
      if (vectors[i] == null) {
        // an empty row group, or no row selected
        Type type = schema.getType(columns.get(i));
        vectors[i] = type.isPrimitive() ? VectorConverters.filler(type.asPrimitiveType(), 0).vector()
            : new ObjectVector(0);
      }
    }
    return Arrays.asList(vectors);
  }

  private static void readFlat(ParquetRowsReader reader, int index, MessageType requested, int count,
      List<String> columns, TypedVector[] vectors, RowSelection selected) throws IOException {
    int size = selected == null ? count : selected.count();
    VectorConverters.Filler[] fillers = new VectorConverters.Filler[requested.getFieldCount()];
    for (int i = 0; i < fillers.length; i++) {
      fillers[i] = VectorConverters.filler(requested.getType(i).asPrimitiveType(), size);
    }
    GroupConverter root = new GroupConverter() {
      @Override
      public Converter getConverter(int fieldIndex) {
        return fillers[fieldIndex];
      }

      @Override
      public void start() {}

      @Override
      public void end() {}
    };
    String name = reader.name();
    try {
      PageReadStore pages = reader.pages(index, requested);
      ColumnReadStoreImpl store =
          new ColumnReadStoreImpl(pages, root, requested, reader.footer().getFileMetaData().getCreatedBy());
      for (int i = 0; i < fillers.length; i++) {
        ColumnDescriptor descriptor = requested.getColumns().get(i);
        TypedVector vector = fillers[i].vector();
        vectors[columns.indexOf(requested.getType(i).getName())] = vector;
        if (pages.getPageReader(descriptor) instanceof ParquetChunks.ChunkPages chunk
            && FlatPageDecoder.canDecode(descriptor, chunk)) {
          FlatPageDecoder.decode(descriptor, chunk, fillers[i], count, selected);
          continue;
        }
        ColumnReader column = store.getColumnReader(descriptor);
        int defined = descriptor.getMaxDefinitionLevel();
        for (int row = 0; row < count; row++) {
          boolean wanted = selected == null || selected.contains(row);
          if (column.getCurrentDefinitionLevel() == defined) {
            if (wanted) {
              column.writeCurrentValueToConverter();
            } else {
              column.skip();
            }
          } else if (wanted) {
            vector.appendNull();
          }
          column.consume();
        }
      }
    } catch (EOFException e) {
      throw ParquetRowsReader.corrupt(name, e);
    } catch (FileNotFoundException e) {
      throw e;
    } catch (RuntimeException e) {
      throw ParquetRowsReader.corrupt(name, e);
    }
  }
}
