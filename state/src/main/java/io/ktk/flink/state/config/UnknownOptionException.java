package io.ktk.flink.state.config;

import io.ktk.flink.state.KtkValidationException;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;

/** An option key that the component it was given to does not accept, probably misspelt. */
@PublicEvolving
public class UnknownOptionException extends KtkValidationException {
  private static final long serialVersionUID = 1L;

  private final String key;
  private final String closest;

  public UnknownOptionException(String key, String closest, String message) {
    super(message);
    this.key = key;
    this.closest = closest;
  }

  /** The unknown key. */
  public String key() {
    return key;
  }

  /** The accepted key it is probably a typo of. */
  public Optional<String> closest() {
    return Optional.ofNullable(closest);
  }
}
