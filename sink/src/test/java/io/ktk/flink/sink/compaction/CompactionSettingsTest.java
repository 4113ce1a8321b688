package io.ktk.flink.sink.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.sink.config.Compression;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/** Pins every compaction option's key and default, and the checks of the settings. */
class CompactionSettingsTest {
  @Test
  void keysAndDefaults() {
    assertThat(CompactionOptions.all()).extracting(option -> option.key()).containsExactly(
        "compaction.target-file-size", "compaction.small-file-ratio", "compaction.min-input-files",
        "compaction.idle-partition-after", "compaction.max-bytes-per-commit", "compaction.parallelism");
    assertThat(CompactionOptions.all()).allSatisfy(option -> assertThat(option.description().toString()).isNotBlank());

    CompactionSettings defaults = CompactionSettings.defaults();
    assertThat(defaults.targetFileSize()).isEqualTo(128L << 20);
    assertThat(defaults.smallFileRatio()).isEqualTo(0.75);
    assertThat(defaults.smallFileBytes()).isEqualTo(96L << 20);
    assertThat(defaults.minInputFiles()).isEqualTo(8);
    assertThat(defaults.idlePartitionAfter()).isEqualTo(Duration.ofHours(1));
    assertThat(defaults.maxBytesPerCommit()).isEqualTo(1L << 30);
    assertThat(defaults.parallelism()).isEqualTo(1);
    assertThat(defaults.compression()).isEqualTo(Compression.SNAPPY);
    assertThat(defaults.rowGroupSize()).isEqualTo(128L << 20);
  }

  @Test
  void readsAConfiguration() {
    CompactionSettings settings = CompactionSettings.of(Configuration.fromMap(Map.of(
        "compaction.target-file-size", "64mb",
        "compaction.min-input-files", "4",
        "compaction.idle-partition-after", "1 d",
        "compression", "ZSTD")));
    assertThat(settings.targetFileSize()).isEqualTo(64L << 20);
    assertThat(settings.minInputFiles()).isEqualTo(4);
    assertThat(settings.idlePartitionAfter()).isEqualTo(Duration.ofDays(1));
    assertThat(settings.compression()).isEqualTo(Compression.ZSTD);
  }

  @Test
  void refusesSettingsThatCannotWork() {
    assertThatThrownBy(() -> CompactionSettings.defaults().withMinInputFiles(1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid compaction option 'compaction.min-input-files': 1 must be at least 2 (rewriting one "
            + "file into one file gains nothing)");
    assertThatThrownBy(() -> CompactionSettings.of(Configuration.fromMap(Map.of("compaction.small-file-ratio", "1.5"))))
        .hasMessage("Invalid compaction option 'compaction.small-file-ratio': 1.5 must be in (0, 1]");
    assertThatThrownBy(() -> CompactionSettings.defaults().withTargetFileSize(0))
        .hasMessage("Invalid compaction option 'compaction.target-file-size': 0 must be positive");
  }
}
