package io.ktk.flink.state.dataset;

import io.ktk.flink.state.ValidationException;

/** A dataset (or a version of it) that does not exist in the store was asked for. */
public class NoSuchDatasetException extends ValidationException {
  private static final long serialVersionUID = 1L;

  public NoSuchDatasetException(String message) {
    super(message);
  }
}
