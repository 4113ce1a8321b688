package io.ktk.flink.ingest.source;

import static java.util.Objects.requireNonNull;

/**
 * One record of an input file as text, with the line it starts on (1-based), for messages and
 * dead letters.
 *
 * @param encodingError null for a record of valid UTF-8; otherwise why it is not (its {@code text}
 *     then has U+FFFD in place of the malformed bytes, for the dead letter), and the record is
 *     refused
 */
public record InputRecord(long line, String text, String encodingError) {
  public InputRecord {
    requireNonNull(text, "text is null");
    if (line < 1) {
      throw new IllegalArgumentException("line must be positive: " + line);
    }
  }

  /** A record of valid UTF-8. */
  public InputRecord(long line, String text) {
    this(line, text, null);
  }
}
