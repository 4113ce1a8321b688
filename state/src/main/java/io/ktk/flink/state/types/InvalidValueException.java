package io.ktk.flink.state.types;

import io.ktk.flink.state.KtkValidationException;

/**
 * A single value cannot be written as offered: a timestamp that would lose precision or leaves
 * the microsecond range, a null in a key column, values of two types in one column. The message
 * names the dataset (where known), the column, the value and the rule it breaks.
 */
public class InvalidValueException extends KtkValidationException {
  private static final long serialVersionUID = 1L;

  public InvalidValueException(String message) {
    super(message);
  }
}
