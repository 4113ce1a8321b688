package io.ktk.flink.ingest;

import io.ktk.flink.state.KtkValidationException;

/**
 * A value of an input record that cannot become a value of its column's declared type, or a
 * record that cannot be parsed at all. The message is the reason without the line, e.g. {@code
 * column 'a' holds "x", which is not a BIGINT (an integer)}; {@link RecordParser} adds the line.
 */
public final class InvalidRecordException extends KtkValidationException {
  private static final long serialVersionUID = 1L;

  public InvalidRecordException(String message) {
    super(message);
  }

  /** A value of {@code column} (a path such as {@code r.x} or {@code l[2]} for nested values) breaks {@code rule}. */
  static InvalidRecordException of(String column, String value, String rule) {
    return new InvalidRecordException("column '" + column + "' holds " + shorten(value) + ", which " + rule);
  }

  static String shorten(String value) {
    return value.length() <= 80 ? value : value.substring(0, 77) + "...";
  }
}
