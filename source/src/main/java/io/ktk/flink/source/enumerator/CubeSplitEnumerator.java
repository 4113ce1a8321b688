package io.ktk.flink.source.enumerator;

import io.ktk.flink.source.split.CubeSplit;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands out the splits of a bounded cube query, one per request, in output order (readers ask for
 * the next split when they finish one, so faster readers take more). A reader that asks when
 * nothing is left is told there are no more splits; splits a failed reader held come back and are
 * handed out first.
 */
public final class CubeSplitEnumerator implements SplitEnumerator<CubeSplit, CubeEnumeratorState> {
  private static final Logger LOG = LoggerFactory.getLogger(CubeSplitEnumerator.class);

  private final SplitEnumeratorContext<CubeSplit> context;
  private final Deque<CubeSplit> unassigned;

  public CubeSplitEnumerator(SplitEnumeratorContext<CubeSplit> context, List<CubeSplit> splits) {
    this.context = context;
    this.unassigned = new ArrayDeque<>(splits);
  }

  @Override
  public void start() {
    LOG.info("Cube query: {} splits to read", unassigned.size());
  }

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {
    if (!context.registeredReaders().containsKey(subtaskId)) {
      return; // the reader failed since it asked
    }
    CubeSplit next = unassigned.poll();
    if (next == null) {
      context.signalNoMoreSplits(subtaskId);
    } else {
      context.assignSplit(next, subtaskId);
    }
  }

  @Override
  public void addSplitsBack(List<CubeSplit> splits, int subtaskId) {
    for (int i = splits.size() - 1; i >= 0; i--) {
      unassigned.addFirst(splits.get(i));
    }
  }

  @Override
  public void addReader(int subtaskId) {
    // readers ask for splits themselves
  }

  @Override
  public CubeEnumeratorState snapshotState(long checkpointId) {
    return new CubeEnumeratorState(List.copyOf(unassigned));
  }

  @Override
  public void close() {}
}
