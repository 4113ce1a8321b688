package io.ktk.flink.sink.committer;

import io.ktk.flink.sink.committable.FileBatch;
import org.apache.flink.api.connector.sink2.Committer;

/**
 * Flink's view of one committable in the committer, as a test double recording what the
 * committer tells it (retries, already committed); a failure signal fails the test.
 */
public final class RecordingCommitRequest implements Committer.CommitRequest<FileBatch> {
  public final FileBatch batch;
  public int retries;
  public boolean alreadyCommitted;

  public RecordingCommitRequest(FileBatch batch) {
    this.batch = batch;
  }

  @Override
  public FileBatch getCommittable() {
    return batch;
  }

  @Override
  public int getNumberOfRetries() {
    return retries;
  }

  @Override
  public void signalFailedWithKnownReason(Throwable t) {
    throw new AssertionError("failed", t);
  }

  @Override
  public void signalFailedWithUnknownReason(Throwable t) {
    throw new AssertionError("failed", t);
  }

  @Override
  public void retryLater() {
    retries++;
  }

  @Override
  public void updateAndRetryLater(FileBatch committable) {
    throw new AssertionError("not expected");
  }

  @Override
  public void signalAlreadyCommitted() {
    alreadyCommitted = true;
  }
}
