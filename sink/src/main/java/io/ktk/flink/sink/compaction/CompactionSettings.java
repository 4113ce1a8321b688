package io.ktk.flink.sink.compaction;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.sink.config.Compression;
import io.ktk.flink.sink.config.KartothekSinkOptions;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The settings of a {@link Compactor}, checked: what {@link CompactionOptions} (and the sink's
 * codec and row group size) configure.
 *
 * @param targetFileSize bytes a written file aims at
 * @param smallFileRatio files below this fraction of the target are small
 * @param minInputFiles the shortest run of small files compacted in a partition that is not idle
 * @param idlePartitionAfter a partition whose newest file is older is compacted from 2 small files on
 * @param maxBytesPerCommit bytes of small files read before the rewrites so far are committed
 * @param parallelism files written at once
 * @param compression the page codec of the written files
 * @param rowGroupSize a row group is cut when this much encoded data is buffered
 */
public record CompactionSettings(
    long targetFileSize,
    double smallFileRatio,
    int minInputFiles,
    Duration idlePartitionAfter,
    long maxBytesPerCommit,
    int parallelism,
    Compression compression,
    long rowGroupSize)
    implements java.io.Serializable {

  public CompactionSettings {
    requireNonNull(idlePartitionAfter, "idlePartitionAfter is null");
    requireNonNull(compression, "compression is null");
    check(targetFileSize > 0, CompactionOptions.TARGET_FILE_SIZE.key(), targetFileSize, "must be positive");
    check(smallFileRatio > 0 && smallFileRatio <= 1, CompactionOptions.SMALL_FILE_RATIO.key(), smallFileRatio,
        "must be in (0, 1]");
    check(minInputFiles >= 2, CompactionOptions.MIN_INPUT_FILES.key(), minInputFiles,
        "must be at least 2 (rewriting one file into one file gains nothing)");
    check(!idlePartitionAfter.isNegative(), CompactionOptions.IDLE_PARTITION_AFTER.key(), idlePartitionAfter,
        "must not be negative");
    check(maxBytesPerCommit > 0, CompactionOptions.MAX_BYTES_PER_COMMIT.key(), maxBytesPerCommit, "must be positive");
    check(parallelism >= 1, CompactionOptions.PARALLELISM.key(), parallelism, "must be at least 1");
    check(rowGroupSize > 0, KartothekSinkOptions.ROW_GROUP_SIZE.key(), rowGroupSize, "must be positive");
  }

  /** The defaults of every option. */
  public static CompactionSettings defaults() {
    return of(new Configuration());
  }

  /** The settings a configuration gives (defaults for keys it lacks). */
  public static CompactionSettings of(ReadableConfig config) {
    requireNonNull(config, "config is null");
    return new CompactionSettings(
        config.get(CompactionOptions.TARGET_FILE_SIZE).getBytes(),
        config.get(CompactionOptions.SMALL_FILE_RATIO),
        config.get(CompactionOptions.MIN_INPUT_FILES),
        config.get(CompactionOptions.IDLE_PARTITION_AFTER),
        config.get(CompactionOptions.MAX_BYTES_PER_COMMIT).getBytes(),
        config.get(CompactionOptions.PARALLELISM),
        config.get(KartothekSinkOptions.COMPRESSION),
        config.get(KartothekSinkOptions.ROW_GROUP_SIZE).getBytes());
  }

  /** Files below this many bytes are small. */
  public long smallFileBytes() {
    return (long) (targetFileSize * smallFileRatio);
  }

  public CompactionSettings withTargetFileSize(long bytes) {
    return new CompactionSettings(bytes, smallFileRatio, minInputFiles, idlePartitionAfter, maxBytesPerCommit,
        parallelism, compression, rowGroupSize);
  }

  public CompactionSettings withMinInputFiles(int files) {
    return new CompactionSettings(targetFileSize, smallFileRatio, files, idlePartitionAfter, maxBytesPerCommit,
        parallelism, compression, rowGroupSize);
  }

  public CompactionSettings withIdlePartitionAfter(Duration idle) {
    return new CompactionSettings(targetFileSize, smallFileRatio, minInputFiles, idle, maxBytesPerCommit,
        parallelism, compression, rowGroupSize);
  }

  public CompactionSettings withMaxBytesPerCommit(long bytes) {
    return new CompactionSettings(targetFileSize, smallFileRatio, minInputFiles, idlePartitionAfter, bytes,
        parallelism, compression, rowGroupSize);
  }

  public CompactionSettings withParallelism(int threads) {
    return new CompactionSettings(targetFileSize, smallFileRatio, minInputFiles, idlePartitionAfter,
        maxBytesPerCommit, threads, compression, rowGroupSize);
  }

  /** How the written files are encoded: the sink's defaults with this codec and row group size. */
  ParquetWriteOptions writeOptions() {
    return ParquetWriteOptions.defaults().withCompression(compression.codec()).withRowGroupSizeBytes(rowGroupSize);
  }

  private static void check(boolean ok, String key, Object value, String rule) {
    if (!ok) {
      throw new IllegalArgumentException("Invalid compaction option '" + key + "': " + value + " " + rule);
    }
  }
}
