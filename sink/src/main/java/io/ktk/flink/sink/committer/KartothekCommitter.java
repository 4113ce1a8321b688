package io.ktk.flink.sink.committer;

import io.ktk.flink.sink.KartothekSinkConfig;
import io.ktk.flink.sink.WriteMode;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkException;
import io.ktk.flink.state.ValidationException;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.CommitResult;
import io.ktk.flink.state.commit.PlateauPublisher;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits each checkpoint's {@link FileBatch} as one version of the dataset through the {@link
 * CommitLog} (append, or replace-partitions), then publishes the plateau view of the new version.
 *
 * <p>A commit carries the batch's writer id and checkpoint id, so a batch replayed after a
 * restore (its checkpoint completed, the job failed before or after its commit) is committed
 * when it is not in the log yet and acknowledged when it is. Batches arrive in checkpoint order,
 * one checkpoint per call; a failure is retried in place (Flink's committer retries, a short
 * pause between them) or fails the job, never skipped, since a later checkpoint committed first
 * would make the log take this one for a replay.
 *
 * <ul>
 *   <li>Store errors, lost races beyond the commit log's attempts and unknown commit states:
 *       retried; after Flink's retries the job fails over and the batch is replayed.
 *   <li>The batch breaks a rule against the dataset as committed now (another writer changed a
 *       column's type; a file is committed already): the job fails without restarts, because a
 *       replay would fail the same way.
 *   <li>Publishing fails after the commit: retried like a commit; the retry finds the commit in
 *       the log and publishes again.
 * </ul>
 */
public final class KartothekCommitter implements Committer<FileBatch> {
  private static final Logger LOG = LoggerFactory.getLogger(KartothekCommitter.class);
  private static final long MAX_PAUSE_MILLIS = 5_000;

  private final KartothekSinkConfig config;
  private final CommitterMetrics metrics;
  private ObjectStore store;
  private CommitLog log;
  private PlateauPublisher publisher;

  public KartothekCommitter(KartothekSinkConfig config, MetricGroup metricGroup) {
    this.config = config;
    this.metrics = new CommitterMetrics(metricGroup);
  }

  @Override
  public void commit(Collection<CommitRequest<FileBatch>> requests) throws IOException, InterruptedException {
    List<CommitRequest<FileBatch>> ordered = requests.stream()
        .sorted(Comparator.comparingLong(request -> request.getCommittable().checkpointId()))
        .toList();
    boolean heldBack = false;
    for (CommitRequest<FileBatch> request : ordered) {
      if (heldBack) {
        // A later checkpoint committed before an earlier one would make the log take the earlier
        // one, when it is retried, for a replay: it waits until the earlier one is committed.
        request.retryLater();
      } else {
        heldBack = !commit(request);
      }
    }
  }

  /** Commits one batch; false when it failed and is retried later. */
  private boolean commit(CommitRequest<FileBatch> request) throws InterruptedException {
    FileBatch batch = request.getCommittable();
    if (request.getNumberOfRetries() > 0) {
      Thread.sleep(Math.min(MAX_PAUSE_MILLIS, 50L << Math.min(request.getNumberOfRetries(), 10)));
    }
    long start = System.nanoTime();
    try {
      CommitLog commitLog = log();
      CommitResult result = commitLog.commit(toCommitRequest(batch));
      if (result.alreadyCommitted()) {
        LOG.info("Dataset '{}': {} was committed before; acknowledged", batch.dataset(), batch);
      } else {
        LOG.info("Dataset '{}': committed {} as version {}", batch.dataset(), batch, result.version());
      }
      long published = publisher.publish(commitLog);
      metrics.committed(published, (System.nanoTime() - start) / 1_000_000);
      if (result.alreadyCommitted()) {
        request.signalAlreadyCommitted();
      }
      return true;
    } catch (ValidationException | CorruptDatasetException e) {
      throw new SuppressRestartsException(e);
    } catch (IOException | KtkException e) {
      LOG.warn("Dataset '{}': cannot commit {} (attempt {}); retrying", batch.dataset(), batch,
          request.getNumberOfRetries() + 1, e);
      reset();
      request.retryLater();
      return false;
    }
  }

  /** The change a batch makes (the name {@code CommitRequest} is Flink's here). */
  private io.ktk.flink.state.commit.CommitRequest toCommitRequest(FileBatch batch) {
    var change = config.writeMode() == WriteMode.REPLACE_PARTITIONS
        ? io.ktk.flink.state.commit.CommitRequest.replacePartitions(batch.partitionColumns(), batch.schema(),
            batch.files(), batch.partitions())
        : io.ktk.flink.state.commit.CommitRequest.append(batch.partitionColumns(), batch.schema(), batch.files());
    return change
        .withIndex(batch.indexColumns(), batch.index())
        .withWriter(batch.writerId(), batch.checkpointId());
  }

  private CommitLog log() throws IOException {
    if (log == null) {
      store = config.store().open();
      log = CommitLog.open(store, config.dataset(), CommitLogOptions.DEFAULTS);
      publisher = new PlateauPublisher();
    }
    return log;
  }

  /** After a failure, the next attempt reads the log afresh. */
  private void reset() {
    try {
      close();
    } catch (IOException | RuntimeException e) {
      LOG.warn("Cannot close the store of dataset '{}'", config.dataset(), e);
    }
  }

  @Override
  public void close() throws IOException {
    log = null;
    publisher = null;
    if (store != null) {
      ObjectStore closing = store;
      store = null;
      closing.close();
    }
  }
}
