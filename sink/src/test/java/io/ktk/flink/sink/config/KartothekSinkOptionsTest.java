package io.ktk.flink.sink.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.sink.KartothekSinkBuilder;
import io.ktk.flink.state.KtkValidationException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

class KartothekSinkOptionsTest {
  private static final RowType ROW = (RowType) DataTypes.ROW(
      DataTypes.FIELD("id", DataTypes.BIGINT()),
      DataTypes.FIELD("p", DataTypes.STRING()),
      DataTypes.FIELD("flag", DataTypes.BOOLEAN()),
      DataTypes.FIELD("tags", DataTypes.MAP(DataTypes.STRING(), DataTypes.STRING()))).getLogicalType();
  private static final RowType FLAT = (RowType) DataTypes.ROW(
      DataTypes.FIELD("id", DataTypes.BIGINT()),
      DataTypes.FIELD("p", DataTypes.STRING()),
      DataTypes.FIELD("flag", DataTypes.BOOLEAN())).getLogicalType();

  @Test
  void keysAndDefaultsArePinned() {
    assertThat(KartothekSinkOptions.all()).extracting(ConfigOption::key).containsExactly(
        "store", "dataset", "partition-columns", "index-columns", "primary-key", "compression", "row-group-size", "memory-budget",
        "validation-policy", "write-mode", "commit.verify-files-older-than", "publish.min-interval",
        "writer-id-prefix");
    assertThat(KartothekSinkOptions.STORE.hasDefaultValue()).isFalse();
    assertThat(KartothekSinkOptions.DATASET.hasDefaultValue()).isFalse();
    assertThat(KartothekSinkOptions.PARTITION_COLUMNS.defaultValue()).isEmpty();
    assertThat(KartothekSinkOptions.INDEX_COLUMNS.defaultValue()).isEmpty();
    assertThat(KartothekSinkOptions.PRIMARY_KEY.defaultValue()).isEmpty();
    assertThat(KartothekSinkOptions.COMPRESSION.defaultValue()).isEqualTo(Compression.SNAPPY);
    assertThat(KartothekSinkOptions.ROW_GROUP_SIZE.defaultValue()).isEqualTo(MemorySize.parse("128mb"));
    assertThat(KartothekSinkOptions.MEMORY_BUDGET.defaultValue()).isEqualTo(MemorySize.parse("128mb"));
    assertThat(KartothekSinkOptions.VALIDATION_POLICY.defaultValue()).isEqualTo(ValidationPolicy.FAIL);
    assertThat(KartothekSinkOptions.WRITE_MODE.defaultValue()).isEqualTo(WriteMode.APPEND);
    assertThat(KartothekSinkOptions.COMMIT_VERIFY_FILES_OLDER_THAN.defaultValue()).isEqualTo(Duration.ZERO);
    assertThat(KartothekSinkOptions.PUBLISH_MIN_INTERVAL.defaultValue()).isEqualTo(Duration.ZERO);
    assertThat(KartothekSinkOptions.WRITER_ID_PREFIX.defaultValue()).isEmpty();
    assertThat(KartothekSinkOptions.all()).allSatisfy(option -> assertThat(option.description().toString()).isNotBlank());
  }

  @Test
  void builderWithoutOptionsHasTheDefaults() {
    KartothekSinkConfig config = KartothekSink.forRowData(FLAT).store("file:///tmp/x").dataset("d").build().config();
    assertThat(config.compression()).isEqualTo(Compression.SNAPPY);
    assertThat(config.rowGroupSizeBytes()).isEqualTo(128L << 20);
    assertThat(config.memoryBudgetBytes()).isEqualTo(128L << 20);
    assertThat(config.validationPolicy()).isEqualTo(ValidationPolicy.FAIL);
    assertThat(config.writeMode()).isEqualTo(WriteMode.APPEND);
    assertThat(config.verifyFilesOlderThan()).isEqualTo(Duration.ZERO);
    assertThat(config.partitionColumns()).isEmpty();
    assertThat(config.indexColumns()).isEmpty();
  }

