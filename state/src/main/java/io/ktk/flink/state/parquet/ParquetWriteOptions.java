package io.ktk.flink.state.parquet;

import static java.util.Objects.requireNonNull;

import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * How {@link ParquetRowsWriter} writes a file. The defaults are pyarrow's where they matter to
 * readers: Snappy, ZSTD level 3 when ZSTD is chosen, dictionary encoding, 1 MiB pages, version 1
 * data pages; row groups are cut at 128 MiB of buffered data.
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
}
