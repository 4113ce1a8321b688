package io.ktk.flink.sink.writer;

import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.CubeMetadataKeys;
import io.ktk.flink.state.metadata.CubeNames;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.annotation.Internal;

/**
 * What a cube sink and the cube in the store must agree on, checked when the job starts so that a
 * clash fails it at once (without restarts): every dataset of the cube that records the cube keys
 * records the sink's dimension and partition columns; exactly one dataset is the seed, the one the
 * sink names (written by this job or already in the store); no payload column of a dataset the job
 * writes is in another dataset of the cube; and each written dataset passes {@link
 * DatasetContract} (partition keys, schema, the seed's dimension indices).
 */
@Internal
public final class CubeContract {
  private CubeContract() {}

  /**
   * Checks the sink against the cube and returns the index columns in effect per written dataset.
   *
   * @param ids the ids of the datasets the job writes, in the order of {@code configs}
   * @param committed their committed states (version -1 when new), in the same order
   * @throws KtkValidationException naming the cube, the dataset and the rule
   */
  public static List<List<String>> check(CubeSpec cube, List<String> ids, List<KartothekSinkConfig> configs,
      ObjectStore store, List<DatasetState> committed) throws IOException {
    Map<String, DatasetState> all = new TreeMap<>();
    for (String uuid : DatasetKeys.discoverDatasetUuids(store, CubeNames.uuidPrefix(cube.name()))) {
      Optional<String> id = CubeNames.datasetId(cube.name(), uuid);
      if (id.isPresent() && !ids.contains(id.get())) {
        all.put(id.get(), new LogReader(store, uuid).latestOrPublished());
      }
    }
    for (int d = 0; d < ids.size(); d++) {
      if (committed.get(d).exists()) {
        all.put(ids.get(d), committed.get(d));
      }
    }
    List<String> seeds = new ArrayList<>();
    for (Map.Entry<String, DatasetState> dataset : all.entrySet()) {
      DatasetMetadata metadata = DatasetMetadata.of(dataset.getValue().uuid(), dataset.getValue().partitionKeys(),
          Map.of(), Map.of(), dataset.getValue().metadata());
      checkRecorded(cube, dataset.getKey(), metadata, CubeMetadataKeys.DIMENSION_COLUMNS, cube.dimensionColumns());
      checkRecorded(cube, dataset.getKey(), metadata, CubeMetadataKeys.PARTITION_COLUMNS, cube.partitionColumns());
      if (CubeMetadataKeys.isSeed(metadata)) {
        seeds.add(dataset.getKey());
      }
    }
    if (ids.contains(cube.seedDatasetId()) && !seeds.contains(cube.seedDatasetId())) {
      seeds.add(cube.seedDatasetId());
    }
    if (!seeds.equals(List.of(cube.seedDatasetId()))) {
      throw fail(cube, "the seed would be " + new TreeSet<>(seeds) + " but the sink names " + cube.seedDatasetId()
          + (seeds.isEmpty() ? " and neither writes it nor finds it in " + store.url() : "")
          + " (rule: exactly one seed)");
    }
    for (int d = 0; d < ids.size(); d++) {
      NavigableSet<String> payload = cube.payloadColumns(configs.get(d).rowType().getFieldNames());
      for (Map.Entry<String, DatasetState> other : all.entrySet()) {
        if (other.getKey().equals(ids.get(d)) || other.getValue().schema() == null) {
          continue;
        }
        NavigableSet<String> shared = new TreeSet<>(payload);
        shared.retainAll(other.getValue().schema().getFields().stream().map(Field::getName).toList());
        if (!shared.isEmpty()) {
          throw fail(cube, "dataset " + ids.get(d) + " has payload columns " + shared + " that dataset "
              + other.getKey() + " has already (rule: a payload column belongs to one dataset)");
        }
      }
    }
    List<List<String>> indexColumns = new ArrayList<>();
    for (int d = 0; d < ids.size(); d++) {
      indexColumns.add(DatasetContract.check(configs.get(d), committed.get(d)));
    }
    return indexColumns;
  }

  private static void checkRecorded(CubeSpec cube, String id, DatasetMetadata metadata, String key,
      List<String> expected) {
    Optional<List<String>> recorded = CubeMetadataKeys.columns(metadata, key);
    if (recorded.isPresent() && !recorded.get().equals(expected)) {
      throw fail(cube, "dataset " + id + " records " + key + " " + recorded.get() + " but the sink declares "
          + expected + " (rule: all datasets record the same cube)");
    }
  }

  private static KtkValidationException fail(CubeSpec cube, String reason) {
    return new KtkValidationException("Cannot write cube '" + cube.name() + "': " + reason);
  }
}