  @Test
  void optionsAsTextConfigureTheBuilder() {
    KartothekSinkConfig config = KartothekSink.forRowData(FLAT)
        .options(Map.of(
            "store", "s3://bucket/prefix",
            "store.region", "eu-central-1",
            "dataset", "events",
            "partition-columns", "p",
            "index-columns", "id",
            "compression", "ZSTD",
            "row-group-size", "8mb",
            "memory-budget", "64mb",
            "validation-policy", "DEAD_LETTER",
            "write-mode", "REPLACE_PARTITIONS"))
        .options(Map.of("commit.verify-files-older-than", "10 min"))
        .build()
        .config();
    assertThat(config.store()).isEqualTo(ObjectStoreFactory.of("s3://bucket/prefix", Map.of("region", "eu-central-1")));
    assertThat(config.store().toString()).isEqualTo("s3://bucket/prefix");
    assertThat(config.dataset()).isEqualTo("events");
    assertThat(config.partitionColumns()).containsExactly("p");
    assertThat(config.indexColumns()).containsExactly("id");
    assertThat(config.compression()).isEqualTo(Compression.ZSTD);
    assertThat(config.rowGroupSizeBytes()).isEqualTo(8L << 20);
    assertThat(config.memoryBudgetBytes()).isEqualTo(64L << 20);
    assertThat(config.validationPolicy()).isEqualTo(ValidationPolicy.DEAD_LETTER);
    assertThat(config.writeMode()).isEqualTo(WriteMode.REPLACE_PARTITIONS);
    assertThat(config.verifyFilesOlderThan()).isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void builderRefusesWhatTheDatasetCannotHold() {
    assertThatThrownBy(() -> KartothekSink.forRowData(FLAT).store("file:///tmp/x").build())
        .isInstanceOf(KtkValidationException.class).hasMessageContaining("no dataset given");
    assertThatThrownBy(() -> KartothekSink.forRowData(FLAT).dataset("d").build())
        .isInstanceOf(KtkValidationException.class).hasMessageContaining("no store given");
    assertThatThrownBy(() -> builder(FLAT).dataset("a/b").build())
        .isInstanceOf(KtkValidationException.class).hasMessageContaining("dataset uuid");
    assertThatThrownBy(() -> builder(FLAT).partitionBy("nope").build())
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("partition column 'nope' is not a column of [id, p, flag]");
    assertThatThrownBy(() -> builder(FLAT).partitionBy("flag").build())
        .isInstanceOf(KtkValidationException.class).hasMessageContaining("flag").hasMessageContaining("bool");
    assertThatThrownBy(() -> builder(FLAT).partitionBy("p").indexBy("p").build())
        .isInstanceOf(KtkValidationException.class).hasMessageContaining("'p' is a partition column");
    assertThatThrownBy(() -> builder(FLAT).indexBy("id", "id").build())
        .isInstanceOf(KtkValidationException.class).hasMessageContaining("named twice");
    assertThatThrownBy(() -> builder(ROW).build())
        .isInstanceOf(KtkValidationException.class).hasMessageContaining("column 'tags'")
        .hasMessageContaining("MAP<STRING, STRING>");
    assertThatThrownBy(() -> builder(FLAT).memoryBudget(MemorySize.ZERO).build())
        .isInstanceOf(KtkValidationException.class).hasMessageContaining("memory budget must be positive");
    assertThatThrownBy(() -> builder(FLAT).verifyFilesOlderThan(Duration.ofSeconds(-1)).build())
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("files are verified before a commit must not be negative, not PT-1S");
  }

  private static KartothekSinkBuilder builder(RowType rowType) {
    return KartothekSink.forRowData(rowType).store("file:///tmp/x").dataset("d").partitionBy(List.of());
  }
}
