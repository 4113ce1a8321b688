package io.ktk.flink.state.commit;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.Iterator;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads a dataset's state from its log: the newest snapshot at or below the wanted version, then
 * the entries after it. Reading never writes.
 *
 * <p>Opening the latest state costs a bounded number of store calls whatever the log's length:
 * the hint names the newest snapshot ({@link LogHint}), and one listing finds the entries after it
 * (at most the snapshot interval of them). Without a hint, the snapshots are listed, which
 * expiry keeps few.
 */
public final class LogReader {
  private final ObjectStore store;
  private final String uuid;

  public LogReader(ObjectStore store, String uuid) {
    this.store = store;
    this.uuid = uuid;
  }

  /** Whether the dataset has a log: version 0, or (once expiry removed it) a snapshot. */
  public boolean hasLog() throws IOException {
    return store.head(LogKeys.entry(uuid, 0)).isPresent() || store.list(LogKeys.snapshotPrefix(uuid)).hasNext();
  }

  /** The state at the latest version; a state with version -1 when there is no log. */
  public DatasetState latest() throws IOException {
    return at(Long.MAX_VALUE);
  }

  /**
   * The latest state; for a dataset without a log, its plateau view read as version 0 (nothing is
   * written). A state with version -1 when neither exists.
   */
  public DatasetState latestOrPublished() throws IOException {
    DatasetState state = latest();
    if (!state.exists()) {
      PlateauImport.adoptionEntry(store, uuid, java.time.Instant.now()).ifPresent(state::apply);
    }
    return state;
  }

  /**
   * The state at {@code version} (or the latest one below it when {@code version} is beyond the
   * latest).
   */
  public DatasetState at(long version) throws IOException {
    DatasetState state = startingState(version);
    catchUpByListing(state, version);
    if (!state.exists() && version >= 0) {
      long oldest = oldestSnapshot();
      if (oldest > version) {
        throw new VersionExpiredException("Cannot read version " + version + " of dataset '" + uuid + "' in "
            + store.url() + ": it expired; the log retains versions from " + oldest + " on", oldest);
      }
    }
    return state;
  }

  /** The hinted snapshot when it is at or below {@code version}, else the newest one listed. */
  private DatasetState startingState(long version) throws IOException {
    Optional<Long> hinted = LogHint.read(store, uuid);
    if (hinted.isPresent() && hinted.get() <= version) {
      try {
        return readSnapshot(hinted.get());
      } catch (NoSuchObjectException expired) {
        // deleted by expiry since the hint was written: list the snapshots there are
      }
    }
    return newestSnapshotAtOrBelow(version);
  }

  /**
   * The state of the highest version committed at or before {@code time}, given the {@code latest}
   * state: a state with version -1 when the log's first version was committed later (or there is
   * no log). Versions are committed in time order (each entry's time is taken when it is written,
   * after the one before it), so a binary search finds it in O(log versions) state reads; it starts
   * at the oldest version the log retains.
   *
   * @throws VersionExpiredException when the version of that time expired
   */
  public DatasetState asOf(java.time.Instant time, DatasetState latest) throws IOException {
    if (!latest.exists() || !latest.lastModified().isAfter(time)) {
      return latest.exists() ? latest : new DatasetState(uuid);
    }
    long low;
    DatasetState first;
    try {
      first = at(0);
      low = 0;
    } catch (VersionExpiredException expired) {
      low = expired.retainedFrom();
      first = at(low);
      if (first.lastModified().isAfter(time)) {
        throw new VersionExpiredException("Cannot read dataset '" + uuid + "' in " + store.url() + " as of " + time
            + ": the version of that time expired; the log retains versions from " + low + " on (committed at "
            + first.lastModified() + ")", low);
      }
    }
    if (first.lastModified().isAfter(time)) {
      return new DatasetState(uuid);
    }
    long high = latest.version(); // committed after time
    DatasetState found = first; // committed at or before time
    while (high - low > 1) {
      long middle = low + (high - low) / 2;
      DatasetState state = at(middle);
      if (state.lastModified().isAfter(time)) {
        high = middle;
      } else {
        low = middle;
        found = state;
      }
    }
    return found;
  }

  /**
   * Applies every entry after the state's version, found by reading {@code version + 1, + 2, ...}
   * until one is missing: one read per new entry, whatever the size of the log. Returns how many
   * entries were applied.
   */
  public int catchUp(DatasetState state) throws IOException {
    int applied = 0;
    while (true) {
      LogEntry entry = readEntryIfPresent(state.version() + 1, state);
      if (entry == null) {
        return applied;
      }
      state.apply(entry);
      applied++;
    }
  }

