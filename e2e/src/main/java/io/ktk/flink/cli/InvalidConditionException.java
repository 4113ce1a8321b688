package io.ktk.flink.cli;

import io.ktk.flink.state.ValidationException;

/** A {@code --where} expression that cannot be parsed or does not fit the dataset's columns. */
public class InvalidConditionException extends ValidationException {
  private static final long serialVersionUID = 1L;

  public InvalidConditionException(String message) {
    super(message);
  }
}
