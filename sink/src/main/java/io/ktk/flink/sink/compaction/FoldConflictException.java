package io.ktk.flink.sink.compaction;

import io.ktk.flink.state.KtkException;

/**
 * The fold before a publication ({@link ViewFold}) was not committed: concurrent rewrites removed
 * its files first, or it failed. Nothing was published; publishing again folds again.
 */
public class FoldConflictException extends KtkException {
  private static final long serialVersionUID = 1L;

  public FoldConflictException(String message) {
    super(message);
  }
}
