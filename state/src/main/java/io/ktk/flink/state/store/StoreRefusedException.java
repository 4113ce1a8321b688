package io.ktk.flink.state.store;

import java.io.IOException;

/**
 * The store refused a request for a reason that trying again cannot fix: access denied, unknown
 * or wrong credentials, or a bucket that does not exist. Jobs fail at once on it instead of
 * restarting; the fix is in the configuration (keys, the role's policy, the bucket's name).
 */
public class StoreRefusedException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String errorCode;

  public StoreRefusedException(String message, String errorCode, Throwable cause) {
    super(message, cause);
    this.errorCode = errorCode;
  }

  /** The store's own name for the refusal, e.g. {@code AccessDenied} or {@code NoSuchBucket}. */
  public String errorCode() {
    return errorCode;
  }
}
