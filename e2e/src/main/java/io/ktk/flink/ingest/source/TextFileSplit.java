package io.ktk.flink.ingest.source;

import static java.util.Objects.requireNonNull;

import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A whole input file, read from {@code offset} on: the split is also the reader's checkpointed
 * position, the byte offset and line number just after the last record it emitted.
 *
 * @param path the absolute path of a local file
 * @param offset the byte offset where the next record starts
 * @param line the line number where the next record starts (1-based)
 */
public record TextFileSplit(String path, long offset, long line) implements SourceSplit, java.io.Serializable {
  public TextFileSplit {
    requireNonNull(path, "path is null");
    if (offset < 0 || line < 1) {
      throw new IllegalArgumentException("Invalid position of " + path + ": offset " + offset + ", line " + line);
    }
  }

  @Override
  public String splitId() {
    return path;
  }

  /** The same file, from another position. */
  public TextFileSplit at(long newOffset, long newLine) {
    return new TextFileSplit(path, newOffset, newLine);
  }
}
