package io.ktk.flink.sink.compaction;

import static org.apache.flink.configuration.ConfigOptions.key;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;

/**
 * Options of compaction ({@link Compactor}), as keys of a Flink configuration. The page codec and
 * the row group size are the sink's ({@link io.ktk.flink.sink.config.KartothekSinkOptions#COMPRESSION},
 * {@link io.ktk.flink.sink.config.KartothekSinkOptions#ROW_GROUP_SIZE}); {@link CompactionSettings#of}
 * reads them all.
 */
public final class CompactionOptions {
  public static final ConfigOption<MemorySize> TARGET_FILE_SIZE =
      key("compaction.target-file-size")
          .memoryType()
          .defaultValue(MemorySize.ofMebiBytes(128))
          .withDescription("The size compaction aims at for the files it writes. Files smaller than "
              + "'compaction.small-file-ratio' times this are small: compaction rewrites runs of them into files "
              + "of about this size, holding the same rows.");

  public static final ConfigOption<Double> SMALL_FILE_RATIO =
      key("compaction.small-file-ratio")
          .doubleType()
          .defaultValue(0.75)
          .withDescription("A file is small, and taken by compaction, when it is smaller than this fraction of "
              + "'compaction.target-file-size'; larger files are left as they are. Between 0 and 1.");

  public static final ConfigOption<Integer> MIN_INPUT_FILES =
      key("compaction.min-input-files")
          .intType()
          .defaultValue(8)
          .withDescription("A partition is compacted when it has a run of at least this many small files that "
              + "can be rewritten together (see docs/maintenance.md); shorter runs are left alone unless the "
              + "partition is idle ('compaction.idle-partition-after').");

  public static final ConfigOption<Duration> IDLE_PARTITION_AFTER =
      key("compaction.idle-partition-after")
          .durationType()
          .defaultValue(Duration.ofHours(1))
          .withDescription("A partition whose newest file is older than this (a day that ended, for daily "
              + "partitions) is compacted even below 'compaction.min-input-files', when it has at least 2 small "
              + "files to rewrite together.");

  public static final ConfigOption<MemorySize> MAX_BYTES_PER_COMMIT =
      key("compaction.max-bytes-per-commit")
          .memoryType()
          .defaultValue(MemorySize.ofMebiBytes(1024))
          .withDescription("Compaction commits the partitions it rewrote as one version once it has read about "
              + "this many bytes of small files, then goes on with the next partitions: a failure or a conflict "
              + "loses at most one version's work.");

  public static final ConfigOption<Integer> PARALLELISM =
      key("compaction.parallelism")
          .intType()
          .defaultValue(1)
          .withDescription("How many files compaction writes at once (threads); each holds a row group of its "
              + "output in memory.");

  private CompactionOptions() {}

  /** Every option of this class. */
  public static List<ConfigOption<?>> all() {
    return List.of(TARGET_FILE_SIZE, SMALL_FILE_RATIO, MIN_INPUT_FILES, IDLE_PARTITION_AFTER, MAX_BYTES_PER_COMMIT,
        PARALLELISM);
  }
}
