package io.ktk.flink.state.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.ktk.flink.state.KtkValidationException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class CubeValidationTest {
  static final CubeSpec CUBE = CubeSpec.of("weather", List.of("city", "sensor"), List.of("country"));

  static CubeValidation.CubeDataset dataset(String id, List<String> partitionKeys, Set<String> indices, Set<String> columns) {
    return dataset(CUBE, id, partitionKeys, indices, columns, CubeMetadataKeys.datasetMetadata(CUBE, id));
  }

  static CubeValidation.CubeDataset dataset(CubeSpec cube, String id, List<String> partitionKeys, Set<String> indices,
      Set<String> columns, Map<String, JsonNode> metadata) {
    Map<String, String> indexKeys = new TreeMap<>();
    indices.forEach(c -> indexKeys.put(c, cube.datasetUuid(id) + "/indices/" + c + "/t.by-dataset-index.parquet"));
    return new CubeValidation.CubeDataset(id,
        DatasetMetadata.of(cube.datasetUuid(id), partitionKeys, Map.of(), indexKeys, metadata), columns);
  }

  static CubeValidation.CubeDataset seed() {
    return dataset("seed", List.of("country"), Set.of("city", "sensor"), Set.of("country", "city", "sensor", "temp"));
  }

  static CubeValidation.CubeDataset enrich() {
    return dataset("enrich", List.of("country"), Set.of(), Set.of("country", "city", "population"));
  }

  @Test
  void aValidCubePasses() {
    assertThatCode(() -> CubeValidation.validate(CUBE, List.of(seed(), enrich()))).doesNotThrowAnyException();
  }

  @Test
  void kartothekWrittenCubeIsDiscoveredAndPasses() throws IOException {
    DatasetMetadata seed = DatasetMetadataJson.read(
        DatasetMetadataJsonTest.resource("kartothek-cube-seed.by-dataset-metadata.json"), "seed");
    DatasetMetadata enrich = DatasetMetadataJson.read(
        DatasetMetadataJsonTest.resource("kartothek-cube-enrich.by-dataset-metadata.json"), "enrich");
    CubeSpec cube = CubeValidation.discover("weather", Map.of("seed", seed, "enrich", enrich));
    assertThat(cube).isEqualTo(CUBE);
    assertThatCode(() -> CubeValidation.validate(cube, List.of(
            new CubeValidation.CubeDataset("seed", seed, Set.of("country", "city", "sensor", "temp")),
            new CubeValidation.CubeDataset("enrich", enrich, Set.of("country", "city", "rain")))))
        .doesNotThrowAnyException();
  }

  @Test
  void exactlyOneSeed() {
    Map<String, JsonNode> notSeed = new TreeMap<>(CubeMetadataKeys.datasetMetadata(CUBE, "other"));
    CubeValidation.CubeDataset unmarkedSeed =
        dataset(CUBE, "seed", List.of("country"), Set.of("city", "sensor"), Set.of("country", "city", "sensor"), notSeed);
    assertInvalid(List.of(unmarkedSeed, enrich()),
        "datasets marked as seed (ktk_cube_is_seed) are [], expected [seed] (rule: exactly one seed");
    Map<String, JsonNode> marked = new TreeMap<>(CubeMetadataKeys.datasetMetadata(CUBE, "seed"));
    CubeValidation.CubeDataset secondSeed =
        dataset(CUBE, "enrich", List.of("country"), Set.of(), Set.of("country", "city", "population"), marked);
    assertInvalid(List.of(seed(), secondSeed), "datasets marked as seed (ktk_cube_is_seed) are [enrich, seed]");

    assertThatThrownBy(() -> CubeValidation.discover("weather",
            Map.of("seed", seed().metadata(), "enrich", secondSeed.metadata())))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("Cannot read cube weather: datasets [enrich, seed] are all marked as seed");
    assertThatThrownBy(() -> CubeValidation.discover("weather", Map.of("enrich", enrich().metadata())))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("Cannot read cube weather: none of its datasets [enrich] is marked as seed");
  }

  @Test
  void payloadColumnsDoNotOverlapAcrossDatasets() {
    CubeValidation.CubeDataset clash =
        dataset("enrich", List.of("country"), Set.of(), Set.of("country", "city", "temp", "population"));
    assertInvalid(List.of(seed(), clash),
        "datasets enrich and seed both have payload columns [temp] (rule: a payload column belongs to one dataset)");
  }

  @Test
  void theSeedIsPartitionedByTheCubesPartitionColumnsInOrder() {
    CubeSpec cube = CubeSpec.of("weather", List.of("city", "sensor"), List.of("country", "day"));
    CubeValidation.CubeDataset seed = dataset(cube, "seed", List.of("day", "country"), Set.of("city", "sensor"),
        Set.of("country", "day", "city", "sensor", "temp"), CubeMetadataKeys.datasetMetadata(cube, "seed"));
    assertThatThrownBy(() -> CubeValidation.validate(cube, List.of(seed)))
        .isInstanceOf(KtkValidationException.class)
        .hasMessage("Cannot accept cube weather: seed dataset seed has partition keys [day, country], expected"
            + " [country, day] (rule: the seed is partitioned by the cube's partition columns, in order)");
  }

  @Test
  void anEnrichmentMayBePartitionedBySomeOfThePartitionColumnsInAnyOrderAsKartothekAllows() {
    CubeSpec cube = CubeSpec.of("weather", List.of("city", "sensor"), List.of("country", "day"));
    CubeValidation.CubeDataset seed = dataset(cube, "seed", List.of("country", "day"), Set.of("city", "sensor"),
        Set.of("country", "day", "city", "sensor", "temp"), CubeMetadataKeys.datasetMetadata(cube, "seed"));
    CubeValidation.CubeDataset byDay = dataset(cube, "daily", List.of("day"), Set.of(),
        Set.of("day", "city", "rain"), CubeMetadataKeys.datasetMetadata(cube, "daily"));
    CubeValidation.CubeDataset swapped = dataset(cube, "swapped", List.of("day", "country"), Set.of(),
        Set.of("day", "country", "city", "wind"), CubeMetadataKeys.datasetMetadata(cube, "swapped"));
    CubeValidation.CubeDataset unpartitioned = dataset(cube, "static", List.of(), Set.of(),
        Set.of("city", "population"), CubeMetadataKeys.datasetMetadata(cube, "static"));

    assertThatCode(() -> CubeValidation.validate(cube, List.of(seed, byDay, swapped, unpartitioned)))
        .doesNotThrowAnyException();
  }

  @Test
  void aPartitionColumnThatIsAPlainDataColumnIsRefusedAsKartothekRefusesIt() {
    CubeValidation.CubeDataset other = dataset("enrich", List.of(), Set.of(), Set.of("country", "city", "population"));
    assertInvalid(List.of(seed(), other), "dataset enrich holds partition columns [country] as data columns,"
        + " partitioned by [] (rule: a dataset that has a partition column of the cube is partitioned by it; it may"
        + " lack some of them)");
  }

  @Test
  void dimensionColumnsArePresent() {
    CubeValidation.CubeDataset seedWithoutSensor =
        dataset("seed", List.of("country"), Set.of("city", "sensor"), Set.of("country", "city", "temp"));
    assertInvalid(List.of(seedWithoutSensor, enrich()), "seed dataset seed lacks dimension columns [sensor]");
    CubeValidation.CubeDataset noDimension = dataset("enrich", List.of("country"), Set.of(), Set.of("country", "population"));
    assertInvalid(List.of(seed(), noDimension),
        "dataset enrich has none of the dimension columns [city, sensor] (rule: every dataset has at least one dimension column)");
  }

  @Test
  void seedHasAnIndexOnEachDimensionColumnNotSuppressed() {
    CubeValidation.CubeDataset seedWithoutIndex =
        dataset("seed", List.of("country"), Set.of("city"), Set.of("country", "city", "sensor", "temp"));
    assertInvalid(List.of(seedWithoutIndex, enrich()), "seed dataset seed has no index on dimension columns [sensor]");

    CubeSpec suppressed = new CubeSpec("weather", List.of("city", "sensor"), List.of("country"), "seed",
        new TreeSet<>(List.of("sensor")));
    CubeValidation.CubeDataset seed = dataset(suppressed, "seed", List.of("country"), Set.of("city"),
        Set.of("country", "city", "sensor", "temp"), CubeMetadataKeys.datasetMetadata(suppressed, "seed"));
    assertThatCode(() -> CubeValidation.validate(suppressed, List.of(seed))).doesNotThrowAnyException();
  }

  @Test
  void datasetsRecordTheSameCubeAndCarryTheirCubeUuid() {
    CubeSpec otherDims = CubeSpec.of("weather", List.of("city"), List.of("country"));
    CubeValidation.CubeDataset enrich = dataset(CUBE, "enrich", List.of("country"), Set.of(),
        Set.of("country", "city"), CubeMetadataKeys.datasetMetadata(otherDims, "enrich"));
    assertInvalid(List.of(seed(), enrich), "dataset enrich records ktk_cube_dimension_columns [city], expected [city, sensor]");

    CubeValidation.CubeDataset foreign = new CubeValidation.CubeDataset("enrich",
        DatasetMetadata.of("other++enrich", List.of("country"), Map.of(), Map.of(), Map.of()), Set.of("country", "city"));
    assertInvalid(List.of(seed(), foreign), "dataset enrich has uuid other++enrich, expected weather++enrich");
  }

  @Test
  void noDuplicateCellsWithinADataset() {
    List<List<?>> cells = new ArrayList<>();
    cells.add(List.of("DE", "Berlin", 1L));
    cells.add(List.of("DE", "Hamburg", 1L));
    cells.add(List.of("FR", "Berlin", 1L));
    CubeValidation.checkNoDuplicateCells(CUBE, "seed", cells);
    cells.add(List.of("DE", "Hamburg", 1L));
    assertThatThrownBy(() -> CubeValidation.checkNoDuplicateCells(CUBE, "seed", cells))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("Cannot accept dataset seed of cube weather: duplicate cell"
            + " (country='DE', city='Hamburg', sensor=1) (rule: the cell columns [country, city, sensor]");
  }

  @Test
  void noDuplicateCellKeysWithinADataset() {
    List<byte[]> keys = new ArrayList<>(List.of(new byte[] {1, 2}, new byte[] {1, 3}, new byte[] {1}));
    CubeValidation.checkNoDuplicateCellKeys(CUBE, "enrich", keys, k -> List.of("?"));
    keys.add(new byte[] {1, 3});
    assertThatThrownBy(() -> CubeValidation.checkNoDuplicateCellKeys(CUBE, "enrich", keys,
            k -> List.of("DE", "key" + k[1], 7L)))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("duplicate cell (country='DE', city='key3', sensor=7)");
  }

  @Test
  void cubeSpecFollowsKartothekRules() {
    assertSpecRefused(() -> CubeSpec.of("c", List.of(), List.of("p")), "Cannot define cube c: dimension columns must not be empty");
    assertSpecRefused(() -> CubeSpec.of("c", List.of("x"), List.of()), "partition columns must not be empty");
    assertSpecRefused(() -> CubeSpec.of("c", List.of("x", "x"), List.of("p")), "dimension columns [x, x] contain duplicates [x]");
    assertSpecRefused(() -> CubeSpec.of("c", List.of("x", "p"), List.of("p")), "share [p]");
    assertSpecRefused(() -> new CubeSpec("c", List.of("x"), List.of("p"), "seed", new TreeSet<>(List.of("y"))),
        "suppress_index_on must be a subset of the dimension columns [x], but has [y]");
    assertSpecRefused(() -> CubeSpec.of("c/d", List.of("x"), List.of("p")), "Cannot use cube name 'c/d'");
    assertThat(CUBE.cellColumns()).containsExactly("country", "city", "sensor");
    assertThat(CUBE.payloadColumns(List.of("country", "city", "temp"))).containsExactly("temp");
  }

  private static void assertSpecRefused(Runnable build, String reason) {
    assertThatThrownBy(build::run).isInstanceOf(KtkValidationException.class).hasMessageContaining(reason);
  }

  private static void assertInvalid(List<CubeValidation.CubeDataset> datasets, String reason) {
    assertThatThrownBy(() -> CubeValidation.validate(CUBE, datasets))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageStartingWith("Cannot accept cube weather: ")
        .hasMessageContaining(reason);
  }
}
