package io.ktk.flink.state.commit;

/**
 * The outcome of a commit.
 *
 * @param version the version that holds the change (for a replay: the version the dataset is at)
 * @param alreadyCommitted true when the (writer id, checkpoint id) had been committed before and
 *     nothing was written
 * @param attempts how many versions were tried (1 without contention)
 */
public record CommitResult(long version, boolean alreadyCommitted, int attempts) {}
