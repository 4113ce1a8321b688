package io.ktk.flink.state.commit;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
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
  /**
   * A writer whose newest known version is older than this refreshes before it commits, in case
   * the versions after it expired (the check costs a read). A writer that commits or refreshes
   * more often is current unless expiry's retention is shorter than this.
   */
  static final Duration IDLE = Duration.ofMinutes(1);

  private final ObjectStore store;
  private final String uuid;
  private final CommitLogOptions options;
  private final LogReader reader;
  private final Clock clock;
  private final PublishedViewCheck viewCheck;
  private DatasetState state;
  /** Publishes this dataset's view; its own, since it remembers the index files it wrote. */
  private PlateauPublisher publisher;

  private CommitLog(ObjectStore store, String uuid, CommitLogOptions options, Clock clock, DatasetState state,
      PublishedViewCheck viewCheck) {
    this.store = store;
    this.uuid = uuid;
    this.options = options;
    this.reader = new LogReader(store, uuid);
    this.clock = clock;
    this.state = state;
    this.viewCheck = viewCheck;
  }

  /** Opens the log of dataset {@code uuid}, reading its latest state (version -1 if it has none). */
  public static CommitLog open(ObjectStore store, String uuid, CommitLogOptions options) throws IOException {
    return open(store, uuid, options, new PublishedViewCheck(uuid));
  }

  /**
   * Opens the log of dataset {@code uuid} with a {@link PublishedViewCheck} shared by this
   * process's writers of the dataset (a committer and its publisher), so that each knows the view
   * the other published.
   */
  public static CommitLog open(ObjectStore store, String uuid, CommitLogOptions options, PublishedViewCheck viewCheck)
      throws IOException {
    requireNonNull(store, "store is null");
    requireNonNull(uuid, "uuid is null");
    requireNonNull(options, "options is null");
    requireNonNull(viewCheck, "viewCheck is null");
    return open(store, uuid, options, viewCheck, Clock.systemUTC());
  }

  /** Opens a log whose entries carry {@code clock}'s time (tests of ageing logs). */
  static CommitLog open(ObjectStore store, String uuid, CommitLogOptions options, PublishedViewCheck viewCheck,
      Clock clock) throws IOException {
    CommitLog log = new CommitLog(store, uuid, options, clock, new LogReader(store, uuid).latest(), viewCheck);
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
    if (entry.metadata().containsKey(PlateauPublisher.LOG_VERSION_KEY)) {
      throw new CorruptDatasetException("Cannot write to dataset '" + uuid + "' in " + store.url() + ": its "
          + "published view was published from log version " + entry.metadata().get(PlateauPublisher.LOG_VERSION_KEY)
          + ", but the log (" + LogKeys.logPrefix(uuid) + ") is gone. Adopting the view as a new log would lose "
          + "the log's history and reuse its versions; restore the log (from a backup or the bucket's object "
          + "versions) before writing again");
    }
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

  /**
   * The state as this instance last saw it: read-only for callers, but moved forward by this log's
   * commits and refreshes; {@link DatasetState#copy()} keeps one version.
   */
  public DatasetState state() {
    return state;
  }

  /**
   * Publishes the plateau view of the latest version ({@link PlateauPublisher}) with this log's
   * publisher, which skips index files it wrote before for an unchanged index.
   *
   * @return the version the published view shows
   */
  public long publish() throws IOException {
    if (publisher == null) {
      publisher = new PlateauPublisher();
    }
    return publisher.publish(this);
  }

  /**
   * Publishes {@code view}, a state derived from one of this log's versions with files holding the
   * same rows (a fold of a dataset with a primary key), as the plateau view ({@link
   * PlateauPublisher#publishView}).
   */
  public void publishView(DatasetState view) throws IOException {
    if (publisher == null) {
      publisher = new PlateauPublisher();
    }
    publisher.publishView(this, view);
  }

  /**
   * Reads the versions committed by others since this instance last looked. When versions after
   * this instance's state expired meanwhile (it looked last longer than the retention ago), it
   * reads the latest state afresh: catching up entry by entry would stop at the first expired one.
   */
  public DatasetState refresh() throws IOException {
    reader.catchUp(state);
    if (reader.expiredAfter(state)) {
      long behind = state.version();
      state = reader.latest();
      LOG.info("Dataset '{}' in {}: the versions after {} expired before this writer read them; read the "
          + "latest state afresh (version {})", uuid, store.url(), behind, state.version());
    }
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
    if (state.exists() && clock.instant().isAfter(state.lastModified().plus(IDLE))) {
      // The versions after an idle writer's state may have expired: it would claim their numbers
      // again (their entries are gone) and readers, who start from a later snapshot, would never
      // see its commit.
      refresh();
    }
    adoptForeignChanges();
    return commitChange(request);
  }

  /**
   * Takes over, as a version of its own, what another writer (plateau) changed in the published
   * view since this project published it ({@link PublishedViewCheck}), so that no commit or
   * publication built on the log drops it.
   *
   * @return the version that adopted the change, or -1 when there was none
   * @throws CorruptDatasetException when the view shows a version the log does not have
   */
  public long adoptForeignChanges() throws IOException {
    if (!state.exists()) {
      return -1;
    }
    for (int attempt = 1; ; attempt++) {
      Optional<DatasetChange> adoption;
      try {
        adoption = viewCheck.check(store, state, reader);
      } catch (CorruptDatasetException e) {
        // The view is newer than this state and the entries in between are gone: expired while this
        // writer worked (a long rewrite), or deleted. Only the former reads afresh and goes on.
        if (!reader.expiredAfter(state)) {
          throw e;
        }
        refresh();
        adoption = viewCheck.check(store, state, reader);
      }
      if (adoption.isEmpty()) {
        return -1;
      }
      try {
        CommitResult result = commitChange(adoption.get());
        LOG.info("Dataset '{}' in {}: adopted another writer's change to the published view as version {}", uuid,
            store.url(), result.version());
        return result.version();
      } catch (KtkValidationException | RewriteConflictException e) {
        // Another writer of this project adopted the same change first: look again.
        if (attempt >= 3) {
          throw e;
        }
        reader.catchUp(state);
      }
    }
  }

  /** The view check this log's commits and publications share. */
  PublishedViewCheck viewCheck() {
    return viewCheck;
  }

  private CommitResult commitChange(DatasetChange request) throws IOException {
    for (int attempt = 1; attempt <= options.maxAttempts(); attempt++) {
      if (request.checkpointId().isPresent()
          && state.hasCommitted(request.writerId(), request.checkpointId().getAsLong())) {
        checkIsReplay(request);
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
   * A request for a writer's latest committed checkpoint must carry the files that checkpoint
   * added: anything else would be acknowledged as a replay and its rows lost. (Older checkpoints
   * of the writer are not checked: the log keeps only the latest one's first file.)
   */
  private void checkIsReplay(DatasetChange request) {
    long checkpoint = request.checkpointId().getAsLong();
    String writer = request.writerId();
    String committedFirst = state.checkpointFirstFile(writer);
    if (committedFirst == null || checkpoint != state.checkpoints().get(writer)) {
      return;
    }
    String requestFirst = DatasetState.firstLabel(request.files());
    if (!requestFirst.equals(committedFirst)) {
      long rows = request.files().stream().mapToLong(DataFile::rows).filter(r -> r > 0).sum();
      throw new CheckpointCollisionException("Cannot commit checkpoint " + checkpoint + " of writer " + writer
          + " to dataset '" + uuid + "' in " + store.url() + ": the log holds that checkpoint already with other "
          + "files (first '" + committedFirst + "'), so these " + request.files().size() + " files (" + rows
          + " rows, first '" + requestFirst + "') are not a replay of it, and acknowledging them would lose their "
          + "rows. A job restored from a checkpoint older than one it committed, or two jobs sharing a writer id, "
          + "cause this; nothing was committed. Restart the job without its state (a new writer id) to write "
          + "these records again");
    }
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
      store.putIfAbsent(key, SnapshotCodec.write(state));
      LogHint.write(store, uuid, state.version());
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
