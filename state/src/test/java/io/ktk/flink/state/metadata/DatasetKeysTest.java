package io.ktk.flink.state.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.CountingObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetKeysTest {
  @TempDir Path dir;

  @Test
  void keysFollowThePlateauLayout() {
    assertThat(DatasetKeys.metadataJsonKey("ds")).isEqualTo("ds.by-dataset-metadata.json");
    assertThat(DatasetKeys.metadataMsgpackKey("ds")).isEqualTo("ds.by-dataset-metadata.msgpack.zstd");
    assertThat(DatasetKeys.commonMetadataKey("ds")).isEqualTo("ds/table/_common_metadata");
    assertThat(DatasetKeys.logPrefix("ds")).isEqualTo("ds/_ktk_log/");
    assertThat(DatasetKeys.logEntryKey("ds", 42)).isEqualTo("ds/_ktk_log/00000000000000000042.json");
    assertThat(DatasetKeys.logEntryKey("ds", Long.MAX_VALUE)).isEqualTo("ds/_ktk_log/09223372036854775807.json");
    assertThat(DatasetKeys.logVersion("ds", "ds/_ktk_log/00000000000000000042.json")).isEqualTo(OptionalLong.of(42));
    assertThat(DatasetKeys.logVersion("ds", "ds/_ktk_log/42.json")).isEmpty();
    assertThat(DatasetKeys.logVersion("ds", "other/_ktk_log/00000000000000000042.json")).isEmpty();
  }

  @Test
  void indexFileNamesCarryTheCreationTimeAsPlateauFormatsIt() {
    assertThat(DatasetKeys.indexFileKey("ds", "x", Instant.parse("2021-03-04T05:06:07.012345678Z")))
        .isEqualTo("ds/indices/x/2021-03-04T05%3A06%3A07.012345.by-dataset-index.parquet");
    assertThat(DatasetKeys.indexFileKey("ds", "a b", Instant.parse("2021-03-04T05:06:07Z")))
        .as("isoformat() omits a zero fraction")
        .isEqualTo("ds/indices/a%20b/2021-03-04T05%3A06%3A07.by-dataset-index.parquet");
  }

  @Test
  void invalidUuidsAreRefused() {
    assertThatThrownBy(() -> DatasetKeys.metadataJsonKey("a/b")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a/b");
    assertThatThrownBy(() -> DatasetKeys.metadataJsonKey("")).isInstanceOf(IllegalArgumentException.class);
    assertThat(DatasetKeys.isValidUuid("cube++seed")).isTrue();
    assertThat(DatasetKeys.isValidUuid("a.b")).isFalse();
  }

  @Test
  void discoversDatasetsFromRootMetadataKeysWithoutReadingTheirFiles() throws IOException {
    try (LocalObjectStore local = new LocalObjectStore(dir)) {
      for (String key : new String[] {
          "a.by-dataset-metadata.json", "a/table/p=1/x.parquet", "a/table/p=2/y.parquet", "a/_ktk_log/1.json",
          "b.by-dataset-metadata.msgpack.zstd", "b/table/_common_metadata",
          "cube++seed.by-dataset-metadata.json", "cube++seed/table/x.parquet",
          "cube++enrich.by-dataset-metadata.json", "cube++enrich/indices/x/t.by-dataset-index.parquet",
          "cube2++seed.by-dataset-metadata.json", "notes.txt", "nested/c.by-dataset-metadata.json",
          "bad.name.by-dataset-metadata.json"}) {
        local.put(key, new byte[] {1});
      }
      for (int i = 0; i < 50; i++) {
        local.put("a/table/p=" + i + "/f.parquet", new byte[] {1});
      }
      CountingObjectStore store = new CountingObjectStore(local);
      assertThat(DatasetKeys.discoverDatasetUuids(store))
          .containsExactly("a", "b", "cube++enrich", "cube++seed", "cube2++seed");
      assertThat(store.listed).as("keys below <uuid>/ are skipped after the first one").isLessThanOrEqualTo(12);
      assertThat(DatasetKeys.discoverDatasetUuids(local, "cube++")).containsExactly("cube++enrich", "cube++seed");
    }
  }
}
