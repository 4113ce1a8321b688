package io.ktk.flink.state.store;

import io.ktk.flink.state.ValidationException;

/** A store URL or store option that cannot work: unknown scheme, missing bucket, bad option. */
public class InvalidStoreUrlException extends ValidationException {
  private static final long serialVersionUID = 1L;

  public InvalidStoreUrlException(String message) {
    super(message);
  }

  public InvalidStoreUrlException(String message, Throwable cause) {
    super(message, cause);
  }
}
