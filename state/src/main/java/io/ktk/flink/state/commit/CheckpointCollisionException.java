package io.ktk.flink.state.commit;

import io.ktk.flink.state.KtkValidationException;

/**
 * A commit claims a writer's checkpoint that the log holds already, with other files: it is not a
 * replay of that checkpoint, and acknowledging it as one would lose its rows. Nothing is committed;
 * retrying cannot help, since the log's record of the checkpoint does not change.
 */
public final class CheckpointCollisionException extends KtkValidationException {
  private static final long serialVersionUID = 1L;

  public CheckpointCollisionException(String message) {
    super(message);
  }
}
