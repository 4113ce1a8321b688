package io.ktk.flink.ingest.source;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A bounded FLIP-27 source of the records of one local text file, replayable from a checkpoint:
 * the split state is the byte offset and line number after the last record emitted, so a restored
 * job reads on from there (the file must not change in between).
 *
 * <p>One split, the whole file from a start position (after a CSV header), read by one reader; run
 * it at parallelism 1 and spread the records after it.
 */
public final class TextFileSource implements Source<InputRecord, TextFileSplit, List<TextFileSplit>> {
  private static final long serialVersionUID = 1L;

  private final TextFileSplit start;
  private final boolean quotedLineBreaks;

  /**
   * @param start the file and where its first record starts
   * @param quotedLineBreaks whether line feeds between double quotes belong to a record (CSV)
   */
  public TextFileSource(TextFileSplit start, boolean quotedLineBreaks) {
    this.start = requireNonNull(start, "start is null");
    this.quotedLineBreaks = quotedLineBreaks;
  }

  @Override
  public Boundedness getBoundedness() {
    return Boundedness.BOUNDED;
  }

  @Override
  public SourceReader<InputRecord, TextFileSplit> createReader(SourceReaderContext context) {
    return new TextFileReader(context, quotedLineBreaks);
  }

  @Override
  public SplitEnumerator<TextFileSplit, List<TextFileSplit>> createEnumerator(
      SplitEnumeratorContext<TextFileSplit> context) {
    return new TextFileEnumerator(context, List.of(start));
  }

  @Override
  public SplitEnumerator<TextFileSplit, List<TextFileSplit>> restoreEnumerator(
      SplitEnumeratorContext<TextFileSplit> context, List<TextFileSplit> pending) {
    return new TextFileEnumerator(context, pending);
  }

  @Override
  public SimpleVersionedSerializer<TextFileSplit> getSplitSerializer() {
    return new TextFileSplitSerializer();
  }

  @Override
  public SimpleVersionedSerializer<List<TextFileSplit>> getEnumeratorCheckpointSerializer() {
    return new PendingSplitsSerializer();
  }
}
