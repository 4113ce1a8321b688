package io.ktk.flink.state.dataset;

import io.ktk.flink.state.KtkValidationException;

/** A dataset (or a version of it) that does not exist in the store was asked for. */
public class NoSuchDatasetException extends KtkValidationException {
  private static final long serialVersionUID = 1L;

  public NoSuchDatasetException(String message) {
    super(message);
  }
}