  /**
   * Whether versions after {@code state}'s were committed and then expired, so that {@link
   * #catchUp} cannot reach the latest version from it: the entry after it is gone, yet the log has
   * a later snapshot (expiry writes one where the retained versions start before deleting older
   * entries). One read of the snapshot hint.
   */
  public boolean expiredAfter(DatasetState state) throws IOException {
    if (!state.exists()) {
      return false;
    }
    Optional<Long> hinted = LogHint.read(store, uuid);
    return hinted.isPresent() && hinted.get() > state.version()
        && !store.head(LogKeys.entry(uuid, state.version() + 1)).isPresent();
  }

  /** Reads the entry of {@code version}, or null if it does not exist. */
  LogEntry readEntryIfPresent(long version, DatasetState stateBefore) throws IOException {
    return readEntryIfPresent(version, stateBefore.schema());
  }

  /**
   * Reads the entry of {@code version}, or null if it does not exist; {@code schemaBefore} types
   * its index values unless the entry carries a schema.
   */
  LogEntry readEntryIfPresent(long version, org.apache.arrow.vector.types.pojo.Schema schemaBefore)
      throws IOException {
    String key = LogKeys.entry(uuid, version);
    byte[] data;
    try {
      data = store.get(key);
    } catch (NoSuchObjectException e) {
      return null;
    }
    LogEntry entry = LogCodec.readEntry(data, store.url() + key, schemaBefore);
    if (entry.version() != version) {
      throw new CorruptDatasetException(
          "Cannot read " + store.url() + key + ": it says it is version " + entry.version());
    }
    return entry;
  }

  private DatasetState newestSnapshotAtOrBelow(long version) throws IOException {
    long best = -1;
    Iterator<ObjectInfo> snapshots = store.list(LogKeys.snapshotPrefix(uuid));
    while (snapshots.hasNext()) {
      OptionalLong snapshotVersion = LogKeys.snapshotVersion(uuid, snapshots.next().key());
      if (snapshotVersion.isPresent() && snapshotVersion.getAsLong() <= version) {
        best = Math.max(best, snapshotVersion.getAsLong());
      }
    }
    if (best < 0) {
      return new DatasetState(uuid);
    }
    return readSnapshot(best);
  }

  private DatasetState readSnapshot(long snapshotVersion) throws IOException {
    long best = snapshotVersion;
    String key = LogKeys.snapshot(uuid, best);
    DatasetState state = SnapshotCodec.read(store.get(key), store.url() + key);
    if (!state.uuid().equals(uuid) || state.version() != best) {
      throw new CorruptDatasetException("Cannot read snapshot " + store.url() + key + ": it holds dataset '"
          + state.uuid() + "' at version " + state.version());
    }
    return state;
  }

  /** The version of the oldest snapshot, or -1 when there is none. */
  private long oldestSnapshot() throws IOException {
    Iterator<ObjectInfo> snapshots = store.list(LogKeys.snapshotPrefix(uuid));
    while (snapshots.hasNext()) {
      OptionalLong snapshotVersion = LogKeys.snapshotVersion(uuid, snapshots.next().key());
      if (snapshotVersion.isPresent()) {
        return snapshotVersion.getAsLong(); // listed in key order, which is version order
      }
    }
    return -1;
  }

  private void catchUpByListing(DatasetState state, long upTo) throws IOException {
    String startAfter = state.version() < 0 ? null : LogKeys.entry(uuid, state.version());
    Iterator<ObjectInfo> entries = store.list(LogKeys.logPrefix(uuid), startAfter);
    while (entries.hasNext()) {
      String key = entries.next().key();
      OptionalLong next = LogKeys.entryVersion(uuid, key);
      if (next.isEmpty()) {
        if (key.length() > LogKeys.logPrefix(uuid).length() && !Character.isDigit(key.charAt(LogKeys.logPrefix(uuid).length()))) {
          return; // the hint and the snapshots sort after every entry
        }
        continue;
      }
      long version = next.getAsLong();
      if (version > upTo) {
        return;
      }
      if (version != state.version() + 1 && state.version() < 0) {
        long oldest = oldestSnapshot();
        if (oldest >= 0 && upTo < oldest) {
          throw new VersionExpiredException("Cannot read version " + upTo + " of dataset '" + uuid + "' in "
              + store.url() + ": it expired; the log retains versions from " + oldest + " on", oldest);
        }
      }
      if (version != state.version() + 1) {
        throw new CorruptDatasetException("Cannot read the log of dataset '" + uuid + "' in " + store.url()
            + ": version " + (state.version() + 1) + " is missing but version " + version + " exists");
      }
      LogEntry entry = readEntryIfPresent(version, state);
      if (entry == null) {
        throw new CorruptDatasetException("Cannot read the log of dataset '" + uuid + "' in " + store.url()
            + ": version " + version + " was listed but cannot be read");
      }
      state.apply(entry);
    }
    // Entries committed after the listing started are picked up by the next catch-up.
  }
}
