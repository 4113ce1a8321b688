package io.ktk.flink.source.engine;

import java.util.concurrent.atomic.LongAdder;

/**
 * What reading did with the row groups of the data files: how many it read whole, and how many
 * the footer statistics let it prune ({@link RowGroupPruning}): skipped without reading, or read
 * for their key columns only (a pruned group whose rows may be the newest of cells an earlier
 * file holds; see {@code DatasetCells}). Thread-safe: the threads of one reader share it.
 */
public final class RowGroupCounters {
  private final LongAdder read = new LongAdder();
  private final LongAdder skipped = new LongAdder();
  private final LongAdder keysOnly = new LongAdder();

  /** Row groups whose rows were read and tested. */
  public long read() {
    return read.sum();
  }

  /** Row groups pruned and not read at all. */
  public long skipped() {
    return skipped.sum();
  }

  /** Row groups pruned and read for their key columns only. */
  public long keysOnly() {
    return keysOnly.sum();
  }

  /** Row groups pruned by statistics: {@link #skipped} plus {@link #keysOnly}. */
  public long pruned() {
    return skipped() + keysOnly();
  }

  void countRead() {
    read.increment();
  }

  void countSkipped() {
    skipped.increment();
  }

  void countKeysOnly() {
    keysOnly.increment();
  }

  @Override
  public String toString() {
    return "RowGroupCounters{read=" + read() + ", skipped=" + skipped() + ", keysOnly=" + keysOnly() + "}";
  }
}
