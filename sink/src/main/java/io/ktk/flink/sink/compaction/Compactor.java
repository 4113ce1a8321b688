package io.ktk.flink.sink.compaction;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.sink.compaction.CompactionResult.Outcome;
import io.ktk.flink.sink.compaction.CompactionResult.PartitionResult;
import io.ktk.flink.sink.compaction.OutputFileWriter.WrittenFile;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.commit.CommitStateUnknownException;
import io.ktk.flink.state.commit.RewriteConflictException;
import io.ktk.flink.state.dataset.NoSuchDatasetException;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts one dataset: rewrites runs of small files of a physical partition into files of about
 * the target size holding the same rows, and commits each batch of rewrites as one {@link
 * io.ktk.flink.state.commit.Operation#REWRITE} version, which removes the files read and adds the
 * files written, each with the sequence of the newest rows it holds.
 *
 * <pre>{@code
 * Compactor compactor = Compactor.of(store, "events", CompactionSettings.defaults());
 * CompactionPlan plan = compactor.plan();          // what would be rewritten (a dry run stops here)
 * CompactionResult result = compactor.compact(plan);
 * }</pre>
 *
 * <p>What readers see: the same rows before and after, in the same order within a partition; for a
 * cube dataset, rows a later row of the same cell supersedes are dropped (readers drop them anyway).
 * {@link CompactionPlanner} explains which files may be rewritten together so that the newest row
 * of a cell stays the newest; {@link OutputFileWriter} how a file is written.
 *
 * <p>Concurrency: appends commute with a rewrite. A rewrite loses ({@link Outcome#CONFLICT}) when a
 * file it removes is gone (another compaction or a partition replace was first) or the dataset was
 * indexed on a new column meanwhile; then nothing is committed and its files are deleted. When the
 * commit itself fails otherwise, the log decides: if it lists the files written, the version landed
 * before the store failed ({@link Outcome#COMMITTED}, with version -1); if it does not, they are
 * deleted ({@link Outcome#FAILED}); if the log cannot be read, they are kept ({@link
 * Outcome#UNKNOWN}), for garbage collection to delete if no version lists them. A failure never leaves a partial version:
 * a version holds all rewrites of its batch or does not exist.
 *
 * <p>Not thread-safe (it holds a {@link CommitLog}); one instance per thread, any number of
 * instances and processes may compact and append to the same dataset at once.
 */
public final class Compactor {
  /** The writer id of compaction's log entries. */
  public static final String WRITER_ID = "ktk-compaction";
  private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

  private final ObjectStore store;
  private final String uuid;
  private final CompactionSettings settings;
  private final CommitLog log;
  private final Clock clock;
  private final CompactionPlanner planner;
  /** The rewrite the last commit of {@link #compact} made, for the fold's view ({@link ViewFold}). */
  private DatasetChange lastCommitted;

  private Compactor(ObjectStore store, String uuid, CompactionSettings settings, CommitLog log, Clock clock) {
    this.store = store;
    this.uuid = uuid;
    this.settings = settings;
    this.log = log;
    this.clock = clock;
    this.planner = new CompactionPlanner(store, settings);
  }

  /**
   * Opens the commit log of dataset {@code uuid} for compaction.
   *
   * @throws NoSuchDatasetException when the dataset has neither a log nor plateau metadata
   */
  public static Compactor of(ObjectStore store, String uuid, CompactionSettings settings) throws IOException {
    return of(store, uuid, settings, Clock.systemUTC());
  }

  /** As {@link #of(ObjectStore, String, CompactionSettings)}, judging idle partitions by {@code clock}. */
  public static Compactor of(ObjectStore store, String uuid, CompactionSettings settings, Clock clock)
      throws IOException {
    requireNonNull(store, "store is null");
    requireNonNull(uuid, "uuid is null");
    requireNonNull(settings, "settings is null");
    requireNonNull(clock, "clock is null");
    CommitLog log = CommitLog.open(store, uuid, CommitLogOptions.DEFAULTS);
    if (!log.state().exists()) {
      throw new NoSuchDatasetException("Cannot compact dataset '" + uuid + "' in " + store.url()
          + ": it has neither a commit log nor plateau metadata");
    }
    return new Compactor(store, uuid, settings, log, clock);
  }

  /**
   * A compactor that commits through {@code log} (whose state it moves forward), for a caller that
   * keeps one log per dataset for several tasks (the sink's maintenance).
   */
  public static Compactor of(CommitLog log, CompactionSettings settings, Clock clock) {
    requireNonNull(log, "log is null");
    requireNonNull(settings, "settings is null");
    requireNonNull(clock, "clock is null");
    return new Compactor(log.store(), log.uuid(), settings, log, clock);
  }

  public String uuid() {
    return uuid;
  }

  /** The rewrite the last version {@link #compact} committed, or null when it committed none. */
  DatasetChange lastCommitted() {
    return lastCommitted;
  }

  public CompactionSettings settings() {
    return settings;
  }

  /** Plans the compaction of every partition against the latest version. */
  public CompactionPlan plan() throws IOException {
    return plan(partition -> true);
  }

  /**
   * Plans the compaction of the physical partitions ({@code p=1/q=a}) {@code partitions} accepts,
   * against the latest version.
   */
  public CompactionPlan plan(Predicate<String> partitions) throws IOException {
    requireNonNull(partitions, "partitions is null");
    log.refresh();
    return planner.plan(log.state(), partitions, clock.instant());
  }

  /**
   * Rewrites what {@code plan} lists and commits it, a version per batch of about {@link
   * CompactionSettings#maxBytesPerCommit()} bytes read. Conflicts and failures are reported in the
   * result (and logged), not thrown: each costs its batch, the other batches go on.
   */
  public CompactionResult compact(CompactionPlan plan) throws IOException {
    requireNonNull(plan, "plan is null");
    if (!plan.uuid().equals(uuid)) {
      throw new IllegalArgumentException("Cannot compact dataset '" + uuid + "' with a plan for '" + plan.uuid() + "'");
    }
    List<PartitionResult> results = new ArrayList<>();
    if (plan.isEmpty()) {
      return new CompactionResult(uuid, results);
    }
    RewriteLayout layout = RewriteLayout.of(log.refresh());
    OutputFileWriter writer = new OutputFileWriter(store, layout, settings.writeOptions());
    ExecutorService threads = settings.parallelism() > 1 ? Executors.newFixedThreadPool(settings.parallelism(),
        runnable -> {
          Thread thread = new Thread(runnable, "ktk-compaction-" + uuid);
          thread.setDaemon(true);
          return thread;
        }) : null;
    try {
      for (List<PartitionRewrite> batch : batches(plan.rewrites())) {
        results.addAll(rewrite(batch, layout, writer, threads));
      }
    } finally {
      if (threads != null) {
        threads.shutdownNow();
      }
    }
    return new CompactionResult(uuid, results);
  }

  /**
   * Publishes the plateau view of the latest version (after compacting from outside the sink, so
   * that plateau readers see the new files), folded first for a dataset with a primary key ({@link
   * ViewFold}); returns the version it shows.
   */
  public long publish() throws IOException {
    return ViewFold.publish(log, settings);
  }

  /** Consecutive rewrites of about {@code maxBytesPerCommit} bytes read each. */
  private List<List<PartitionRewrite>> batches(List<PartitionRewrite> rewrites) {
    List<List<PartitionRewrite>> batches = new ArrayList<>();
    List<PartitionRewrite> batch = new ArrayList<>();
    long bytes = 0;
    for (PartitionRewrite rewrite : rewrites) {
      batch.add(rewrite);
      bytes += rewrite.inputBytes();
      if (bytes >= settings.maxBytesPerCommit()) {
        batches.add(batch);
        batch = new ArrayList<>();
        bytes = 0;
      }
    }
    if (!batch.isEmpty()) {
      batches.add(batch);
    }
    return batches;
  }

  /** Writes the files of a batch and commits them as one version. */
  private List<PartitionResult> rewrite(List<PartitionRewrite> rewrites, RewriteLayout layout, OutputFileWriter writer,
      ExecutorService threads) {
    RewrittenBatch batch = new RewrittenBatch(store, uuid, rewrites);
    List<Future<WrittenFile>> futures = new ArrayList<>();
    List<PartitionRewrite> owners = new ArrayList<>();
    for (PartitionRewrite rewrite : rewrites) {
      List<String> fileIds = fileIds(rewrite.outputs().size());
      for (int o = 0; o < rewrite.outputs().size(); o++) {
        PlannedOutput output = rewrite.outputs().get(o);
        String fileId = fileIds.get(o);
        owners.add(rewrite);
        futures.add(submit(threads, () -> writer.write(output, fileId)));
      }
    }
    Exception failure = null;
    for (int i = 0; i < futures.size(); i++) {
      try {
        WrittenFile file = futures.get(i).get();
        if (file != null) {
          batch.add(owners.get(i), file);
        }
      } catch (ExecutionException e) {
        failure = addFailure(failure, e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure = addFailure(failure, e);
      }
    }
    if (failure != null) {
      LOG.warn("Compaction of dataset '{}' in {}: could not rewrite partitions {}; nothing committed", uuid,
          store.url(), batch.partitions(), failure);
      batch.deleteAll();
      return batch.results(Outcome.FAILED, -1, message(failure));
    }
    String gone;
    try {
      gone = batch.firstMissing();
    } catch (IOException | RuntimeException e) {
      gone = null;
      failure = e;
    }
    if (gone != null || failure != null) {
      // Garbage collection takes unreferenced files older than its safety age: a rewrite that took
      // longer must not commit references to what it deleted meanwhile (the inputs' rows would be lost).
      String message = gone != null
          ? "its output " + gone + " was deleted before the commit (garbage collection with a safety age "
              + "shorter than the rewrite took?)"
          : "cannot check its outputs before the commit: " + message(failure);
      LOG.warn("Compaction of dataset '{}' in {}: {}; nothing committed", uuid, store.url(), message);
      batch.deleteAll();
      return batch.results(Outcome.FAILED, -1, message);
    }
    return commit(batch, batch.change(layout).withWriterId(WRITER_ID));
  }

  private List<PartitionResult> commit(RewrittenBatch batch, DatasetChange change) {
    try {
      long version = log.commit(change).version();
      lastCommitted = change;
      LOG.info("Compaction of dataset '{}' in {}: version {} rewrote {} files ({} bytes) of {} partitions into {}",
          uuid, store.url(), version, batch.inputFiles(), batch.inputBytes(), batch.partitions().size(),
          batch.outputFiles());
      return batch.results(Outcome.COMMITTED, version, null);
    } catch (RewriteConflictException e) {
      LOG.info("Compaction of dataset '{}' in {} lost to a concurrent change: {}", uuid, store.url(), e.getMessage());
      batch.deleteAll();
      return batch.results(Outcome.CONFLICT, -1, e.getMessage());
    } catch (CommitStateUnknownException e) {
      LOG.warn("Compaction of dataset '{}' in {}: the commit's outcome is unknown; its files are kept", uuid,
          store.url(), e);
      return batch.results(Outcome.UNKNOWN, -1, e.getMessage());
    } catch (IOException | RuntimeException e) {
      // The failure may have struck after the version landed (the store wrote the entry, then failed
      // to answer): deleting files a version lists would lose its rows, so only the log decides.
      boolean landed;
      try {
        landed = batch.listedBy(log.refresh());
      } catch (IOException | RuntimeException unreadable) {
        e.addSuppressed(unreadable);
        LOG.warn("Compaction of dataset '{}' in {}: the commit failed and the log cannot be read to tell whether "
            + "it landed; its files are kept", uuid, store.url(), e);
        return batch.results(Outcome.UNKNOWN, -1, message(e));
      }
      if (landed) {
        lastCommitted = change;
        LOG.warn("Compaction of dataset '{}' in {}: the store failed after the commit landed", uuid, store.url(), e);
        return batch.results(Outcome.COMMITTED, -1, null);
      }
      LOG.warn("Compaction of dataset '{}' in {}: the commit failed; nothing committed", uuid, store.url(), e);
      batch.deleteAll();
      return batch.results(Outcome.FAILED, -1, message(e));
    }
  }

  private static Exception addFailure(Exception failure, Throwable cause) {
    Exception exception = cause instanceof Exception e ? e : new RuntimeException(cause);
    if (failure == null) {
      return exception;
    }
    failure.addSuppressed(exception);
    return failure;
  }

  private static String message(Exception e) {
    Throwable cause = e instanceof UncheckedIOException && e.getCause() != null ? e.getCause() : e;
    return cause.getMessage() != null ? cause.getMessage() : cause.toString();
  }

  private static Future<WrittenFile> submit(ExecutorService threads, Callable<WrittenFile> task) {
    if (threads != null) {
      return threads.submit(task);
    }
    FutureTask<WrittenFile> future = new FutureTask<>(task);
    future.run();
    return future;
  }

  /** {@code count} new file ids in ascending order: outputs of one run keep their order by label too. */
  private static List<String> fileIds(int count) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(PartitionLabel.newFileId());
    }
    ids.sort(null);
    return ids;
  }

  @Override
  public String toString() {
    return "Compactor{" + uuid + " in " + store.url() + "}";
  }
}
