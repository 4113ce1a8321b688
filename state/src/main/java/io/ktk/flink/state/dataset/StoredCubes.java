package io.ktk.flink.state.dataset;

import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.CubeMetadataKeys;
import io.ktk.flink.state.metadata.CubeNames;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.metadata.CubeValidation;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.annotation.Internal;

/**
 * The cubes a store holds, as their datasets' latest metadata records them: for writers that
 * take a cube's columns from the store when they are not given, and for catalogs that list cubes.
 */
@Internal
public final class StoredCubes {
  private StoredCubes() {}

  /** The names of the cubes of which the store holds a seed, in order. */
  public static NavigableSet<String> names(ObjectStore store) throws IOException {
    NavigableSet<String> names = new TreeSet<>();
    for (String uuid : DatasetKeys.discoverDatasetUuids(store)) {
      if (uuid.contains(CubeNames.SEPARATOR) && CubeNames.isValidName(uuid.substring(0, uuid.indexOf(
          CubeNames.SEPARATOR)))) {
        String cube = uuid.substring(0, uuid.indexOf(CubeNames.SEPARATOR));
        if (!names.contains(cube) && spec(store, cube).isPresent()) {
          names.add(cube);
        }
      }
    }
    return names;
  }

  /**
   * The cube as its seed records it, or empty when the store holds no dataset of it or none marked
   * as seed.
   *
   * @throws io.ktk.flink.state.KtkValidationException when several datasets are marked as seed
   */
  public static Optional<CubeSpec> spec(ObjectStore store, String cube) throws IOException {
    NavigableMap<String, DatasetMetadata> metadata = new TreeMap<>();
    for (String uuid : DatasetKeys.discoverDatasetUuids(store, CubeNames.uuidPrefix(cube))) {
      Optional<String> id = CubeNames.datasetId(cube, uuid);
      if (id.isEmpty()) {
        continue;
      }
      DatasetState state = new LogReader(store, uuid).latestOrPublished();
      if (state.exists()) {
        DatasetSnapshot snapshot = DatasetSnapshot.of(store, state);
        metadata.put(id.get(), DatasetMetadata.of(uuid, snapshot.partitionKeys().stream().map(Field::getName)
            .toList(), Map.of(), Map.of(), snapshot.metadata()));
      }
    }
    if (metadata.values().stream().noneMatch(CubeMetadataKeys::isSeed)) {
      return Optional.empty();
    }
    return Optional.of(CubeValidation.discover(cube, metadata));
  }
}
