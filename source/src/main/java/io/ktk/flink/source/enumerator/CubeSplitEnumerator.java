package io.ktk.flink.source.enumerator;

import io.ktk.flink.source.planner.TargetSnapshot;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.QuerySettings;
import io.ktk.flink.source.query.StoreRefusals;
import io.ktk.flink.source.split.CubeSplit;
import io.ktk.flink.source.split.CubeSplits;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.util.FlinkRuntimeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands out the splits of a cube query (or of a plain dataset's query), one per request, in output order (readers ask for the
 * next split when they finish one, so faster readers take more). Splits a failed reader held come
 * back and are handed out first.
 *
 * <p>Bounded: the splits of the pinned versions; a reader that asks when nothing is left is told
 * there are no more splits.
 *
 * <p>Continuous ({@link Discovery}): after the splits of the pinned versions, every discovery
 * interval the enumerator reads the latest versions of the cube's datasets ({@link
 * TargetSnapshot#latest}); when the seed has a version above the one served, it plans the query
 * there, keeps the seed files added after the served version ({@link
 * QueryPlan#seedFilesAddedAfter}), appends their splits and serves them to readers that wait. A
 * compaction of the seed never serves rows again: the versions before it are served first.
 * The served seed version and the unassigned splits are checkpointed together, so after a restore
 * a discovery neither repeats nor skips a commit: splits made after the checkpoint are made again.
 * For an upsert changelog ({@link Discovery#byPartition}) every split of a partition goes to one
 * reader, so that a key's changes keep their order.
 * A store failure during a discovery is logged and retried at the next interval, unless the store
 * refused the request (wrong keys, no such bucket: {@link StoreRefusals}), which fails the job
 * without restarts; any other failure (e.g. the query no longer fits the cube) fails the job.
 */
@Internal
public final class CubeSplitEnumerator implements SplitEnumerator<CubeSplit, CubeEnumeratorState> {
  private static final Logger LOG = LoggerFactory.getLogger(CubeSplitEnumerator.class);

  /**
   * How a continuous source discovers later commits.
   *
   * @param settings the store, target (cube or plain dataset) and query
   * @param interval time between discoveries
   * @param maxPartitionsPerSplit see {@link CubeSplits}
   * @param byPartition whether every split of a partition goes to the same reader (an upsert
   *     changelog: a key's changes must reach the stream in the order they were committed)
   */
  public record Discovery(QuerySettings settings, Duration interval, int maxPartitionsPerSplit, boolean byPartition) {}

  /** One step of what a discovery found: the plan at a seed version to serve up to. */
  private record Found(QueryPlan plan, long seedVersion) {}

  private final SplitEnumeratorContext<CubeSplit> context;
  private final Deque<CubeSplit> unassigned;
  private final Discovery discovery;
  private final Set<Integer> waiting = new LinkedHashSet<>();
  private volatile long servedSeedVersion;
  private long discoveries;

  /**
   * @param state the splits to serve and how far the seed is served
   * @param discovery null for a bounded source
   */
  public CubeSplitEnumerator(SplitEnumeratorContext<CubeSplit> context, CubeEnumeratorState state,
      Discovery discovery) {
    this.context = context;
    this.unassigned = new ArrayDeque<>(state.unassigned());
    this.discovery = discovery;
    this.servedSeedVersion = state.servedSeedVersion();
    this.discoveries = state.discoveries();
    if (discovery != null && servedSeedVersion < 0) {
      throw new IllegalArgumentException("a continuous source needs the served seed version, not " + servedSeedVersion);
    }
  }

  @Override
  public void start() {
    LOG.info("Cube query: {} splits to read{}", unassigned.size(),
        discovery == null ? "" : ", then later commits after seed version " + servedSeedVersion);
    if (discovery != null) {
      long millis = discovery.interval().toMillis();
      context.callAsync(this::discover, this::discovered, millis, millis);
    }
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {
    if (!context.registeredReaders().containsKey(subtaskId)) {
      return; // the reader failed since it asked
    }
    CubeSplit next = next(subtaskId);
    if (next != null) {
      context.assignSplit(next, subtaskId);
    } else if (discovery == null) {
      context.signalNoMoreSplits(subtaskId);
    } else {
      waiting.add(subtaskId);
    }
  }

  @Override
  public void addSplitsBack(List<CubeSplit> splits, int subtaskId) {
    for (int i = splits.size() - 1; i >= 0; i--) {
      unassigned.addFirst(splits.get(i));
    }
    waiting.remove(subtaskId);
  }

  @Override
  public void addReader(int subtaskId) {
    // readers ask for splits themselves
  }

  @Override
  public CubeEnumeratorState snapshotState(long checkpointId) {
    return new CubeEnumeratorState(List.copyOf(unassigned), servedSeedVersion, discoveries);
  }

  @Override
  public void close() {}

  /**
   * On a worker thread: the plans to serve, in seed version order (reads the store, not this
   * object's state). Usually one, at the latest versions. A rewrite (compaction) after the served
   * version may merge served files with unserved ones into files that count as added after the
   * served version; so the versions before such a rewrite are served first, and the rewrite's files,
   * holding nothing new, are then left out by {@link QueryPlan#seedFilesAddedAfter}. This needs the
   * versions before the rewrite to be retained: a source that falls behind the retention fails with
   * {@link io.ktk.flink.state.commit.VersionExpiredException}.
   */
  private List<Found> discover() throws IOException {
    try (ObjectStore store = discovery.settings().openStore()) {
      long served = servedSeedVersion;
      Deque<TargetSnapshot> steps = new ArrayDeque<>();
      TargetSnapshot snapshot = TargetSnapshot.latest(store, discovery.settings().target());
      while (snapshot.seed().version() > served) {
        steps.addFirst(snapshot);
        long rewrite = snapshot.seed().lastRewriteVersion();
        if (rewrite <= served + 1) {
          break; // the rewrite's inputs were all served, or there is none to worry about
        }
        snapshot = snapshot.withSeedAt(store, rewrite - 1);
      }
      List<Found> found = new ArrayList<>();
      for (TargetSnapshot step : steps) {
        found.add(new Found(step.plan(discovery.settings().query()), step.seed().version()));
      }
      return found;
    }
  }

  /** On the coordinator thread: turns what a discovery found into splits. */
  private void discovered(List<Found> found, Throwable error) {
    if (error != null) {
      StoreRefusals.failFastIfRefused(error);
      if (error instanceof IOException || error instanceof UncheckedIOException) {
        LOG.warn("Cannot discover later versions of {}, retrying in {}: {}", discovery.settings().target(),
            discovery.interval(), error.toString());
        return;
      }
      throw new FlinkRuntimeException("Cannot discover later versions of " + discovery.settings().target()
          + ": " + error.getMessage(), error);
    }
    for (Found step : found) {
      if (step.seedVersion() <= servedSeedVersion) {
        continue;
      }
      QueryPlan added = step.plan().seedFilesAddedAfter(servedSeedVersion);
      discoveries++;
      List<CubeSplit> splits = CubeSplits.of(added, CubeSplits.discoveryPrefix(discoveries),
          discovery.maxPartitionsPerSplit(), context.currentParallelism());
      LOG.info("Cube query: seed versions {} to {} add {} splits", servedSeedVersion + 1, step.seedVersion(),
          splits.size());
      unassigned.addAll(splits);
      servedSeedVersion = step.seedVersion();
    }
    for (Iterator<Integer> it = waiting.iterator(); it.hasNext() && !unassigned.isEmpty(); ) {
      int reader = it.next();
      if (!context.registeredReaders().containsKey(reader)) {
        it.remove();
        continue;
      }
      CubeSplit next = next(reader);
      if (next != null) {
        it.remove();
        context.assignSplit(next, reader);
      }
    }
  }

  /**
   * The next split for reader {@code subtaskId}, taken out of the unassigned ones, or null: the
   * first one, or with {@link Discovery#byPartition} the first one of the partitions it owns.
   * A reader reads its splits one after the other, in the order it gets them, so the changes of a
   * partition reach the stream in the order they were committed, also across a failure (splits
   * handed back return to the front, and each reader restores its own splits).
   */
  private CubeSplit next(int subtaskId) {
    if (discovery == null || !discovery.byPartition()) {
      return unassigned.poll();
    }
    for (Iterator<CubeSplit> it = unassigned.iterator(); it.hasNext(); ) {
      CubeSplit split = it.next();
      if (owner(split) == subtaskId) {
        it.remove();
        return split;
      }
    }
    return null;
  }

  /** The reader that reads every split of the split's partition (a changelog's splits hold one partition each). */
  private int owner(CubeSplit split) {
    String partition = split.group().partitions().get(0).path();
    return Math.floorMod(partition.hashCode(), context.currentParallelism());
  }
}
