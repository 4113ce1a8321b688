package io.ktk.flink.state.commit;

import io.ktk.flink.state.KtkException;

/**
 * A commit lost the race for a version more often than allowed, or conflicts with what another
 * writer committed (a dataset created concurrently with other partition keys). Nothing of this
 * commit is visible; retrying later may succeed.
 */
public class CommitConflictException extends KtkException {
  private static final long serialVersionUID = 1L;

  public CommitConflictException(String message) {
    super(message);
  }
}
