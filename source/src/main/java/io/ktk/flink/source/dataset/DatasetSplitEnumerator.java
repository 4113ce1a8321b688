package io.ktk.flink.source.dataset;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands out the splits (files) of a bounded dataset source, one per request, in output order
 * (readers ask for the next split when they finish one, so faster readers take more). Splits a
 * failed reader held come back and are handed out first; a reader that asks when nothing is left
 * is told there are no more splits.
 */
@Internal
public final class DatasetSplitEnumerator implements SplitEnumerator<DatasetSplit, DatasetEnumeratorState> {
  private static final Logger LOG = LoggerFactory.getLogger(DatasetSplitEnumerator.class);

  private final SplitEnumeratorContext<DatasetSplit> context;
  private final Deque<DatasetSplit> unassigned;

  public DatasetSplitEnumerator(SplitEnumeratorContext<DatasetSplit> context, DatasetEnumeratorState state) {
    this.context = context;
    this.unassigned = new ArrayDeque<>(state.unassigned());
  }

  @Override
  public void start() {
    LOG.info("Dataset source: {} files to read", unassigned.size());
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {
    if (!context.registeredReaders().containsKey(subtaskId)) {
      return; // the reader failed since it asked
    }
    DatasetSplit next = unassigned.poll();
    if (next != null) {
      context.assignSplit(next, subtaskId);
    } else {
      context.signalNoMoreSplits(subtaskId);
    }
  }

  @Override
  public void addSplitsBack(List<DatasetSplit> splits, int subtaskId) {
    for (int i = splits.size() - 1; i >= 0; i--) {
      unassigned.addFirst(splits.get(i));
    }
  }

  @Override
  public void addReader(int subtaskId) {
    // readers ask for splits themselves
  }

  @Override
  public DatasetEnumeratorState snapshotState(long checkpointId) {
    return new DatasetEnumeratorState(List.copyOf(unassigned));
  }

  @Override
  public void close() {}
}
