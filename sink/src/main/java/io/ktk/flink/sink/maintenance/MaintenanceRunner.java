package io.ktk.flink.sink.maintenance;

import io.ktk.flink.sink.compaction.CompactionPlan;
import io.ktk.flink.sink.compaction.CompactionResult;
import io.ktk.flink.sink.compaction.Compactor;
import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.GarbageCollector;
import io.ktk.flink.state.commit.LogExpiry;
import io.ktk.flink.state.commit.PublishedViewCheck;
import io.ktk.flink.state.store.ObjectStore;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the datasets a sink writes healthy while the job runs, on a thread of the committer's
 * side: after a commit, at most once per {@code maintenance.interval} per dataset (and not before
 * that interval has passed since the committer started, so that short jobs are not compacted
 * under their feet), it
 *
 * <ol>
 *   <li>compacts the dataset's small files ({@link Compactor}; rewrites commute with the sink's
 *       appends, and a rewrite that loses to another is dropped),
 *   <li>expires log versions older than the retention ({@link LogExpiry}),
 *   <li>deletes files nothing references any more that are older than the GC age ({@link
 *       GarbageCollector}),
 * </ol>
 *
 * and asks for the view to be published when a compaction committed. It never blocks or fails a
 * checkpoint: its failures are logged and counted ({@link MaintenanceMetrics}), and the next run
 * tries again. Each dataset has one {@link CommitLog} here, sharing its {@link PublishedViewCheck}
 * with the committer's.
 */
@Internal
public final class MaintenanceRunner implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MaintenanceRunner.class);
  private static final long CLOSE_TIMEOUT_MILLIS = 30_000;

  private final ObjectStoreFactory storeFactory;
  private final MaintenanceSettings settings;
  private final Function<String, PublishedViewCheck> viewChecks;
  private final Consumer<String> republish;
  private final Clock clock;
  private final MaintenanceMetrics metrics;
  private final Map<String, CommitLog> logs = new HashMap<>();
  /** When each dataset was last maintained (clock millis); the committer's start for a new one. */
  private final Map<String, Long> lastRun = new HashMap<>();
  private final long startedMillis;
  /** Datasets committed since their last run; guarded by {@code this}. */
  private final Set<String> pending = new LinkedHashSet<>();
  private final Thread thread;
  private ObjectStore store;
  private boolean closing;

  /**
   * @param republish asks for a dataset's view to be published (after a compaction changed its files)
   */
  public MaintenanceRunner(ObjectStoreFactory storeFactory, MaintenanceSettings settings,
      Function<String, PublishedViewCheck> viewChecks, Consumer<String> republish, Clock clock, MetricGroup metrics,
      String name) {
    this.storeFactory = storeFactory;
    this.settings = settings;
    this.viewChecks = viewChecks;
    this.republish = republish;
    this.clock = clock;
    this.metrics = new MaintenanceMetrics(metrics, clock);
    this.startedMillis = clock.millis();
    this.thread = new Thread(this::run, "Kartothek maintenance: " + name);
    this.thread.setDaemon(true);
    this.thread.setPriority(Thread.NORM_PRIORITY - 1);
    this.thread.start();
  }

  /** A new version of {@code dataset} was committed. */
  public synchronized void committed(String dataset) {
    pending.add(dataset);
    notifyAll();
  }

  private void run() {
    while (true) {
      String dataset;
      synchronized (this) {
        dataset = nextDue();
        while (dataset == null) {
          if (closing) {
            return;
          }
          try {
            wait(waitMillis());
          } catch (InterruptedException e) {
            return;
          }
          dataset = nextDue();
        }
        pending.remove(dataset);
      }
      maintain(dataset);
      lastRun.put(dataset, clock.millis());
    }
  }

  /** A committed dataset whose interval has passed, or null. */
  private String nextDue() {
    if (closing) {
      return null;
    }
    long now = clock.millis();
    for (String dataset : pending) {
      if (now - lastRun.getOrDefault(dataset, startedMillis) >= settings.interval().toMillis()) {
        return dataset;
      }
    }
    return null;
  }

  private long waitMillis() {
    return pending.isEmpty() ? 0 : 1_000;
  }

  /** One run over one dataset; every step is tried, whatever the one before did. */
  void maintain(String dataset) {
    try {
      if (store == null) {
        store = storeFactory.open();
      }
      CommitLog log = logs.get(dataset);
      if (log == null) {
        log = CommitLog.open(store, dataset, CommitLogOptions.DEFAULTS, viewChecks.apply(dataset));
        logs.put(dataset, log);
      } else {
        log.refresh();
      }
      if (settings.compaction() != null) {
        compact(log);
      }
      Instant now = clock.instant();
      if (settings.expireOlderThan() != null) {
        LogExpiry.Result expired = LogExpiry.expire(log, settings.expireOlderThan(), settings.retainLast(), now, false);
        metrics.expired(expired.deleted().size());
      }
      if (settings.gcOlderThan() != null) {
        GarbageCollector.Result collected = GarbageCollector.collect(store, dataset, settings.gcOlderThan(), now, false);
        metrics.collected(collected.deleted().size());
      }
    } catch (Exception e) {
      metrics.failed();
      logs.remove(dataset); // read it afresh next time
      LOG.warn("Maintenance of dataset '{}' failed; the job goes on and the next run tries again", dataset, e);
    }
  }

  private void compact(CommitLog log) throws java.io.IOException {
    Compactor compactor = Compactor.of(log, settings.compaction(), clock);
    CompactionPlan plan = compactor.plan();
    if (plan.isEmpty()) {
      return;
    }
    CompactionResult result = compactor.compact(plan);
    metrics.compacted(result);
    if (!result.committed().isEmpty()) {
      LOG.info("Dataset '{}': compaction rewrote {} files ({} bytes) into {}", log.uuid(), result.filesCompacted(),
          result.bytesCompacted(), result.filesWritten());
      republish.accept(log.uuid());
    }
  }

  /** Stops: a run under way is interrupted after a grace period (its files become garbage). */
  @Override
  public void close() throws InterruptedException {
    synchronized (this) {
      closing = true;
      notifyAll();
    }
    thread.join(CLOSE_TIMEOUT_MILLIS);
    if (thread.isAlive()) {
      thread.interrupt();
      thread.join(CLOSE_TIMEOUT_MILLIS);
    }
    if (store != null) {
      try {
        store.close();
      } catch (Exception e) {
        LOG.warn("Cannot close the maintenance's store", e);
      }
    }
  }
}
