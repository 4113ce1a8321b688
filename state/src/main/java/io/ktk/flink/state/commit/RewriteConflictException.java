package io.ktk.flink.state.commit;

/**
 * A rewrite (compaction) lost to another change: a file it removes is gone already (another
 * rewrite or a partition replace removed it first), or the dataset gained an index the rewrite
 * carries no values for. Nothing was committed; plan the rewrite again against the latest state.
 */
public final class RewriteConflictException extends CommitConflictException {
  private static final long serialVersionUID = 1L;

  public RewriteConflictException(String message) {
    super(message);
  }
}
