package io.ktk.flink.ingest;

import io.ktk.flink.state.KtkException;

/**
 * The ingest job failed: for a reason that is not one of the project's own exceptions, or for one
 * that is (its cause), with what the ingest committed before and how to go on.
 */
public final class IngestFailedException extends KtkException {
  private static final long serialVersionUID = 1L;

  public IngestFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
