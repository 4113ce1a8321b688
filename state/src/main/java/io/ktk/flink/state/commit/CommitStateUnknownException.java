package io.ktk.flink.state.commit;

import io.ktk.flink.state.KtkException;

/**
 * The store failed while a version was being claimed and could not be asked afterwards whether
 * the claim landed. The commit may or may not be visible: do not clean up its files. Replaying the
 * same (writer id, checkpoint id) later is safe: it is acknowledged if it landed.
 */
public class CommitStateUnknownException extends KtkException {
  private static final long serialVersionUID = 1L;

  public CommitStateUnknownException(String message, Throwable cause) {
    super(message, cause);
  }
}
