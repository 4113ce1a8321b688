package io.ktk.flink.sink.writer;

import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.parquet.ArrowParquetSchemas;
import io.ktk.flink.state.parquet.ParquetCodecs;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.parquet.StoreOutputFile;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Writes a partition buffer as one Parquet file, {@code <uuid>/table/<label>.parquet}, straight
 * from its column blocks. Flat columns of numbers and strings become pages in bulk ({@link
 * ChunkEncoder}: levels from the null bits, plain or dictionary values, statistics); the others
 * (nested, boolean, decimal) go row by row to Parquet's column writers, each leaf column's writer
 * getting the next value or a null with its levels (no record assembly, no boxing). Row groups are
 * cut by the bytes the buffer's values take. The recipe of {@code ParquetRowsWriter} without
 * Hadoop: {@link ParquetFileWriter} over a {@link StoreOutputFile}, a {@link
 * ColumnChunkPageWriteStore} with our codecs, version 1 data pages, dictionary encoding (except for
 * columns whose values are mostly distinct, which Parquet would re-encode plainly anyway),
 * statistics, column indexes and page CRCs on.
 *
 * <p>The file's schema is the declared data columns, each nullable, whatever the values: a column
 * whose values in this file are all null keeps its declared type (physical type and logical
 * annotation, every value null), so that plateau and pandas read it as the type the other files
 * have ({@code float64}, {@code str}, {@code datetime64}) and not as the Arrow {@code null} type,
 * which pandas turns into {@code object}. The footer carries {@code ARROW:schema} (with the {@code
 * pandas} entry in it) and {@code pandas} ({@link DataFileFooter}), as files written by pyarrow
 * from pandas do. The object appears whole when the writer
 * closes; after a failure nothing is left.
 */
final class PartFileWriter {
  private static final int MIN_ROWS_PER_GROUP = 1024;

  private final ObjectStore store;
  private final String dataset;
  private final Schema declared;
  private final ParquetWriteOptions options;
  private final ParquetProperties properties;
  private final ChunkEncoder chunkEncoder;
  private final Map<String, String> footer;

  PartFileWriter(ObjectStore store, String dataset, Schema declaredDataColumns, ParquetWriteOptions options) {
    this.store = store;
    this.dataset = dataset;
    this.declared = declaredDataColumns;
    this.options = options;
    this.properties = options.properties();
    this.chunkEncoder = new ChunkEncoder(properties.getPageSizeThreshold(), properties.getPageRowCountLimit(),
        properties.getDictionaryPageSizeThreshold(), properties.getAllocator());
    this.footer = footer(declaredDataColumns);
  }

  /** Writes the rows of {@code buffer} as the file of {@code label}. */
  DataFile write(PartitionBuffer buffer, PartitionLabel label) throws IOException {
    MessageType parquetSchema = ArrowParquetSchemas.toParquet(declared);
    String key = dataset + "/table/" + label + ".parquet";
    StoreOutputFile file = new StoreOutputFile(store, key);
    CompressionCodecFactory.BytesInputCompressor compressor =
        new ParquetCodecs(options.zstdLevel()).getCompressor(options.compression());
    try {
      ParquetFileWriter fileWriter = options.startFileWriter(file, parquetSchema, properties);
      writeRows(buffer, fileWriter, parquetSchema, compressor);
      fileWriter.end(footer);
      return new DataFile(label.toString(), buffer.rows(), fileWriter.getPos(), declared);
    } catch (IOException | RuntimeException e) {
      file.abort();
      throw e;
    } finally {
      compressor.release();
    }
  }

  private void writeRows(PartitionBuffer buffer, ParquetFileWriter fileWriter, MessageType schema,
      CompressionCodecFactory.BytesInputCompressor compressor) throws IOException {
    int columnCount = buffer.columnCount();
    List<ColumnDescriptor> descriptors = schema.getColumns();
    ColumnBuffer[] columns = new ColumnBuffer[columnCount];
    int[] firstLeaf = new int[columnCount];
    FlatValues[] flat = new FlatValues[columnCount];
    List<Type> rowByRow = new ArrayList<>();
    int leaves = 0;
    for (int c = 0; c < columnCount; c++) {
      columns[c] = buffer.column(c);
      columns[c].startWriting();
      firstLeaf[c] = leaves;
      leaves += columns[c].leafCount();
      flat[c] = columns[c].flatValues();
      if (flat[c] == null) {
        rowByRow.add(schema.getType(c));
      }
    }
    if (leaves != descriptors.size()) {
      throw new IllegalStateException("Cannot write " + leaves + " leaf columns for the schema " + schema);
    }
    boolean[] dictionary = dictionaryAllowed(columns, flat, firstLeaf, descriptors);
    ParquetProperties fileProperties = withoutHopelessDictionaries(columns, firstLeaf, descriptors);
    // the columns Parquet's column writers write, value by value: nested, boolean, decimal
    MessageType rowByRowSchema = rowByRow.isEmpty() ? null : new MessageType(schema.getName(), rowByRow);
    int rows = buffer.rows();
    int rowsPerGroup = rowsPerGroup(buffer);
    int[] nextValue = new int[columnCount];
    for (int groupStart = 0; groupStart < rows; groupStart += rowsPerGroup) {
      int groupEnd = (int) Math.min(rows, (long) groupStart + rowsPerGroup);
      ColumnChunkPageWriteStore pageStore = pageStore(schema, compressor);
      for (int c = 0; c < columnCount; c++) {
        if (flat[c] != null) {
          ColumnDescriptor descriptor = descriptors.get(firstLeaf[c]);
          nextValue[c] = chunkEncoder.encode(columns[c], flat[c], descriptor.getPrimitiveType(), dictionary[c],
              groupStart, groupEnd, nextValue[c], pageStore.getPageWriter(descriptor));
        }
      }
      if (rowByRowSchema != null) {
        writeRowByRow(columns, flat, firstLeaf, descriptors, fileProperties, rowByRowSchema, pageStore, groupStart,
            groupEnd);
      }
      fileWriter.startBlock(groupEnd - groupStart);
      pageStore.flushToFileWriter(fileWriter);
      fileWriter.endBlock();
      pageStore.close();
    }
  }

