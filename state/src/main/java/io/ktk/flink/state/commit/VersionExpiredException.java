package io.ktk.flink.state.commit;

import io.ktk.flink.state.KtkException;

/**
 * A version older than the log's retention was asked for (time travel, a pinned read): its entries
 * and snapshots were deleted by expiry. The message names the oldest version still retained.
 */
public final class VersionExpiredException extends KtkException {
  private static final long serialVersionUID = 1L;
  private final long retainedFrom;

  public VersionExpiredException(String message, long retainedFrom) {
    super(message);
    this.retainedFrom = retainedFrom;
  }

  /** The oldest version that can still be read. */
  public long retainedFrom() {
    return retainedFrom;
  }
}
