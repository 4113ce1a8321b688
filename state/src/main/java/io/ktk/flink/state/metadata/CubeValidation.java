package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.KtkValidationException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The rules a cube's datasets obey together, as Kartothek 5.3 checks them ({@code check_datasets} in
 * {@code kartothek/api/consistency.py}, {@code discover_cube} in {@code kartothek/api/discover.py}):
 *
 * <ol>
 *   <li>every dataset's uuid is {@code <cube>++<dataset id>};
 *   <li>exactly one dataset is marked {@code ktk_cube_is_seed}, and it is the cube's seed;
 *   <li>cube keys a dataset records ({@code ktk_cube_dimension_columns}, {@code ktk_cube_partition_columns})
 *       equal the cube's;
 *   <li>the seed's partition keys are the cube's partition columns, in order; any other dataset may be
 *       partitioned by some of them only, in any order (and by further columns), as Kartothek allows,
 *       but a cube partition column that it holds is one of its partition keys, never a plain data
 *       column;
 *   <li>the seed has every dimension column, every other dataset at least one;
 *   <li>payload columns (neither dimension nor partition columns) belong to one dataset only;
 *   <li>the seed has an index on each dimension column not in {@code ktk_cube_suppress_index_on};
 *   <li>no cell (partition and dimension columns) occurs twice within a dataset: see {@link
 *       DuplicateCellDetector}, which checks rows as they stream by.
 * </ol>
 *
 * <p>Every violation throws a {@link KtkValidationException} naming the cube, the dataset(s), the columns
 * and the rule. Datasets are checked in the order of their ids, so the first error is deterministic.
 */
public final class CubeValidation {

  /**
   * One dataset of a cube as the checks see it.
   *
   * @param datasetId the id after {@code <cube>++}
   * @param metadata its published metadata
   * @param columns all its columns, partition keys included (from {@code _common_metadata})
   */
  public record CubeDataset(String datasetId, DatasetMetadata metadata, Set<String> columns) {
    public CubeDataset {
      CubeNames.checkName("dataset id", datasetId);
      requireNonNull(metadata, "metadata is null");
      columns = Set.copyOf(requireNonNull(columns, "columns is null"));
    }
  }

  private CubeValidation() {}

  /**
   * Finds the cube the datasets form: the one dataset marked as seed records the cube.
   *
   * @param datasetsById the cube's datasets by dataset id
   * @throws KtkValidationException when no or more than one dataset is marked as seed
   */
  public static CubeSpec discover(String cube, Map<String, DatasetMetadata> datasetsById) {
    CubeNames.checkName("cube name", cube);
    List<String> seeds = seeds(datasetsById);
    if (seeds.isEmpty()) {
      throw new KtkValidationException("Cannot read cube " + cube + ": none of its datasets " + new TreeSet<>(
          datasetsById.keySet()) + " is marked as seed (" + CubeMetadataKeys.IS_SEED + "); rule: exactly one seed");
    }
    if (seeds.size() > 1) {
      throw new KtkValidationException("Cannot read cube " + cube + ": datasets " + seeds + " are all marked as seed ("
          + CubeMetadataKeys.IS_SEED + "); rule: exactly one seed");
    }
    CubeSpec spec = CubeMetadataKeys.readSpec(datasetsById.get(seeds.get(0)));
    if (!spec.name().equals(cube)) {
      throw new KtkValidationException("Cannot read cube " + cube + ": its seed " + datasetsById.get(seeds.get(0)).uuid()
          + " belongs to cube " + spec.name());
    }
    return spec;
  }

  /**
   * Checks rules 1 to 7 over all datasets of the cube.
   *
   * @throws KtkValidationException for the first broken rule
   */
  public static void validate(CubeSpec cube, Collection<CubeDataset> datasets) {
    requireNonNull(cube, "cube is null");
    requireNonNull(datasets, "datasets is null");
    NavigableMap<String, CubeDataset> byId = new TreeMap<>();
    for (CubeDataset dataset : datasets) {
      if (byId.put(dataset.datasetId(), dataset) != null) {
        throw fail(cube, "dataset " + dataset.datasetId() + " is given twice");
      }
    }
    for (CubeDataset dataset : byId.values()) {
      String expected = cube.datasetUuid(dataset.datasetId());
      if (!dataset.metadata().uuid().equals(expected)) {
        throw fail(cube, "dataset " + dataset.datasetId() + " has uuid " + dataset.metadata().uuid() + ", expected "
            + expected + " (rule: dataset uuids are <cube>++<dataset id>)");
      }
    }

    Map<String, DatasetMetadata> metadataById = new TreeMap<>();
    byId.forEach((id, dataset) -> metadataById.put(id, dataset.metadata()));
    List<String> seeds = seeds(metadataById);
    if (!seeds.equals(List.of(cube.seedDatasetId()))) {
      throw fail(cube, "datasets marked as seed (" + CubeMetadataKeys.IS_SEED + ") are " + seeds + ", expected ["
          + cube.seedDatasetId() + "] (rule: exactly one seed, the cube's seed dataset)");
    }

    for (CubeDataset dataset : byId.values()) {
      checkRecordedColumns(cube, dataset, CubeMetadataKeys.DIMENSION_COLUMNS, cube.dimensionColumns());
      checkRecordedColumns(cube, dataset, CubeMetadataKeys.PARTITION_COLUMNS, cube.partitionColumns());
      checkPartitionKeys(cube, dataset);
      checkDimensionColumns(cube, dataset);
    }

    checkPayloadOverlap(cube, byId);

    CubeDataset seed = byId.get(cube.seedDatasetId());
    NavigableSet<String> missing = new TreeSet<>(cube.indexedDimensionColumns());
    missing.removeAll(seed.metadata().indices().keySet());
    if (!missing.isEmpty()) {
      throw fail(cube, "seed dataset " + seed.datasetId() + " has no index on dimension columns " + missing
          + " (rule: the seed has an index on each dimension column not in " + CubeMetadataKeys.SUPPRESS_INDEX_ON
          + " " + cube.suppressIndexOn() + ")");
    }
  }