  /** Rows {@code from .. to} of the columns without flat values, through Parquet's column writers. */
  private static void writeRowByRow(ColumnBuffer[] columns, FlatValues[] flat, int[] firstLeaf,
      List<ColumnDescriptor> descriptors, ParquetProperties properties, MessageType schema,
      ColumnChunkPageWriteStore pageStore, int from, int to) {
    ColumnWriteStore columnStore = properties.newColumnWriteStore(schema, pageStore, pageStore);
    ColumnWriter[] writers = new ColumnWriter[descriptors.size()];
    for (ColumnDescriptor descriptor : schema.getColumns()) {
      writers[descriptors.indexOf(descriptor)] = columnStore.getColumnWriter(descriptor);
    }
    for (int row = from; row < to; row++) {
      for (int c = 0; c < columns.length; c++) {
        if (flat[c] == null) {
          columns[c].writeRow(writers, firstLeaf[c], row);
        }
      }
      columnStore.endRecord();
    }
    columnStore.close();
  }

  /**
   * Rows per row group: as many as make about the row group size by the bytes the buffer uses
   * (values as held, close to their plain encoding).
   */
  private int rowsPerGroup(PartitionBuffer buffer) {
    long used = Math.max(1, buffer.usedBytes());
    long rows = Math.max(1, buffer.rows());
    return (int) Math.max(MIN_ROWS_PER_GROUP, Math.min(Integer.MAX_VALUE, options.rowGroupSizeBytes() * rows / used));
  }

  /** Per column, whether its chunks may have a dictionary (the options allow it, its values are not mostly distinct). */
  private boolean[] dictionaryAllowed(ColumnBuffer[] columns, FlatValues[] flat, int[] firstLeaf,
      List<ColumnDescriptor> descriptors) {
    boolean[] allowed = new boolean[columns.length];
    for (int c = 0; c < columns.length; c++) {
      allowed[c] = flat[c] != null && options.dictionaryEncoding()
          && properties.isDictionaryEnabled(descriptors.get(firstLeaf[c])) && !columns[c].judgedMostlyDistinct();
    }
    return allowed;
  }

  /**
   * The properties with dictionary encoding turned off for the flat columns whose values are
   * mostly distinct ({@link ColumnBuffer#mostlyDistinct}): Parquet would fall back to plain
   * encoding for them after building the dictionary of the first page anyway.
   */
  private ParquetProperties withoutHopelessDictionaries(ColumnBuffer[] columns, int[] firstLeaf,
      List<ColumnDescriptor> descriptors) {
    if (!options.dictionaryEncoding()) {
      return properties;
    }
    ParquetProperties.Builder builder = null;
    for (int c = 0; c < columns.length; c++) {
      if (columns[c].leafCount() == 1 && columns[c].flatValues() == null && columns[c].mostlyDistinct()) {
        if (builder == null) {
          builder = ParquetProperties.copy(properties);
        }
        builder.withDictionaryEncoding(String.join(".", descriptors.get(firstLeaf[c]).getPath()), false);
      }
    }
    return builder == null ? properties : builder.build();
  }

  private ColumnChunkPageWriteStore pageStore(MessageType schema,
      CompressionCodecFactory.BytesInputCompressor compressor) {
    return ColumnChunkPageWriteStore.builder()
        .withCompressorProvider(column -> compressor)
        .withSchema(schema)
        .withAllocator(properties.getAllocator())
        .withColumnIndexTruncateLength(properties.getColumnIndexTruncateLength())
        .withPageWriteChecksumEnabled(properties.getPageWriteChecksumEnabled())
        .build();
  }

  private static Map<String, String> footer(Schema physical) {
    return java.util.Collections.unmodifiableMap(DataFileFooter.keyValues(physical));
  }
}
