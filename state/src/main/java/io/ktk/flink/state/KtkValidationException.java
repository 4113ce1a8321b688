package io.ktk.flink.state;

/**
 * The input offered to a dataset breaks one of its rules: a type that is incompatible with the
 * committed schema, a null key, a timestamp that would lose precision, a cube rule. The caller's
 * data or configuration must change; retrying does not help.
 *
 * <p>The message names the dataset, the column, the offending value or type, and the rule.
 */
public class KtkValidationException extends KtkException {
  private static final long serialVersionUID = 1L;

  public KtkValidationException(String message) {
    super(message);
  }

  public KtkValidationException(String message, Throwable cause) {
    super(message, cause);
  }
}
