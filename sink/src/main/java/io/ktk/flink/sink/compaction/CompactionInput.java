package io.ktk.flink.sink.compaction;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.commit.DataFile;

/**
 * A file compaction reads.
 *
 * @param file the committed file
 * @param addedIn the version its rows belong to ({@code DatasetState#addedIn}): readers that find a
 *     cell in several files keep the row of the file with the highest one
 * @param bytes its size (from the log, or from the store when the log does not know it)
 */
public record CompactionInput(DataFile file, long addedIn, long bytes) {
  public CompactionInput {
    requireNonNull(file, "file is null");
  }

  public String label() {
    return file.label();
  }
}
