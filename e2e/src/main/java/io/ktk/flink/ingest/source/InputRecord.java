package io.ktk.flink.ingest.source;

import static java.util.Objects.requireNonNull;

/**
 * One record of an input file as text, with the line it starts on (1-based), for messages and
 * dead letters.
 */
public record InputRecord(long line, String text) {
  public InputRecord {
    requireNonNull(text, "text is null");
    if (line < 1) {
      throw new IllegalArgumentException("line must be positive: " + line);
    }
  }
}
