package io.ktk.flink.ingest.source;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;

/**
 * Hands the pending splits to readers that ask, one at a time, and tells a reader that asks when
 * none is left that there will be no more. Splits of a failed reader come back and go out again.
 */
final class TextFileEnumerator implements SplitEnumerator<TextFileSplit, List<TextFileSplit>> {
  private final SplitEnumeratorContext<TextFileSplit> context;
  private final Deque<TextFileSplit> pending;

  TextFileEnumerator(SplitEnumeratorContext<TextFileSplit> context, List<TextFileSplit> pending) {
    this.context = context;
    this.pending = new ArrayDeque<>(pending);
  }

  @Override
  public void start() {}

  @Override
  public void handleSplitRequest(int subtaskId, String requesterHostname) {
    TextFileSplit next = pending.poll();
    if (next != null) {
      context.assignSplit(next, subtaskId);
    } else {
      context.signalNoMoreSplits(subtaskId);
    }
  }

  @Override
  public void addSplitsBack(List<TextFileSplit> splits, int subtaskId) {
    splits.forEach(pending::addFirst);
  }

  @Override
  public void addReader(int subtaskId) {}

  @Override
  public List<TextFileSplit> snapshotState(long checkpointId) {
    return new ArrayList<>(pending);
  }

  @Override
  public void close() {}
}
