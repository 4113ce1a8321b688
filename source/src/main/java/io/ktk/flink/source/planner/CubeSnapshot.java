package io.ktk.flink.source.planner;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.QueryTarget;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.CubeVersions;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.NoSuchDatasetException;
import io.ktk.flink.state.metadata.CubeNames;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.metadata.CubeValidation;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.annotation.Internal;

/**
 * A cube at pinned versions: its spec (as its seed records it) and one snapshot per dataset.
 * Queries planned from it see exactly these versions, whatever is committed meanwhile.
 *
 * @param spec the cube
 * @param datasets the snapshot of each dataset, by dataset id
 */
@Internal
public record CubeSnapshot(CubeSpec spec, NavigableMap<String, DatasetSnapshot> datasets) implements TargetSnapshot {
  public CubeSnapshot {
    requireNonNull(spec, "spec is null");
    datasets = Collections.unmodifiableNavigableMap(new TreeMap<>(datasets));
  }

  /**
   * The latest versions of the datasets of cube {@code cube} in {@code store} that a reader may see
   * together (datasets found by their published metadata, {@code <cube>++<id>.by-dataset-metadata.*}):
   * a dataset's versions that belong to a cube transaction not yet recorded in the cube's log are
   * left out, so a checkpoint that a job wrote to several datasets is seen in all of them or in none
   * ({@link CubeVersions}).
   *
   * @throws NoSuchDatasetException when the store holds no dataset of the cube
   * @throws KtkValidationException when the datasets do not mark exactly one seed
   */
  public static CubeSnapshot latest(ObjectStore store, String cube) throws IOException {
    requireNonNull(store, "store is null");
    NavigableMap<String, DatasetSnapshot> datasets = new TreeMap<>();
    CubeVersions.latest(store, cube, datasetIds(store, cube)).forEach((id, state) -> datasets.put(id, DatasetSnapshot.of(store, state)));
    return of(cube, datasets);
  }

  /**
   * The versions of the datasets of cube {@code cube} that {@link #latest} would have pinned at
   * {@code time} (time travel): per dataset the highest version committed at or before it, below
   * any cube transaction not yet recorded in the cube log by then ({@link CubeVersions#asOf}). A
   * dataset that had no version by then is not part of the cube as of then.
   *
   * @throws NoSuchDatasetException when no dataset of the cube had a version by then
   * @throws io.ktk.flink.state.commit.VersionExpiredException when a dataset's version of that time
   *     expired
   */
  public static CubeSnapshot asOf(ObjectStore store, String cube, Instant time) throws IOException {
    requireNonNull(store, "store is null");
    NavigableMap<String, DatasetSnapshot> datasets = new TreeMap<>();
    CubeVersions.asOf(store, cube, datasetIds(store, cube), time)
        .forEach((id, state) -> datasets.put(id, DatasetSnapshot.of(store, state)));
    if (datasets.isEmpty()) {
      throw new NoSuchDatasetException("Cannot read cube '" + cube + "' in " + store.url() + " as of " + time
          + ": none of its datasets had a version committed by then");
    }
    return of(cube, datasets);
  }

  private static List<String> datasetIds(ObjectStore store, String cube) throws IOException {
    List<String> ids = new ArrayList<>();
    for (String uuid : DatasetKeys.discoverDatasetUuids(store, CubeNames.uuidPrefix(cube))) {
      CubeNames.datasetId(cube, uuid).ifPresent(ids::add);
    }
    return ids;
  }

  /** The given versions of datasets of cube {@code cube}, by dataset id. */
  public static CubeSnapshot at(ObjectStore store, String cube, Map<String, Long> versions) throws IOException {
    requireNonNull(store, "store is null");
    NavigableMap<String, DatasetSnapshot> datasets = new TreeMap<>();
    for (Map.Entry<String, Long> e : new TreeMap<>(versions).entrySet()) {
      datasets.put(e.getKey(), DatasetSnapshot.at(store, CubeNames.datasetUuid(cube, e.getKey()), e.getValue()));
    }
    return of(cube, datasets);
  }

  /** The cube formed by these snapshots; the one marked as seed records the spec. */
  public static CubeSnapshot of(String cube, Map<String, DatasetSnapshot> datasets) {
    if (datasets.isEmpty()) {
      throw new NoSuchDatasetException("Cannot read cube '" + cube + "': the store holds none of its datasets ("
          + CubeNames.uuidPrefix(cube) + "*)");
    }
    Map<String, DatasetMetadata> metadata = new TreeMap<>();
    datasets.forEach((id, snapshot) -> metadata.put(id, DatasetMetadata.of(snapshot.uuid(),
        snapshot.partitionKeys().stream().map(Field::getName).toList(), Map.of(), Map.of(), snapshot.metadata())));
    return new CubeSnapshot(CubeValidation.discover(cube, metadata), new TreeMap<>(datasets));
  }

  @Override
  public QueryTarget target() {
    return QueryTarget.cube(spec.name());
  }

  @Override
  public String seedDatasetId() {
    return spec.seedDatasetId();
  }

  @Override
  public DatasetSnapshot seed() {
    return datasets.get(seedDatasetId());
  }

  @Override
  public CubeSnapshot withSeedAt(ObjectStore store, long seedVersion) throws IOException {
    NavigableMap<String, DatasetSnapshot> pinned = new TreeMap<>(datasets);
    pinned.put(seedDatasetId(), DatasetSnapshot.at(store, seed().uuid(), seedVersion));
    return of(spec.name(), pinned);
  }

  /** The version of each dataset, by dataset id. */
  @Override
  public NavigableMap<String, Long> versions() {
    NavigableMap<String, Long> versions = new TreeMap<>();
    datasets.forEach((id, snapshot) -> versions.put(id, snapshot.version()));
    return versions;
  }

  /** Checks {@code query} against these versions; see {@link CubePlanner#resolve}. */
  @Override
  public ResolvedQuery resolve(CubeQuery query) {
    return CubePlanner.resolve(spec, datasets, query);
  }

  /** Plans {@code query} over these versions; see {@link CubePlanner}. */
  @Override
  public QueryPlan plan(CubeQuery query) {
    return CubePlanner.plan(spec, datasets, query);
  }
}
