package io.ktk.flink.sink.committer;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.sink.committable.FileBatch;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * Before a batch is committed, checks that its part files still exist. Garbage collection deletes
 * files that no version references once they are older than its safety age; a job that was down
 * longer than that and restores its last checkpoint, or one whose files GC deleted with too short
 * an age, would otherwise commit references to deleted files. A batch younger than the threshold
 * ({@code commit.verify-files-older-than}, 0 by default: none) is committed without a request to
 * the store; any other costs one HEAD request per file, {@value #PARALLEL_HEADS} at a time. A
 * batch its dataset's log already holds is not checked: its files are referenced (or were removed
 * by later versions on purpose), and it is only acknowledged.
 */
final class PartFileCheck {
  static final int PARALLEL_HEADS = 8;
  private static final ExecutorService HEADS = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "Kartothek part file check");
    thread.setDaemon(true);
    return thread;
  });
  private final Clock clock;

  PartFileCheck(Clock clock) {
    this.clock = requireNonNull(clock, "clock is null");
  }

  /**
   * @param cube the cube whose transaction the batch is part of, or null, for the message
   * @throws MissingPartFilesException when files of the batch are missing
   */
  void verify(ObjectStore store, CommitLog log, FileBatch batch, Duration olderThan, String cube)
      throws IOException {
    Duration age = batch.writtenAtMillis() == FileBatch.UNKNOWN_WRITE_TIME
        ? null
        : Duration.ofMillis(clock.millis() - batch.writtenAtMillis());
    if (age != null && age.compareTo(olderThan) < 0) {
      return;
    }
    // The committer reads its logs when it opens them and moves them forward with every commit, and
    // only this job commits its checkpoints: the state it has tells whether the batch is a replay.
    if (log.state().hasCommitted(batch.writerId(), batch.checkpointId())) {
      return;
    }
    List<String> missing = missing(store, batch);
    if (!missing.isEmpty()) {
      throw new MissingPartFilesException(batch.dataset(), batch.checkpointId(), missing, batch.files().size(), age,
          cube);
    }
  }

  /** The keys of the batch's files that do not exist, in the batch's order. */
  private static List<String> missing(ObjectStore store, FileBatch batch) throws IOException {
    List<String> keys = batch.files().stream().map(file -> file.key(batch.dataset())).toList();
    List<String> missing = new ArrayList<>();
    if (keys.size() <= 2) {
      for (String key : keys) {
        if (store.head(key).isEmpty()) {
          missing.add(key);
        }
      }
      return missing;
    }
    List<Future<Boolean>> exists = new ArrayList<>();
    Semaphore slots = new Semaphore(PARALLEL_HEADS);
    try {
      for (String key : keys) {
        slots.acquire();
        exists.add(HEADS.submit(() -> {
          try {
            return store.head(key).isPresent();
          } finally {
            slots.release();
          }
        }));
      }
      for (int i = 0; i < keys.size(); i++) {
        if (!exists.get(i).get()) {
          missing.add(keys.get(i));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while checking the files of " + batch);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof IOException io ? io : new IOException("Cannot check the files of " + batch, e);
    }
    return missing;
  }
}
