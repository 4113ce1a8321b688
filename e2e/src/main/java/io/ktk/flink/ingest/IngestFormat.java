package io.ktk.flink.ingest;

/**
 * The text formats {@code ktk ingest} reads: a record is one line of JSON, or one CSV record (RFC
 * 4180: a line, or several when a quoted field holds line breaks) after a header row.
 */
public enum IngestFormat {
  JSONL,
  CSV;

  /** Whether a line break inside double quotes belongs to the record (CSV) or ends it (JSON lines). */
  public boolean quotedLineBreaks() {
    return this == CSV;
  }
}
