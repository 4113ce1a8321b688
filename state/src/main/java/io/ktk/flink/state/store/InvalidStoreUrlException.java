package io.ktk.flink.state.store;

import io.ktk.flink.state.KtkValidationException;

/** A store URL or store option that cannot work: unknown scheme, missing bucket, bad option. */
public class InvalidStoreUrlException extends KtkValidationException {
  private static final long serialVersionUID = 1L;

  public InvalidStoreUrlException(String message) {
    super(message);
  }

  public InvalidStoreUrlException(String message, Throwable cause) {
    super(message, cause);
  }
}
