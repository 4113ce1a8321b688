package io.ktk.flink.state.parquet;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes rows of typed Java values to a Parquet file of an Arrow schema, without Hadoop: small
 * files (index files, {@code _common_metadata}, test data), simple and complete rather than fast.
 *
 * <p>Why not {@code ParquetWriter}: its builder requires subclasses to implement {@code
 * getWriteSupport(org.apache.hadoop.conf.Configuration)}, which cannot be compiled without
 * Hadoop, and its constructor that takes a {@code CompressionCodecFactory} is package-private.
 * This class drives the same parts that {@code ParquetWriter} drives: a {@link ParquetFileWriter}
 * over an {@link OutputFile}, a {@link ColumnChunkPageWriteStore} with our {@link ParquetCodecs}
 * compressor, the {@link ColumnWriteStore} of {@link ParquetProperties}, and parquet-column's
 * record consumer, which computes repetition and definition levels for nested values. None of
 * them loads a Hadoop class. (Of {@code ParquetFileWriter}'s constructors we call the one with
 * eight parameters: javac must load the parameter types of every overload of the same arity, and
 * the seven-parameter ones include a Hadoop {@code Configuration}.) Statistics and column indexes
 * are written, as parquet-java does by default.
 *
 * <p>Values, by the Arrow type of their column: integers (signed or unsigned) {@code Long}
 * (unsigned ones hold the unsigned bits; {@code Integer}, {@code Short} and {@code Byte} are
 * accepted too); floating point {@code Double} (or {@code Float}); bool {@code Boolean};
 * string {@code String}; binary {@code byte[]}; date {@code LocalDate}; timestamp without zone
 * {@code LocalDateTime}, with zone {@code Instant}; time {@code LocalTime}; decimal {@code
 * BigDecimal}; list {@code java.util.List}; struct {@code Map<String, ?>} by member name (a
 * missing member is null); null is {@code null}. A value that does not fit its column (wrong
 * class, out of range, more digits or precision than the type holds) fails with {@link
 * io.ktk.flink.state.KtkValidationException} naming the column and the value; the file is then
 * unusable and {@link #close()} discards it.
 *
 * <p>The file appears when {@link #close()} returns; {@link #abort()} (or a failed write) leaves
 * nothing when writing to an {@link ObjectStore}.
 */
public final class ParquetRowsWriter implements AutoCloseable {
  /** How many rows are written between checks of the buffered size. */
  private static final int SIZE_CHECK_INTERVAL = 100;

  private final OutputFile file;
  private final MessageType schema;
  private final Map<String, String> keyValueMetadata;
  private final ParquetWriteOptions options;
  private final ParquetProperties properties;
  private final CompressionCodecFactory.BytesInputCompressor compressor;
  private final ParquetFileWriter fileWriter;
  private final MessageColumnIO columnIO;
  private final ValueWriters.RowWriter rowWriter;
  private ColumnChunkPageWriteStore pageStore;
  private ColumnWriteStore columnStore;
  private RecordConsumer consumer;
  private long rowsInGroup;
  private long rowCount;
  private boolean failed;
  private boolean closed;
  private ParquetMetadata footer;

  private ParquetRowsWriter(OutputFile file, Schema arrowSchema, Map<String, String> keyValueMetadata,
      ParquetWriteOptions options, ParquetProperties properties) throws IOException {
    this.file = file;
    this.schema = ArrowParquetSchemas.toParquet(arrowSchema);
    this.rowWriter = new ValueWriters.RowWriter(arrowSchema);
    this.keyValueMetadata = new LinkedHashMap<>(keyValueMetadata);
    this.options = options;
    this.properties = properties;
    this.compressor = new ParquetCodecs(options.zstdLevel()).getCompressor(options.compression());
    this.columnIO = new ColumnIOFactory(false).getColumnIO(schema);
    this.fileWriter = options.startFileWriter(file, schema, properties);
    startRowGroup();
  }

  /**
   * Opens a writer of a new object {@code key}; it appears when the writer is closed.
   *
   * @param keyValueMetadata the footer's key/value metadata, e.g. {@code ARROW:schema}
   */
  public static ParquetRowsWriter create(
      ObjectStore store, String key, Schema schema, Map<String, String> keyValueMetadata, ParquetWriteOptions options)
      throws IOException {
    return create(new StoreOutputFile(store, key), schema, keyValueMetadata, options);
  }

  /** Opens a writer of {@code file}; see {@link #create(ObjectStore, String, Schema, Map, ParquetWriteOptions)}. */
  public static ParquetRowsWriter create(
      OutputFile file, Schema schema, Map<String, String> keyValueMetadata, ParquetWriteOptions options)
      throws IOException {
    requireNonNull(options, "options is null");
    return create(file, schema, keyValueMetadata, options, options.properties());
  }

  /**
   * As {@link #create(OutputFile, Schema, Map, ParquetWriteOptions)}, with column properties of
   * the caller's (e.g. statistics or dictionaries off for some columns: {@code
   * ParquetProperties.copy(options.properties())}); codec and row group size come from {@code options}.
   */
  public static ParquetRowsWriter create(OutputFile file, Schema schema, Map<String, String> keyValueMetadata,
      ParquetWriteOptions options, ParquetProperties properties) throws IOException {
    requireNonNull(file, "file is null");
    requireNonNull(schema, "schema is null");
    requireNonNull(keyValueMetadata, "keyValueMetadata is null");
    requireNonNull(options, "options is null");
    requireNonNull(properties, "properties is null");
    try {
      return new ParquetRowsWriter(file, schema, keyValueMetadata, options, properties);
    } catch (IOException | RuntimeException e) {
      abortFile(file);
      throw e;
    }
  }

  /** The Parquet schema the file is written with. */
  public MessageType parquetSchema() {
    return schema;
  }

  /** Writes one row: one value per column of the schema, in schema order. */
  public void write(List<?> row) throws IOException {
    requireNonNull(row, "row is null");
    checkWritable();
    try {
      rowWriter.write(consumer, row);
      rowsInGroup++;
      rowCount++;
      if (rowsInGroup % SIZE_CHECK_INTERVAL == 0 && columnStore.getBufferedSize() >= options.rowGroupSizeBytes()) {
        flushRowGroup();
        startRowGroup();
      }
    } catch (IOException | RuntimeException e) {
      failed = true;
      throw e;
    }
  }

  /**
   * Ends the current row group now (when it holds rows), whatever its size: the next row starts a
   * new one. For files whose row groups must follow the data (and for tests of readers that skip
   * row groups); the size limit of the options still applies on top.
   */
  public void endRowGroup() throws IOException {
    checkWritable();
    if (rowsInGroup == 0) {
      return;
    }
    try {
      flushRowGroup();
      startRowGroup();
    } catch (IOException | RuntimeException e) {
      failed = true;
      throw e;
    }
  }

  /** Rows written so far. */
  public long rowCount() {
    return rowCount;
  }

  /**
   * Writes the last row group and the footer; the file appears. After a failed {@link #write}
   * this discards the file instead, so try-with-resources never publishes half a file.
   */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    if (failed) {
      abort();
      return;
    }
    closed = true;
    try {
      flushRowGroup();
      fileWriter.end(keyValueMetadata);
      footer = fileWriter.getFooter();
    } catch (IOException | RuntimeException e) {
      abortFile(file);
      throw e;
    } finally {
      release();
    }
  }

  /** Discards the file; nothing appears in the store. Idempotent. */
  public void abort() {
    if (closed) {
      return;
    }
    closed = true;
    release();
    abortFile(file);
  }

  /** The footer of the closed file: row groups, column statistics, key/value metadata. */
  public ParquetMetadata footer() {
    if (footer == null) {
      throw new IllegalStateException("Cannot read the footer of " + file + ": the writer is not closed");
    }
    return footer;
  }

  private void startRowGroup() {
    pageStore =
        ColumnChunkPageWriteStore.builder()
            .withCompressorProvider(column -> compressor)
            .withSchema(schema)
            .withAllocator(properties.getAllocator())
            .withColumnIndexTruncateLength(properties.getColumnIndexTruncateLength())
            .withPageWriteChecksumEnabled(properties.getPageWriteChecksumEnabled())
            .build();
    columnStore = properties.newColumnWriteStore(schema, pageStore, pageStore);
    consumer = columnIO.getRecordWriter(columnStore);
    rowsInGroup = 0;
  }

  private void flushRowGroup() throws IOException {
    // The record consumer caches nulls of groups until flushed; close() then flushes the last
    // pages into the page store (a second flush() would fail on an empty page).
    consumer.flush();
    columnStore.close();
    if (rowsInGroup > 0) {
      fileWriter.startBlock(rowsInGroup);
      pageStore.flushToFileWriter(fileWriter);
      fileWriter.endBlock();
    }
    pageStore.close();
  }

  private void release() {
    compressor.release();
  }

  private void checkWritable() {
    if (closed) {
      throw new IllegalStateException("Cannot write to " + file + ": the writer is closed");
    }
    if (failed) {
      throw new IllegalStateException("Cannot write to " + file + ": an earlier write failed; abort the writer");
    }
  }

  private static void abortFile(OutputFile file) {
    if (file instanceof StoreOutputFile) {
      ((StoreOutputFile) file).abort();
    }
  }
}
