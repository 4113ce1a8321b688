package io.ktk.flink.sink.compaction;

import io.ktk.flink.sink.compaction.CompactionResult.Outcome;
import io.ktk.flink.sink.compaction.CompactionResult.PartitionResult;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.metadata.PrimaryKey;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the plateau view of a dataset, folding a dataset with a primary key first ({@code
 * docs/cdc.md}). plateau, pandas and DuckDB read every file the view lists and merge nothing, so
 * the view of such a dataset lists no change file: every partition of the latest version {@code v}
 * that holds one is rewritten whole into one file with one row per key and no deleted key ({@link
 * CompactionPlanner#planFold}, committed as one {@code rewrite} version), and the view published is
 * version {@code v} with those partitions' files replaced by the folded ones: exactly the state of
 * version {@code v}. Changes committed while the fold ran wait for the next publication.
 *
 * <p>A dataset without a primary key is published as {@link CommitLog#publish()} does.
 */
public final class ViewFold {
  private static final Logger LOG = LoggerFactory.getLogger(ViewFold.class);
  /** Folds tried when a concurrent rewrite (another fold, a compaction) removed a file first. */
  private static final int ATTEMPTS = 3;

  private ViewFold() {}

  /**
   * Publishes the view of {@code log}'s dataset, folded if it has a primary key.
   *
   * @param settings the compaction settings the fold writes its files with (codec, row group
   *     size, threads)
   * @return the log version whose state the view shows
   * @throws FoldConflictException when concurrent rewrites won every attempt (nothing is published;
   *     try again)
   */
  public static long publish(CommitLog log, CompactionSettings settings) throws IOException {
    DatasetState latest = log.refresh();
    if (!latest.exists() || PrimaryKey.of(latest.uuid(), latest.metadata()).isEmpty()) {
      return log.publish();
    }
    Compactor compactor = Compactor.of(log, settings.withMaxBytesPerCommit(Long.MAX_VALUE), Clock.systemUTC());
    for (int attempt = 1; ; attempt++) {
      DatasetState base = log.refresh().copy();
      CompactionPlan plan = CompactionPlanner.planFold(base);
      if (plan.isEmpty()) {
        log.publishView(base);
        return base.version();
      }
      CompactionResult result = compactor.compact(plan);
      List<PartitionResult> failed = result.partitions().stream()
          .filter(partition -> partition.outcome() != Outcome.COMMITTED).toList();
      if (failed.isEmpty()) {
        DatasetChange fold = compactor.lastCommitted();
        DatasetState view = base.withFilesReplaced(fold.removedFiles(), fold.files(), fold.sequences(), fold.index(),
            fold.schema());
        log.publishView(view);
        LOG.info("Dataset '{}': published version {} with {} partitions folded ({} files into {})", base.uuid(),
            base.version(), plan.rewrites().size(), plan.inputFiles(), fold.files().size());
        return base.version();
      }
      PartitionResult first = failed.get(0);
      if (first.outcome() != Outcome.CONFLICT || attempt >= ATTEMPTS) {
        throw new FoldConflictException("Cannot publish the plateau view of dataset '" + base.uuid() + "': the fold "
            + "of version " + base.version() + " (partition '" + first.partition() + "') ended " + first.outcome()
            + ": " + first.message() + "; nothing was published, the next publication folds again");
      }
    }
  }
}
