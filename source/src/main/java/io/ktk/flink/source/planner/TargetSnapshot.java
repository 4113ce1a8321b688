package io.ktk.flink.source.planner;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.QueryTarget;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.Map;
import java.util.NavigableMap;

/**
 * A query target at pinned versions: a cube ({@link CubeSnapshot}) or a plain dataset ({@link
 * PlainDatasetSnapshot}, read as a cube of that one dataset). Queries checked and planned from it
 * see exactly these versions, whatever is committed meanwhile; the same planner, splits and
 * readers serve both.
 */
public sealed interface TargetSnapshot permits CubeSnapshot, PlainDatasetSnapshot {

  /** The latest versions of {@code target} that a reader may see together. */
  static TargetSnapshot latest(ObjectStore store, QueryTarget target) throws IOException {
    requireNonNull(target, "target is null");
    return switch (target.kind()) {
      case CUBE -> CubeSnapshot.latest(store, target.name());
      case DATASET -> PlainDatasetSnapshot.latest(store, target.name());
    };
  }

  /** The given versions of {@code target}'s datasets, by dataset id (a plain dataset's id is its uuid). */
  static TargetSnapshot at(ObjectStore store, QueryTarget target, Map<String, Long> versions) throws IOException {
    requireNonNull(target, "target is null");
    return switch (target.kind()) {
      case CUBE -> CubeSnapshot.at(store, target.name(), versions);
      case DATASET -> PlainDatasetSnapshot.at(store, target.name(), versions);
    };
  }

  /** What these versions are of. */
  QueryTarget target();

  /** The version of each dataset, by dataset id. */
  NavigableMap<String, Long> versions();

  /** The id of the seed dataset (of a plain dataset: its uuid). */
  String seedDatasetId();

  /** The seed dataset's pinned version (of a plain dataset: the dataset). */
  DatasetSnapshot seed();

  /** These versions with the seed at {@code seedVersion} instead (the other datasets as they are). */
  TargetSnapshot withSeedAt(ObjectStore store, long seedVersion) throws IOException;

  /**
   * Checks {@code query} against these versions; what a reader of planned groups needs.
   *
   * @throws io.ktk.flink.source.query.InvalidQueryException when the query does not fit
   */
  ResolvedQuery resolve(CubeQuery query);

  /**
   * Checks and plans {@code query} over these versions ({@link CubePlanner}).
   *
   * @throws io.ktk.flink.source.query.InvalidQueryException when the query does not fit
   */
  QueryPlan plan(CubeQuery query);
}
