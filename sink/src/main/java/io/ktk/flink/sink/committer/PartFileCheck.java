package io.ktk.flink.sink.committer;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.sink.committable.FileBatch;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Before an old batch is committed, checks that its part files still exist. Garbage collection
 * deletes files that no version references once they are older than its safety age; a job that
 * was down longer than that and restores its last checkpoint would otherwise commit references to
 * deleted files. A batch younger than the threshold ({@code commit.verify-files-older-than}) is
 * committed without a request to the store; an older one, or one that does not know its age
 * (restored from a version 1 checkpoint), costs one HEAD request per file. A batch its dataset's
 * log already holds is not checked: its files are referenced (or were removed by later versions on
 * purpose), and it is only acknowledged.
 */
final class PartFileCheck {
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
    if (log.refresh().hasCommitted(batch.writerId(), batch.checkpointId())) {
      return;
    }
    List<String> missing = new ArrayList<>();
    for (DataFile file : batch.files()) {
      String key = file.key(batch.dataset());
      if (store.head(key).isEmpty()) {
        missing.add(key);
      }
    }
    if (!missing.isEmpty()) {
      throw new MissingPartFilesException(batch.dataset(), batch.checkpointId(), missing, batch.files().size(), age,
          cube);
    }
  }
}
