package io.ktk.flink.benchmarks.longrun;

import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.PublishedViewCheck;
import io.ktk.flink.state.store.ObjectStore;

/**
 * The publisher of the simulated job: a thread with its own {@link CommitLog} that publishes the
 * plateau view of the latest version whenever the committer signals a new one, as the sink's
 * publisher thread does with {@code publish.min-interval} 0: commits never wait for it, and
 * signals that arrive while it publishes are served by one publication of the latest version.
 */
final class BackgroundPublisher implements AutoCloseable {
  private final ObjectStore store;
  private final String uuid;
  private final PublishedViewCheck viewCheck;
  private final Latencies times;
  private final Thread thread;
  private long requested = -1;
  private long published = -1;
  private long publications;
  private Throwable failure;
  private boolean closed;

  BackgroundPublisher(ObjectStore store, String uuid, PublishedViewCheck viewCheck, Latencies times) {
    this.store = store;
    this.uuid = uuid;
    this.viewCheck = viewCheck;
    this.times = times;
    this.thread = new Thread(this::run, "simulated-publisher");
    thread.setDaemon(true);
    thread.start();
  }

  /** Asks for the view of version {@code version} (or a later one). */
  synchronized void signal(long version) {
    if (failure != null) {
      throw new IllegalStateException("The publisher failed", failure);
    }
    requested = Math.max(requested, version);
    notifyAll();
  }

  /** Asks for the view of the latest version, whatever it is (after maintenance committed). */
  synchronized void signalLatest() {
    requested = Math.max(requested, published + 1);
    notifyAll();
  }

  /** Waits until the published view shows {@code version} or a later one. */
  synchronized void awaitPublished(long version) throws InterruptedException {
    while (published < version && failure == null) {
      wait();
    }
    if (failure != null) {
      throw new IllegalStateException("The publisher failed", failure);
    }
  }

  /** Publications made so far. */
  synchronized long publications() {
    return publications;
  }

  private void run() {
    CommitLog log = null;
    try {
      while (true) {
        synchronized (this) {
          while (requested <= published && !closed) {
            wait();
          }
          if (closed) {
            return;
          }
        }
        long start = System.nanoTime();
        if (log == null) {
          log = CommitLog.open(store, uuid, CommitLogOptions.DEFAULTS, viewCheck);
        } else {
          log.refresh();
        }
        long version = log.publish();
        times.add(System.nanoTime() - start);
        synchronized (this) {
          published = Math.max(published, version);
          publications++;
          notifyAll();
        }
      }
    } catch (Throwable e) {
      synchronized (this) {
        failure = e;
        notifyAll();
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    synchronized (this) {
      closed = true;
      notifyAll();
    }
    thread.join();
  }
}
