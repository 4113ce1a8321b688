package io.ktk.flink.state.commit;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.metadata.CubeNames;
import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.Collection;
import java.util.Collections;
import java.util.NavigableMap;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The versions of a cube's datasets that a reader may see together: for each dataset, the latest
 * version that holds no entry of an unfinished cube transaction.
 *
 * <p>Given the latest record of the {@link CubeCommitLog} (read first), a dataset is pinned at its
 * latest version unless one of its entries after the version the record gives it is marked {@code
 * cube_transaction}: such an entry belongs to a transaction that has not been recorded yet (a
 * recorded one would have raised the record's version of the dataset to at least its own), so the
 * dataset is pinned just below the first of them. Entries of writers outside cube transactions
 * (the one-dataset sink, {@code ktk} commands) are visible at once. Reading the record before the
 * datasets makes a transaction that completes meanwhile look unfinished, never the reverse.
 *
 * <p>Cost: one probe of the cube log (a few HEAD requests), the latest state of each dataset, and
 * one GET per entry after the recorded version (normally none, or the entries of one transaction
 * in progress).
 */
public final class CubeVersions {
  private CubeVersions() {}

  /**
   * The pinned state of each of {@code datasetIds} of cube {@code cube}. A dataset whose every
   * version belongs to an unfinished transaction, or that does not exist, is left out.
   */
  public static NavigableMap<String, DatasetState> latest(ObjectStore store, String cube,
      Collection<String> datasetIds) throws IOException {
    requireNonNull(store, "store is null");
    requireNonNull(datasetIds, "datasetIds is null");
    NavigableMap<String, Long> recorded = CubeCommitLog.of(store, cube).latest()
        .map(CubeCommitLog.Record::datasets)
        .orElse(Collections.emptyNavigableMap());
    return pinAll(store, cube, datasetIds, recorded, (reader, uuid) -> reader.latestOrPublished());
  }

  /**
   * The pinned state of each of {@code datasetIds} of cube {@code cube} as a reader would have
   * pinned them at {@code time}: the cube log's latest record written by then, and for each dataset
   * the highest version committed by then ({@link LogReader#asOf}) unless an entry of a
   * transaction that record does not cover comes first (then just below it), as in {@link #latest}.
   * A dataset without a version by then is left out.
   *
   * @throws VersionExpiredException when a dataset's version of that time expired
   * @throws io.ktk.flink.state.KtkValidationException when a dataset has no commit log (no history)
   */
  public static NavigableMap<String, DatasetState> asOf(ObjectStore store, String cube, Collection<String> datasetIds,
      java.time.Instant time) throws IOException {
    requireNonNull(store, "store is null");
    requireNonNull(time, "time is null");
    NavigableMap<String, Long> recorded = CubeCommitLog.of(store, cube).asOf(time)
        .map(CubeCommitLog.Record::datasets)
        .orElse(Collections.emptyNavigableMap());
    return pinAll(store, cube, datasetIds, recorded, (reader, uuid) -> {
      DatasetState latest = reader.latest();
      if (!latest.exists()) {
        throw new io.ktk.flink.state.KtkValidationException("Cannot read cube '" + cube + "' in "
            + store.url() + " as of " + time + ": its dataset '" + uuid + "' has no commit log (a dataset written by"
            + " plateau has no history to travel in)");
      }
      return reader.asOf(time, latest);
    });
  }

  /** Which state of a dataset a reader starts from, before unrecorded transactions are left out. */
  @FunctionalInterface
  private interface Candidate {
    DatasetState of(LogReader reader, String uuid) throws IOException;
  }

  /**
   * For each dataset, its {@code candidate} state pinned below the first entry of a transaction
   * that {@code recorded} (the cube log's record) does not cover; datasets without such a version
   * are left out.
   */
  private static NavigableMap<String, DatasetState> pinAll(ObjectStore store, String cube,
      Collection<String> datasetIds, NavigableMap<String, Long> recorded, Candidate candidate) throws IOException {
    NavigableMap<String, DatasetState> pinned = new TreeMap<>();
    for (String id : new TreeSet<>(datasetIds)) {
      String uuid = CubeNames.datasetUuid(cube, id);
      LogReader reader = new LogReader(store, uuid);
      DatasetState state = candidate.of(reader, uuid);
      if (!state.exists()) {
        continue;
      }
      long pin = pin(store, uuid, recorded.getOrDefault(id, -1L), state.version());
      if (pin >= 0) {
        pinned.put(id, pin == state.version() ? state : reader.at(pin));
      }
    }
    return pinned;
  }

  /** The latest version at or below {@code latest} without an unrecorded cube-transaction entry after {@code recorded}. */
  static long pin(ObjectStore store, String uuid, long recorded, long latest) throws IOException {
    for (long version = Math.max(recorded + 1, 0); version <= latest; version++) {
      String key = LogKeys.entry(uuid, version);
      byte[] data;
      try {
        data = store.get(key);
      } catch (NoSuchObjectException e) {
        return latest; // no log: a plateau dataset, read from its published view
      }
      if (LogCodec.readHeader(data, store.url() + key).cubeTransaction() != null) {
        return version - 1;
      }
    }
    return latest;
  }

  /**
   * The version whose entry writer {@code writerId} committed for {@code checkpointId}, searched
   * from {@code latest} down (a replayed transaction is normally among the last entries), or -1
   * when none of the {@code maxEntries} entries below {@code latest} is it.
   */
  public static long versionOf(ObjectStore store, String uuid, String writerId, long checkpointId, long latest,
      int maxEntries) throws IOException {
    OptionalLong wanted = OptionalLong.of(checkpointId);
    for (long version = latest; version >= 0 && version > latest - maxEntries; version--) {
      String key = LogKeys.entry(uuid, version);
      LogCodec.Header header;
      try {
        header = LogCodec.readHeader(store.get(key), store.url() + key);
      } catch (NoSuchObjectException e) {
        return -1;
      }
      if (writerId.equals(header.writerId()) && wanted.equals(header.checkpointId())) {
        return version;
      }
    }
    return -1;
  }
}
