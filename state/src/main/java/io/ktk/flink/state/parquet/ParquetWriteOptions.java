package io.ktk.flink.state.parquet;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.MessageType;

/**
 * How {@link ParquetRowsWriter} writes a file. The defaults are pyarrow's where they matter to
 * readers: Snappy, ZSTD level 3 when ZSTD is chosen, dictionary encoding, 1 MiB pages, version 1
 * data pages; row groups are cut at 128 MiB of buffered data. Unlike pyarrow's default, every page
 * (dictionary pages too) carries a CRC-32 of its bytes in its header, so that readers (ours,
 * pyarrow with {@code page_checksum_verification=True}, parquet-java) detect a page altered after
 * it was written instead of returning wrong values.
 *
 * @param compression the page codec; one of {@link ParquetCodecs#isSupported}
 * @param zstdLevel the ZSTD level, used when {@code compression} is ZSTD
 * @param rowGroupSizeBytes a row group is written when this much data is buffered
 * @param pageSizeBytes a data page is cut at about this size
 * @param dictionaryEncoding whether columns are dictionary encoded (falling back to plain when
 *     the dictionary grows past a page)
 */
public record ParquetWriteOptions(
    CompressionCodecName compression,
    int zstdLevel,
    long rowGroupSizeBytes,
    int pageSizeBytes,
    boolean dictionaryEncoding) {

  public ParquetWriteOptions {
    requireNonNull(compression, "compression is null");
    if (!ParquetCodecs.isSupported(compression)) {
      throw new IllegalArgumentException(
          "Cannot write Parquet with codec " + compression + ": supported are UNCOMPRESSED, SNAPPY, ZSTD and GZIP");
    }
    new ParquetCodecs(zstdLevel); // validates the level
    if (rowGroupSizeBytes <= 0) {
      throw new IllegalArgumentException("rowGroupSizeBytes must be positive: " + rowGroupSizeBytes);
    }
    if (pageSizeBytes <= 0) {
      throw new IllegalArgumentException("pageSizeBytes must be positive: " + pageSizeBytes);
    }
  }

  public static ParquetWriteOptions defaults() {
    return new ParquetWriteOptions(
        CompressionCodecName.SNAPPY, ParquetCodecs.DEFAULT_ZSTD_LEVEL, 128L << 20, 1 << 20, true);
  }

  public ParquetWriteOptions withCompression(CompressionCodecName codec) {
    return new ParquetWriteOptions(codec, zstdLevel, rowGroupSizeBytes, pageSizeBytes, dictionaryEncoding);
  }

  public ParquetWriteOptions withZstdLevel(int level) {
    return new ParquetWriteOptions(compression, level, rowGroupSizeBytes, pageSizeBytes, dictionaryEncoding);
  }

  public ParquetWriteOptions withRowGroupSizeBytes(long bytes) {
    return new ParquetWriteOptions(compression, zstdLevel, bytes, pageSizeBytes, dictionaryEncoding);
  }

  public ParquetWriteOptions withPageSizeBytes(int bytes) {
    return new ParquetWriteOptions(compression, zstdLevel, rowGroupSizeBytes, bytes, dictionaryEncoding);
  }

  public ParquetWriteOptions withDictionaryEncoding(boolean enabled) {
    return new ParquetWriteOptions(compression, zstdLevel, rowGroupSizeBytes, pageSizeBytes, enabled);
  }

  /** The column-level properties these options give: Parquet 1.0 pages, statistics and page CRCs on. */
  public ParquetProperties properties() {
    return ParquetProperties.builder()
        .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
        .withPageSize(pageSizeBytes)
        .withDictionaryPageSize(pageSizeBytes)
        .withDictionaryEncoding(dictionaryEncoding)
        .withStatisticsEnabled(true)
        .withPageWriteChecksumEnabled(true)
        .build();
  }

  /**
   * Opens and starts a file writer for {@code schema} with these options. The 8-argument
   * constructor is the one that needs no Hadoop class (the 7-argument one of the same arity takes a
   * Hadoop type and does not compile without Hadoop).
   */
  public ParquetFileWriter startFileWriter(OutputFile file, MessageType schema, ParquetProperties properties)
      throws IOException {
    ParquetFileWriter writer =
        new ParquetFileWriter(
            file,
            schema,
            ParquetFileWriter.Mode.CREATE,
            rowGroupSizeBytes,
            0,
            properties.getColumnIndexTruncateLength(),
            properties.getStatisticsTruncateLength(),
            properties.getPageWriteChecksumEnabled());
    writer.start();
    return writer;
  }
}
