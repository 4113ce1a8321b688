package io.ktk.flink.state;

/**
 * Stored data cannot be understood: truncated or malformed metadata, an unknown format version,
 * a missing required file, an index of the wrong type. The message names the object (store key)
 * and what is wrong with it. Nothing is written on the way to this exception.
 */
public class CorruptDatasetException extends KtkException {
  private static final long serialVersionUID = 1L;

  public CorruptDatasetException(String message) {
    super(message);
  }

  public CorruptDatasetException(String message, Throwable cause) {
    super(message, cause);
  }
}
