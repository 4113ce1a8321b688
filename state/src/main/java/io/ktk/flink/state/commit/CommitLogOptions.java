package io.ktk.flink.state.commit;

import java.time.Duration;

/**
 * Tuning of the commit protocol.
 *
 * @param snapshotInterval a full state snapshot is written every this many versions, so a reader
 *     replays at most this many entries
 * @param maxAttempts how many versions one commit tries before {@link CommitConflictException}
 * @param maxBackoff upper bound of the random pause after a lost race, which spreads out writers
 *     that keep colliding
 */
public record CommitLogOptions(int snapshotInterval, int maxAttempts, Duration maxBackoff) {
  public static final CommitLogOptions DEFAULTS = new CommitLogOptions(100, 1000, Duration.ofMillis(50));

  public CommitLogOptions {
    if (snapshotInterval < 1) {
      throw new IllegalArgumentException("snapshotInterval must be at least 1: " + snapshotInterval);
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1: " + maxAttempts);
    }
    if (maxBackoff.isNegative()) {
      throw new IllegalArgumentException("maxBackoff is negative: " + maxBackoff);
    }
  }

  public CommitLogOptions withSnapshotInterval(int interval) {
    return new CommitLogOptions(interval, maxAttempts, maxBackoff);
  }
}