  /** Checks a stream of cells (values of {@link CubeSpec#cellColumns()}) of one dataset (rule 8). */
  public static void checkNoDuplicateCells(CubeSpec cube, String datasetId, Iterable<? extends List<?>> cells) {
    DuplicateCellDetector detector = new DuplicateCellDetector(cube.name(), datasetId, cube.cellColumns());
    for (List<?> cell : cells) {
      detector.add(cell);
    }
  }

  /** Checks a stream of cell keys of one dataset (rule 8); {@code decode} turns a key into values for the message. */
  public static void checkNoDuplicateCellKeys(
      CubeSpec cube, String datasetId, Iterable<byte[]> keys, Function<byte[], List<?>> decode) {
    DuplicateCellDetector detector = new DuplicateCellDetector(cube.name(), datasetId, cube.cellColumns());
    for (byte[] key : keys) {
      detector.addKey(key, decode);
    }
  }

  private static List<String> seeds(Map<String, DatasetMetadata> datasetsById) {
    List<String> seeds = new ArrayList<>();
    new TreeMap<>(datasetsById).forEach((id, metadata) -> {
      if (CubeMetadataKeys.isSeed(metadata)) {
        seeds.add(id);
      }
    });
    return seeds;
  }

  private static void checkRecordedColumns(CubeSpec cube, CubeDataset dataset, String key, List<String> expected) {
    Optional<List<String>> recorded = CubeMetadataKeys.columns(dataset.metadata(), key);
    if (recorded.isPresent() && !recorded.get().equals(expected)) {
      throw fail(cube, "dataset " + dataset.datasetId() + " records " + key + " " + recorded.get() + ", expected "
          + expected + " (rule: all datasets record the same cube)");
    }
  }

  private static void checkPartitionKeys(CubeSpec cube, CubeDataset dataset) {
    List<String> keys = dataset.metadata().partitionKeys();
    if (dataset.datasetId().equals(cube.seedDatasetId())) {
      if (!keys.equals(cube.partitionColumns())) {
        throw fail(cube, "seed dataset " + dataset.datasetId() + " has partition keys " + keys + ", expected "
            + cube.partitionColumns() + " (rule: the seed is partitioned by the cube's partition columns, in order)");
      }
      return;
    }
    NavigableSet<String> plain = new TreeSet<>(cube.partitionColumns());
    plain.retainAll(dataset.columns());
    keys.forEach(plain::remove);
    if (!plain.isEmpty()) {
      throw fail(cube, "dataset " + dataset.datasetId() + " holds partition columns " + plain + " as data columns,"
          + " partitioned by " + keys + " (rule: a dataset that has a partition column of the cube is partitioned"
          + " by it; it may lack some of them)");
    }
  }

  private static void checkDimensionColumns(CubeSpec cube, CubeDataset dataset) {
    if (dataset.datasetId().equals(cube.seedDatasetId())) {
      NavigableSet<String> missing = new TreeSet<>(cube.dimensionColumns());
      missing.removeAll(dataset.columns());
      if (!missing.isEmpty()) {
        throw fail(cube, "seed dataset " + dataset.datasetId() + " lacks dimension columns " + missing
            + " (rule: the seed has every dimension column)");
      }
    } else if (cube.dimensionColumns().stream().noneMatch(dataset.columns()::contains)) {
      throw fail(cube, "dataset " + dataset.datasetId() + " has none of the dimension columns "
          + cube.dimensionColumns() + " (rule: every dataset has at least one dimension column)");
    }
  }

  private static void checkPayloadOverlap(CubeSpec cube, NavigableMap<String, CubeDataset> byId) {
    List<CubeDataset> list = new ArrayList<>(byId.values());
    for (int i = 0; i < list.size(); i++) {
      NavigableSet<String> payload = cube.payloadColumns(list.get(i).columns());
      for (int j = i + 1; j < list.size(); j++) {
        NavigableSet<String> shared = new TreeSet<>(payload);
        shared.retainAll(list.get(j).columns());
        if (!shared.isEmpty()) {
          throw fail(cube, "datasets " + list.get(i).datasetId() + " and " + list.get(j).datasetId()
              + " both have payload columns " + shared + " (rule: a payload column belongs to one dataset)");
        }
      }
    }
  }

  private static KtkValidationException fail(CubeSpec cube, String reason) {
    return new KtkValidationException("Cannot accept cube " + cube.name() + ": " + reason);
  }
}
