package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.ktk.flink.state.CorruptDatasetException;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The keys Kartothek 5.3 ({@code kartothek/core/cube/constants.py}, written by
 * {@code prepare_ktk_metadata} in {@code kartothek/io_components/cube/write.py}) stores in the
 * {@code metadata} of every dataset of a cube:
 *
 * <pre>{@code
 * "ktk_cube_dimension_columns": ["x", "y"],   dimension columns, cube order
 * "ktk_cube_is_seed": true,                   true only in the seed dataset
 * "ktk_cube_partition_columns": ["p"],        partition columns, cube order
 * "ktk_cube_suppress_index_on": ["y"]         dimension columns without a seed index (a set; written sorted)
 * }</pre>
 *
 * <p>Kartothek reads the cube back from the seed ({@code discover_cube} in
 * {@code kartothek/api/discover.py}); a missing {@code ktk_cube_suppress_index_on} means none. Cubes
 * from before Kartothek wrote {@code ktk_cube_partition_columns} (the {@code klee_*} keys) are not supported.
 */
public final class CubeMetadataKeys {
  public static final String DIMENSION_COLUMNS = "ktk_cube_dimension_columns";
  public static final String PARTITION_COLUMNS = "ktk_cube_partition_columns";
  public static final String IS_SEED = "ktk_cube_is_seed";
  public static final String SUPPRESS_INDEX_ON = "ktk_cube_suppress_index_on";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private CubeMetadataKeys() {}

  /** The four cube entries of the metadata of dataset {@code datasetId} of the cube. */
  public static NavigableMap<String, JsonNode> datasetMetadata(CubeSpec cube, String datasetId) {
    requireNonNull(cube, "cube is null");
    CubeNames.checkName("dataset id", datasetId);
    NavigableMap<String, JsonNode> metadata = new TreeMap<>();
    metadata.put(DIMENSION_COLUMNS, stringArray(cube.dimensionColumns()));
    metadata.put(IS_SEED, NODES.booleanNode(datasetId.equals(cube.seedDatasetId())));
    metadata.put(PARTITION_COLUMNS, stringArray(cube.partitionColumns()));
    metadata.put(SUPPRESS_INDEX_ON, stringArray(new ArrayList<>(cube.suppressIndexOn())));
    return metadata;
  }

  /**
   * Whether the dataset is marked as seed; false when the key is absent.
   *
   * @throws CorruptDatasetException when the value is not a boolean
   */
  public static boolean isSeed(DatasetMetadata dataset) {
    JsonNode node = dataset.metadata().get(IS_SEED);
    if (node == null || node.isNull()) {
      return false;
    }
    if (!node.isBoolean()) {
      throw corrupt(dataset, IS_SEED + " is " + node + ", expected true or false");
    }
    return node.booleanValue();
  }

  /** A list-valued cube key of a dataset's metadata, empty when absent. */
  public static Optional<List<String>> columns(DatasetMetadata dataset, String key) {
    JsonNode node = dataset.metadata().get(key);
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    if (!node.isArray()) {
      throw corrupt(dataset, key + " is " + node + ", expected a list of column names");
    }
    List<String> columns = new ArrayList<>();
    for (JsonNode element : node) {
      if (!element.isTextual()) {
        throw corrupt(dataset, key + " is " + node + ", expected a list of column names");
      }
      columns.add(element.textValue());
    }
    return Optional.of(List.copyOf(columns));
  }

  /**
   * The cube as its seed dataset records it.
   *
   * @throws CorruptDatasetException when the seed lacks dimension or partition columns or holds values
   *     of the wrong type
   * @throws io.ktk.flink.state.KtkValidationException when the recorded cube breaks a cube rule
   */
  public static CubeSpec readSpec(DatasetMetadata seed) {
    requireNonNull(seed, "seed is null");
    CubeNames.DatasetName name = CubeNames.parse(seed.uuid());
    List<String> dimensions = columns(seed, DIMENSION_COLUMNS)
        .orElseThrow(() -> corrupt(seed, DIMENSION_COLUMNS + " is missing"));
    List<String> partitions = columns(seed, PARTITION_COLUMNS)
        .orElseThrow(() -> corrupt(seed, PARTITION_COLUMNS + " is missing (cubes written before Kartothek recorded"
            + " it are not supported)"));
    List<String> suppressed = columns(seed, SUPPRESS_INDEX_ON).orElse(List.of());
    return new CubeSpec(name.cube(), dimensions, partitions, name.datasetId(), new TreeSet<>(suppressed));
  }

  private static ArrayNode stringArray(List<String> values) {
    ArrayNode array = NODES.arrayNode();
    values.forEach(array::add);
    return array;
  }

  private static CorruptDatasetException corrupt(DatasetMetadata dataset, String reason) {
    return new CorruptDatasetException("Cannot read the cube metadata of dataset " + dataset.uuid() + ": " + reason);
  }
}
