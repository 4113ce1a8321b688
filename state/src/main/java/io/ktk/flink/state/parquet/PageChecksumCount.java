package io.ktk.flink.state.parquet;

/**
 * What {@link ParquetRowsReader#verifyPageChecksums} found in a file whose pages all passed: how
 * many pages had their CRC checked, and how many carry none to check (pyarrow writes none unless
 * asked to, so plateau's files have none).
 */
public record PageChecksumCount(long verified, long withoutChecksum) {}
