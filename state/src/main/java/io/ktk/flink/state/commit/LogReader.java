package io.ktk.flink.state.commit;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.Iterator;
import java.util.OptionalLong;

/**
 * Reads a dataset's state from its log: the newest snapshot at or below the wanted version, then
 * the entries after it. Reading never writes.
 */
public final class LogReader {
  private final ObjectStore store;
  private final String uuid;

  public LogReader(ObjectStore store, String uuid) {
    this.store = store;
    this.uuid = uuid;
  }

  /** Whether the dataset has a log (version 0 exists). */
  public boolean hasLog() throws IOException {
    return store.head(LogKeys.entry(uuid, 0)).isPresent();
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
    DatasetState state = newestSnapshotAtOrBelow(version);
    catchUpByListing(state, version);
    return state;
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

  /** Reads the entry of {@code version}, or null if it does not exist. */
  LogEntry readEntryIfPresent(long version, DatasetState stateBefore) throws IOException {
    String key = LogKeys.entry(uuid, version);
    byte[] data;
    try {
      data = store.get(key);
    } catch (NoSuchObjectException e) {
      return null;
    }
    LogEntry entry = LogCodec.readEntry(data, store.url() + key, stateBefore.schema());
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
    String key = LogKeys.snapshot(uuid, best);
    DatasetState state = SnapshotCodec.read(store.get(key), store.url() + key);
    if (!state.uuid().equals(uuid) || state.version() != best) {
      throw new CorruptDatasetException("Cannot read snapshot " + store.url() + key + ": it holds dataset '"
          + state.uuid() + "' at version " + state.version());
    }
    return state;
  }

  private void catchUpByListing(DatasetState state, long upTo) throws IOException {
    String startAfter = state.version() < 0 ? null : LogKeys.entry(uuid, state.version());
    Iterator<ObjectInfo> entries = store.list(LogKeys.logPrefix(uuid), startAfter);
    while (entries.hasNext()) {
      OptionalLong next = LogKeys.entryVersion(uuid, entries.next().key());
      if (next.isEmpty()) {
        continue;
      }
      long version = next.getAsLong();
      if (version > upTo) {
        return;
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
