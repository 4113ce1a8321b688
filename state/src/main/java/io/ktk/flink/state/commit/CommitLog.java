package io.ktk.flink.state.commit;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.Clock;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits versions of one dataset: the protocol of {@code docs/commit-log.md}.
 *
 * <p>A version is claimed by creating its log entry with create-if-absent; a writer that loses
 * reads what won, re-plans its change against it and tries the next version. The instance keeps
 * the dataset's state in memory and moves it forward entry by entry, so a commit reads and writes
 * what the commit itself changes, not the whole dataset. Every {@code snapshotInterval} versions it
 * also writes a snapshot of the state.
 *
 * <p>Not thread-safe: one instance per committing thread. Any number of instances, in any number
 * of processes, may commit to one dataset concurrently.
 */
public final class CommitLog {
  private static final Logger LOG = LoggerFactory.getLogger(CommitLog.class);

  private final ObjectStore store;
  private final String uuid;
  private final CommitLogOptions options;
  private final LogReader reader;
  private final Clock clock;
  private DatasetState state;

  private CommitLog(ObjectStore store, String uuid, CommitLogOptions options, Clock clock, DatasetState state) {
    this.store = store;
    this.uuid = uuid;
    this.options = options;
    this.reader = new LogReader(store, uuid);
    this.clock = clock;
    this.state = state;
  }

  /** Opens the log of dataset {@code uuid}, reading its latest state (version -1 if it has none). */
  public static CommitLog open(ObjectStore store, String uuid, CommitLogOptions options) throws IOException {
    requireNonNull(store, "store is null");
    requireNonNull(uuid, "uuid is null");
    requireNonNull(options, "options is null");
    CommitLog log = new CommitLog(store, uuid, options, Clock.systemUTC(), new LogReader(store, uuid).latest());
    if (!log.state.exists()) {
      log.adoptPlateauDataset();
    }
    return log;
  }

  /**
   * A dataset that plateau wrote has no log: its published view becomes version 0. Two writers
   * adopting at once race for version 0 like for any other.
   */
  private void adoptPlateauDataset() throws IOException {
    var adoption = PlateauImport.adoptionEntry(store, uuid, clock.instant());
    if (adoption.isEmpty()) {
      return;
    }
    LogEntry entry = adoption.get();
    if (claim(0, LogCodec.writeEntry(entry, entry.schema()))) {
      LOG.info("Dataset '{}' in {}: adopted the plateau dataset with {} files as version 0",
          uuid, store.url(), entry.added().size());
      state.apply(entry);
    } else {
      reader.catchUp(state);
    }
  }

  public String uuid() {
    return uuid;
  }

  public ObjectStore store() {
    return store;
  }

  /** The state as this instance last saw it. Do not modify; {@link DatasetState#copy()} to keep it. */
  public DatasetState state() {
    return state;
  }

  /** Reads the versions committed by others since this instance last looked. */
  public DatasetState refresh() throws IOException {
    reader.catchUp(state);
    return state;
  }

  /**
   * Commits a change as the next version.
   *
   * @throws io.ktk.flink.state.KtkValidationException the change is invalid against the dataset
   * @throws CommitConflictException more than {@code maxAttempts} versions were lost to others
   * @throws CommitStateUnknownException the store failed and it is unknown whether the commit landed
   */
  public CommitResult commit(DatasetChange request) throws IOException {
    requireNonNull(request, "request is null");
    for (int attempt = 1; attempt <= options.maxAttempts(); attempt++) {
      if (request.checkpointId().isPresent()
          && state.hasCommitted(request.writerId(), request.checkpointId().getAsLong())) {
        LOG.info("Dataset '{}': checkpoint {} of writer {} is committed already (version {})",
            uuid, request.checkpointId().getAsLong(), request.writerId(), state.version());
        return new CommitResult(state.version(), true, attempt);
      }
      LogEntry entry = CommitPlanner.plan(state, request, clock.instant());
      byte[] bytes = LogCodec.writeEntry(entry, entry.schema() != null ? entry.schema() : state.schema());
      if (claim(entry.version(), bytes)) {
        state.apply(entry);
        writeSnapshotIfDue();
        return new CommitResult(entry.version(), false, attempt);
      }
      reader.catchUp(state);
      backOff(attempt);
    }
    throw new CommitConflictException("Cannot commit to dataset '" + uuid + "' in " + store.url() + ": "
        + options.maxAttempts() + " versions in a row were taken by other writers (latest "
        + state.version() + ")");
  }

  /**
   * Creates the entry of {@code version}. When the store fails, asks it whether the entry that
   * exists now is ours (byte for byte), which is the only way to learn the outcome.
   */
  private boolean claim(long version, byte[] bytes) throws IOException {
    String key = LogKeys.entry(uuid, version);
    try {
      return store.putIfAbsent(key, bytes);
    } catch (IOException failure) {
      try {
        return Arrays.equals(store.get(key), bytes);
      } catch (NoSuchObjectException absent) {
        return false; // nothing landed: the version is still free, the loop tries again
      } catch (IOException second) {
        second.addSuppressed(failure);
        throw new CommitStateUnknownException("Cannot tell whether version " + version + " of dataset '"
            + uuid + "' was committed: the store failed while creating " + store.url() + key
            + " and again while reading it back", second);
      }
    }
  }

  private void writeSnapshotIfDue() {
    if (state.version() == 0 || state.version() % options.snapshotInterval() != 0) {
      return;
    }
    String key = LogKeys.snapshot(uuid, state.version());
    try {
      store.putIfAbsent(key, LogCodec.writeSnapshot(state));
    } catch (IOException | RuntimeException e) {
      // A snapshot is a cache: without it readers replay more entries, nothing else changes.
      LOG.warn("Cannot write snapshot {} of dataset '{}'; readers will replay more entries", key, uuid, e);
    }
  }

  private void backOff(int attempt) {
    long maxMillis = Math.min(options.maxBackoff().toMillis(), 1L << Math.min(attempt, 10));
    if (maxMillis <= 0) {
      return;
    }
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(maxMillis + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CommitConflictException("Cannot commit to dataset '" + uuid + "': interrupted while waiting "
          + "to retry");
    }
  }
}
