package io.ktk.flink.sink.committer;

import io.ktk.flink.sink.compaction.CompactionSettings;
import io.ktk.flink.sink.compaction.ViewFold;
import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.PublishedViewCheck;
import io.ktk.flink.state.store.ObjectStore;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the plateau views of the committer's datasets on a thread of its own, so that commits
 * never wait for a publication (which costs what the whole dataset costs: its metadata JSON lists
 * every file). The committer {@linkplain #committed signals} each commit; the publisher publishes
 * the latest version of each signalled dataset, at most once per {@code publish.min-interval},
 * so the view converges to the latest version. Each dataset has its own {@link CommitLog} here,
 * sharing its {@link PublishedViewCheck} with the committer's, so neither takes the other's view
 * for another writer's.
 *
 * <p>The view of a dataset with a primary key is folded before it is published ({@link ViewFold}):
 * its partitions with change files are rewritten into files of one row per key, off the commit path.
 *
 * <p>A failed publication is logged and counted and tried again (after a pause) until it succeeds
 * or the committer closes; it loses nothing, since the commits are in the log. {@link #close}
 * publishes what is pending and waits for it, so that a finished bounded job leaves the view at its
 * last version.
 */
final class ViewPublisher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ViewPublisher.class);
  private static final long RETRY_PAUSE_MILLIS = 1_000;
  private static final long CLOSE_TIMEOUT_MILLIS = 5 * 60_000;

  private final ObjectStoreFactory storeFactory;
  private ObjectStore store;
  private final Function<String, PublishedViewCheck> viewChecks;
  private final Function<String, Duration> minIntervals;
  /** Per dataset, how a fold before its publication writes files ({@link ViewFold}, datasets with a primary key). */
  private final Function<String, CompactionSettings> foldSettings;
  private final Clock clock;
  private final CommitterMetrics metrics;
  private final Map<String, CommitLog> logs = new HashMap<>();
  /** When each dataset's view was last published (clock millis). */
  private final Map<String, Long> lastPublished = new HashMap<>();
  /** Datasets committed since their last publication; guarded by {@code this}. */
  private final Set<String> pending = new LinkedHashSet<>();
  private final Thread thread;
  private boolean closing;
  private boolean busy;

  ViewPublisher(ObjectStoreFactory store, Function<String, PublishedViewCheck> viewChecks,
      Function<String, Duration> minIntervals, Function<String, CompactionSettings> foldSettings, Clock clock,
      CommitterMetrics metrics, String name) {
    this.storeFactory = store;
    this.viewChecks = viewChecks;
    this.minIntervals = minIntervals;
    this.foldSettings = foldSettings;
    this.clock = clock;
    this.metrics = metrics;
    this.thread = new Thread(this::run, "Kartothek publisher: " + name);
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** A new version of {@code dataset} was committed; its view will be published. */
  synchronized void committed(String dataset) {
    pending.add(dataset);
    notifyAll();
  }

  /**
   * Waits until no view is being published and none is due (views held back by {@code
   * publish.min-interval} may be pending); for tests.
   */
  synchronized boolean awaitIdle(long timeoutMillis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    while ((nextDue() != null || busy) && thread.isAlive()) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        return false;
      }
      wait(Math.min(left, 100));
    }
    return nextDue() == null && !busy;
  }

  private void run() {
    while (true) {
      String dataset;
      synchronized (this) {
        dataset = nextDue();
        while (dataset == null) {
          if (closing && pending.isEmpty()) {
            notifyAll();
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
        busy = true;
      }
      boolean published = publish(dataset);
      synchronized (this) {
        busy = false;
        if (!published && !closing) {
          pending.add(dataset);
        }
        notifyAll();
      }
      if (!published && !closing) {
        pause();
      }
    }
  }

  /** A pending dataset whose interval has passed (all of them when closing), or null. */
  private String nextDue() {
    long now = clock.millis();
    for (String dataset : pending) {
      Long last = lastPublished.get(dataset);
      if (closing || last == null || now - last >= minIntervals.apply(dataset).toMillis()) {
        return dataset;
      }
    }
    return null;
  }

  private long waitMillis() {
    if (pending.isEmpty()) {
      return 0; // until signalled
    }
    long now = clock.millis();
    long soonest = Long.MAX_VALUE;
    for (String dataset : pending) {
      Long last = lastPublished.get(dataset);
      long due = last == null ? now : last + minIntervals.apply(dataset).toMillis();
      soonest = Math.min(soonest, due - now);
    }
    return Math.max(1, Math.min(soonest, 1_000));
  }

  private boolean publish(String dataset) {
    long start = System.nanoTime();
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
      long version = ViewFold.publish(log, foldSettings.apply(dataset)); // a plain publish without a primary key
      lastPublished.put(dataset, clock.millis());
      metrics.published(version, (System.nanoTime() - start) / 1_000_000);
      LOG.debug("Dataset '{}': published the view of version {}", dataset, version);
      return true;
    } catch (Exception e) {
      logs.remove(dataset); // read the log afresh next time
      metrics.publishFailed();
      LOG.warn("Cannot publish the view of dataset '{}'; trying again (commits are unaffected)", dataset, e);
      return false;
    }
  }

  private void pause() {
    try {
      TimeUnit.MILLISECONDS.sleep(RETRY_PAUSE_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Publishes what is pending (whatever the interval), then stops; gives up after a timeout. */
  @Override
  public void close() throws InterruptedException {
    synchronized (this) {
      closing = true;
      notifyAll();
    }
    thread.join(CLOSE_TIMEOUT_MILLIS);
    if (thread.isAlive()) {
      LOG.warn("The publisher did not finish within {} ms; pending views: {} (the next publication of any "
          + "writer catches up)", CLOSE_TIMEOUT_MILLIS, pending);
      thread.interrupt();
      thread.join(CLOSE_TIMEOUT_MILLIS);
    }
    if (store != null) {
      try {
        store.close();
      } catch (Exception e) {
        LOG.warn("Cannot close the publisher's store", e);
      }
    }
  }
}
