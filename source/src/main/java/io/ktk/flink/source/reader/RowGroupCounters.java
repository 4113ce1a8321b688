package io.ktk.flink.source.reader;

/**
 * What reading did with the row groups of the data files: how many it read whole, and how many
 * the footer statistics let it prune ({@link RowGroupPruning}): skipped without reading, or read
 * for their key columns only (a pruned group whose rows may be the newest of cells an earlier
 * file holds; see {@code DatasetCells}). Mutable; one per reading thread.
 */
public final class RowGroupCounters {
  private long read;
  private long skipped;
  private long keysOnly;

  /** Row groups whose rows were read and tested. */
  public long read() {
    return read;
  }

  /** Row groups pruned and not read at all. */
  public long skipped() {
    return skipped;
  }

  /** Row groups pruned and read for their key columns only. */
  public long keysOnly() {
    return keysOnly;
  }

  /** Row groups pruned by statistics: {@link #skipped} plus {@link #keysOnly}. */
  public long pruned() {
    return skipped + keysOnly;
  }

  void countRead() {
    read++;
  }

  void countSkipped() {
    skipped++;
  }

  void countKeysOnly() {
    keysOnly++;
  }

  @Override
  public String toString() {
    return "RowGroupCounters{read=" + read + ", skipped=" + skipped + ", keysOnly=" + keysOnly + "}";
  }
}
