package io.ktk.flink.ingest;

import java.util.Arrays;
import java.util.Locale;

/**
 * The text formats {@code ktk ingest} reads: a record is one line of JSON, or one CSV record (RFC
 * 4180: a line, or several when a quoted field holds line breaks) after a header row, or one line
 * holding a change envelope of Flink's {@code debezium-json} or {@code canal-json} format (a
 * changelog, for a dataset with a primary key: {@code docs/cdc.md}).
 */
public enum IngestFormat {
  JSONL,
  CSV,
  DEBEZIUM_JSON,
  CANAL_JSON;

  /** Whether a line break inside double quotes belongs to the record (CSV) or ends it (JSON lines). */
  public boolean quotedLineBreaks() {
    return this == CSV;
  }

  /** Whether the records are changes (inserts, updates, deletes) rather than rows. */
  public boolean isChangelog() {
    return this == DEBEZIUM_JSON || this == CANAL_JSON;
  }

  /**
   * Whether each valid record becomes exactly one row written (so that records read, rows committed
   * and records rejected add up): not for canal-json, whose messages hold any number of rows.
   */
  public boolean oneRowPerRecord() {
    return this != CANAL_JSON;
  }

  /** The name on the command line: {@code jsonl}, {@code csv}, {@code debezium-json}, {@code canal-json}. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The format named {@code name} on the command line. @throws IllegalArgumentException naming the formats */
  public static IngestFormat ofCliName(String name) {
    for (IngestFormat format : values()) {
      if (format.cliName().equalsIgnoreCase(name)) {
        return format;
      }
    }
    throw new IllegalArgumentException("'" + name + "' is not one of "
        + String.join(", ", Arrays.stream(values()).map(IngestFormat::cliName).toList()));
  }
}
