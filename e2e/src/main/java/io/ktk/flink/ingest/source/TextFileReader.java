package io.ktk.flink.ingest.source;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;

/**
 * Reads its splits' records one by one in the task thread (a local file needs no fetcher thread)
 * and checkpoints, for the split it is reading, the position after the last record emitted.
 */
final class TextFileReader implements SourceReader<InputRecord, TextFileSplit> {
  private final SourceReaderContext context;
  private final boolean quotedLineBreaks;
  private final Deque<TextFileSplit> splits = new ArrayDeque<>();
  private CompletableFuture<Void> available = new CompletableFuture<>();
  private TextFileSplit current;
  private TextRecordReader reader;
  private boolean requested;
  private boolean noMoreSplits;

  TextFileReader(SourceReaderContext context, boolean quotedLineBreaks) {
    this.context = context;
    this.quotedLineBreaks = quotedLineBreaks;
  }

  @Override
  public void start() {
    // Splits restored from a checkpoint were added before start; ask only without one.
    if (splits.isEmpty()) {
      request();
    }
  }

  @Override
  public InputStatus pollNext(ReaderOutput<InputRecord> output) throws IOException {
    while (true) {
      if (reader == null) {
        current = splits.poll();
        if (current == null) {
          if (noMoreSplits) {
            return InputStatus.END_OF_INPUT;
          }
          request();
          return InputStatus.NOTHING_AVAILABLE;
        }
        reader = new TextRecordReader(Path.of(current.path()), current.offset(), current.line(), quotedLineBreaks);
      }
      InputRecord record = reader.next();
      if (record != null) {
        output.collect(record);
        return InputStatus.MORE_AVAILABLE;
      }
      reader.close();
      reader = null;
      current = null;
    }
  }

  private void request() {
    if (!requested) {
      requested = true;
      context.sendSplitRequest();
    }
  }

  @Override
  public List<TextFileSplit> snapshotState(long checkpointId) {
    List<TextFileSplit> state = new java.util.ArrayList<>();
    if (reader != null) {
      state.add(current.at(reader.offset(), reader.line()));
    }
    state.addAll(splits);
    return state;
  }

  /**
   * Done while there is something to read or to report; Flink also asks between records (when its
   * output was briefly full), and a future that is not done then would stall the reader for good.
   */
  @Override
  public CompletableFuture<Void> isAvailable() {
    if (reader != null || !splits.isEmpty() || noMoreSplits) {
      return CompletableFuture.completedFuture(null);
    }
    return available;
  }

  @Override
  public void addSplits(List<TextFileSplit> added) {
    splits.addAll(added);
    requested = false;
    available.complete(null);
    available = new CompletableFuture<>();
  }

  @Override
  public void notifyNoMoreSplits() {
    noMoreSplits = true;
    available.complete(null);
    available = new CompletableFuture<>();
  }

  @Override
  public void close() throws IOException {
    if (reader != null) {
      reader.close();
    }
  }
}
