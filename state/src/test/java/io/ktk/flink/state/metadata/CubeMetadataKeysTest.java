package io.ktk.flink.state.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class CubeMetadataKeysTest {
  static final CubeSpec WEATHER = CubeSpec.of("weather", List.of("city", "sensor"), List.of("country"));

  @Test
  void writesTheSameKeysAndValuesAsKartothek() throws IOException {
    DatasetMetadata seed = DatasetMetadataJson.read(
        DatasetMetadataJsonTest.resource("kartothek-cube-seed.by-dataset-metadata.json"), "seed");
    DatasetMetadata enrich = DatasetMetadataJson.read(
        DatasetMetadataJsonTest.resource("kartothek-cube-enrich.by-dataset-metadata.json"), "enrich");
    assertThat(CubeMetadataKeys.datasetMetadata(WEATHER, "seed")).isEqualTo(withoutCreationTime(seed));
    assertThat(CubeMetadataKeys.datasetMetadata(WEATHER, "enrich")).isEqualTo(withoutCreationTime(enrich));
    assertThat(CubeMetadataKeys.isSeed(enrich)).isFalse();
  }

  @Test
  void keyNamesAreKartotheks() {
    assertThat(List.of(CubeMetadataKeys.DIMENSION_COLUMNS, CubeMetadataKeys.PARTITION_COLUMNS,
            CubeMetadataKeys.IS_SEED, CubeMetadataKeys.SUPPRESS_INDEX_ON))
        .containsExactly("ktk_cube_dimension_columns", "ktk_cube_partition_columns", "ktk_cube_is_seed",
            "ktk_cube_suppress_index_on");
  }

  @Test
  void specRoundTripsThroughTheSeedsMetadata() {
    CubeSpec spec = new CubeSpec("c", List.of("y", "x"), List.of("p", "q"), "main", new TreeSet<>(List.of("y")));
    DatasetMetadata seed = DatasetMetadata.of(spec.seedDatasetUuid(), spec.partitionColumns(), Map.of(), Map.of(),
        CubeMetadataKeys.datasetMetadata(spec, "main"));
    assertThat(CubeMetadataKeys.readSpec(seed)).isEqualTo(spec);
    assertThat(seed.metadata().get(CubeMetadataKeys.SUPPRESS_INDEX_ON).toString()).isEqualTo("[\"y\"]");
  }

  @Test
  void missingSuppressIndexOnMeansNoneAsInKartothek() {
    NavigableMap<String, JsonNode> metadata = new TreeMap<>(CubeMetadataKeys.datasetMetadata(WEATHER, "seed"));
    metadata.remove(CubeMetadataKeys.SUPPRESS_INDEX_ON);
    DatasetMetadata seed = DatasetMetadata.of("weather++seed", List.of("country"), Map.of(), Map.of(), metadata);
    assertThat(CubeMetadataKeys.readSpec(seed)).isEqualTo(WEATHER);
  }

  @Test
  void badCubeValuesAreCorrupt() {
    assertCorrupt(Map.of(CubeMetadataKeys.IS_SEED, "\"yes\"", CubeMetadataKeys.DIMENSION_COLUMNS, "[\"x\"]",
        CubeMetadataKeys.PARTITION_COLUMNS, "[\"p\"]"), "ktk_cube_is_seed is \"yes\", expected true or false", true);
    assertCorrupt(Map.of(CubeMetadataKeys.PARTITION_COLUMNS, "[\"p\"]"), "ktk_cube_dimension_columns is missing", false);
    assertCorrupt(Map.of(CubeMetadataKeys.DIMENSION_COLUMNS, "[\"x\"]"),
        "ktk_cube_partition_columns is missing (cubes written before Kartothek recorded it are not supported)", false);
    assertCorrupt(Map.of(CubeMetadataKeys.DIMENSION_COLUMNS, "\"x\"", CubeMetadataKeys.PARTITION_COLUMNS, "[\"p\"]"),
        "ktk_cube_dimension_columns is \"x\", expected a list of column names", false);
    assertCorrupt(Map.of(CubeMetadataKeys.DIMENSION_COLUMNS, "[1]", CubeMetadataKeys.PARTITION_COLUMNS, "[\"p\"]"),
        "ktk_cube_dimension_columns is [1], expected a list of column names", false);
  }

  @Test
  void recordedCubesThatBreakCubeRulesAreRefused() {
    DatasetMetadata seed = seedWith(Map.of(CubeMetadataKeys.DIMENSION_COLUMNS, "[\"x\",\"p\"]",
        CubeMetadataKeys.PARTITION_COLUMNS, "[\"p\"]"));
    assertThatThrownBy(() -> CubeMetadataKeys.readSpec(seed))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("Cannot define cube c: partition columns cannot share columns with dimension columns, but share [p]");
  }

  private static DatasetMetadata seedWith(Map<String, String> entries) {
    NavigableMap<String, JsonNode> metadata = new TreeMap<>();
    entries.forEach((k, v) -> metadata.put(k, DatasetMetadataJson.json(v)));
    return DatasetMetadata.of("c++seed", List.of("p"), Map.of(), Map.of(), metadata);
  }

  private static void assertCorrupt(Map<String, String> entries, String reason, boolean viaIsSeed) {
    DatasetMetadata seed = seedWith(entries);
    assertThatThrownBy(() -> {
          if (viaIsSeed) {
            CubeMetadataKeys.isSeed(seed);
          } else {
            CubeMetadataKeys.readSpec(seed);
          }
        })
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("Cannot read the cube metadata of dataset c++seed: " + reason);
  }

  private static NavigableMap<String, JsonNode> withoutCreationTime(DatasetMetadata dataset) {
    NavigableMap<String, JsonNode> metadata = new TreeMap<>(dataset.metadata());
    metadata.remove("creation_time");
    return metadata;
  }
}
