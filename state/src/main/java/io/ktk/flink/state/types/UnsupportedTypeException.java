package io.ktk.flink.state.types;

import io.ktk.flink.state.KtkValidationException;

/**
 * A column has a type that has no place in the Kartothek type system: a Flink {@code MULTISET},
 * {@code MAP} or {@code RAW} type on the way in, or an Arrow map, union or interval on the way
 * out. The message names the column (a path such as {@code r.m} or {@code tags[]} for nested
 * fields) and the type.
 */
public class UnsupportedTypeException extends KtkValidationException {
  private static final long serialVersionUID = 1L;

  public UnsupportedTypeException(String message) {
    super(message);
  }
}
