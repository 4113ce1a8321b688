package io.ktk.flink.source.planner;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.QueryTarget;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.dataset.Partition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * A plain dataset (not a cube) at a pinned version, as a query target: a cube of this one dataset,
 * its seed, with nothing to join. Its cells are its rows when it has no primary key (every row
 * counts, none is merged), or its keys when it has one ({@code ktk_primary_key}: the last-written
 * row per key counts, a delete removes the key); see {@link RowMerge} and {@link
 * PlainDatasetChecker}. Its dataset id is its uuid.
 *
 * @param dataset the pinned version
 */
public record PlainDatasetSnapshot(DatasetSnapshot dataset) implements TargetSnapshot {
  public PlainDatasetSnapshot {
    requireNonNull(dataset, "dataset is null");
  }

  /** The latest version of dataset {@code uuid}. */
  public static PlainDatasetSnapshot latest(ObjectStore store, String uuid) throws IOException {
    return new PlainDatasetSnapshot(DatasetSnapshot.latest(store, uuid));
  }

  /** Version {@code version} of dataset {@code uuid}. */
  public static PlainDatasetSnapshot at(ObjectStore store, String uuid, long version) throws IOException {
    return new PlainDatasetSnapshot(DatasetSnapshot.at(store, uuid, version));
  }

  /** The version {@code versions} gives dataset {@code uuid} (its only entry). */
  static PlainDatasetSnapshot at(ObjectStore store, String uuid, Map<String, Long> versions) throws IOException {
    Long version = versions.get(uuid);
    if (version == null || versions.size() != 1) {
      throw new IllegalArgumentException("Cannot pin dataset '" + uuid + "' at versions " + versions
          + ": expected exactly one version, of the dataset itself");
    }
    return at(store, uuid, version);
  }

  /** The dataset's partitions in the order of their typed values (then by path): the order a plan reads them in. */
  public List<Partition> partitionsInOrder() {
    List<Partition> sorted = new ArrayList<>(dataset.partitions());
    Comparator<List<Object>> values = ValuesOrder.of(dataset.partitionKeys());
    sorted.sort(Comparator.comparing(Partition::values, values).thenComparing(Partition::path));
    return sorted;
  }

  @Override
  public QueryTarget target() {
    return QueryTarget.dataset(dataset.uuid());
  }

  @Override
  public NavigableMap<String, Long> versions() {
    return new TreeMap<>(Map.of(dataset.uuid(), dataset.version()));
  }

  @Override
  public String seedDatasetId() {
    return dataset.uuid();
  }

  @Override
  public DatasetSnapshot seed() {
    return dataset;
  }

  @Override
  public PlainDatasetSnapshot withSeedAt(ObjectStore store, long seedVersion) throws IOException {
    return at(store, dataset.uuid(), seedVersion);
  }

  @Override
  public ResolvedQuery resolve(CubeQuery query) {
    return PlainDatasetChecker.check(dataset, query);
  }

  @Override
  public QueryPlan plan(CubeQuery query) {
    return CubePlanner.plan(resolve(query), Map.of(dataset.uuid(), dataset));
  }
}
