package io.ktk.flink.state.parquet;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.CorruptDatasetException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * The top-level columns a caller of {@link ParquetRowsReader} asked for, as parquet-column's record
 * assembly reads them into rows: the file's fields in the file's order, and where each value goes
 * in the caller's row.
 */
final class RowProjection {
  private final ParquetRowsReader reader;
  private final MessageType requested;
  private final MessageColumnIO columnIO;
  private final RowConverters.RowMaterializer materializer;

  private RowProjection(ParquetRowsReader reader, MessageType requested, int[] slots, int width) {
    this.reader = reader;
    this.requested = requested;
    String createdBy = reader.footer().getFileMetaData().getCreatedBy();
    this.columnIO = new ColumnIOFactory(createdBy, false).getColumnIO(requested, reader.parquetSchema());
    try {
      this.materializer = new RowConverters.RowMaterializer(requested, slots, width);
    } catch (CorruptDatasetException e) {
      throw new CorruptDatasetException("Cannot read Parquet file " + reader.name() + ": " + e.getMessage(), e);
    }
  }

  static RowProjection of(ParquetRowsReader reader, List<String> columns) {
    List<Integer> positions = new ArrayList<>();
    MessageType requested = requested(reader, columns, positions);
    return new RowProjection(reader, requested, positions.stream().mapToInt(Integer::intValue).toArray(),
        columns.size());
  }

  /**
   * The file's top-level fields named {@code columns}, in the file's order; {@code positions}, when
   * given, gets each one's position in {@code columns}. A column the file lacks, or one asked for
   * twice, is an {@link IllegalArgumentException}.
   */
  static MessageType requested(ParquetRowsReader reader, List<String> columns, List<Integer> positions) {
    requireNonNull(columns, "columns is null");
    MessageType schema = reader.parquetSchema();
    Map<String, Integer> slots = new HashMap<>();
    for (int i = 0; i < columns.size(); i++) {
      String column = columns.get(i);
      if (!schema.containsField(column)) {
        throw new IllegalArgumentException(
            "Cannot read column " + column + " from " + reader.name() + ": the file has columns "
                + reader.arrowSchema().getFields().stream().map(Field::getName).toList());
      }
      if (slots.put(column, i) != null) {
        throw new IllegalArgumentException("Cannot read column " + column + " from " + reader.name() + " twice");
      }
    }
    // The projection keeps the file's column order; slots put each column where the caller wants it.
    List<Type> fields = new ArrayList<>();
    for (Type field : schema.getFields()) {
      Integer slot = slots.get(field.getName());
      if (slot != null) {
        fields.add(field);
        if (positions != null) {
          positions.add(slot);
        }
      }
    }
    return new MessageType(schema.getName(), fields);
  }

  /** A record reader over row group {@code rowGroup}'s pages of these columns. */
  RecordReader<List<Object>> open(int rowGroup) throws IOException {
    try {
      return columnIO.getRecordReader(reader.pages(rowGroup, requested), materializer);
    } catch (RuntimeException e) {
      throw ParquetRowsReader.corrupt(reader.name(), e);
    }
  }

  List<Object> read(RecordReader<List<Object>> records) {
    try {
      return records.read();
    } catch (RuntimeException e) {
      throw ParquetRowsReader.corrupt(reader.name(), e);
    }
  }
}
