package io.ktk.flink.source.reader;

import io.ktk.flink.source.query.QuerySettings;
import io.ktk.flink.source.split.CubeSplit;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.metrics.Counter;

/**
 * The Flink reader of query splits (of a cube, or of a plain dataset): asks the enumerator for a
 * split, reads it on a fetcher thread ({@link CubeSplitReader}) and emits its rows as records of
 * the source's {@link RecordFormat}, then asks for the next. Its checkpointed state is its
 * unfinished splits with the number of rows each has emitted.
 *
 * @param <T> the record type
 */
public final class CubeSourceReader<T> extends SingleThreadMultiplexSourceReaderBase<T, T, CubeSplit, CubeSplitState> {

  /**
   * @param limit the reader stops reading once it has emitted this many rows (-1: never)
   * @param changelog whether discovered splits are read as an upsert changelog ({@code +U}, {@code -D})
   */
  public CubeSourceReader(QuerySettings settings, RecordFormat<T> format, long limit, boolean changelog,
      Configuration config, SourceReaderContext context) {
    this(settings, format, new AtomicLong(limit < 0 ? Long.MAX_VALUE : limit), changelog, config, context,
        prunedRowGroups(context));
  }

  /**
   * Every split reader (Flink makes a new one when a fetcher that went idle gets splits again)
   * counts into the one counter registered here: a second registration would not be reported.
   */
  private CubeSourceReader(QuerySettings settings, RecordFormat<T> format, AtomicLong allowed, boolean changelog,
      Configuration config, SourceReaderContext context, Counter prunedRowGroups) {
    super(() -> new CubeSplitReader<>(settings, format, prunedRowGroups, allowed, changelog),
        CubeSourceReader::emit, config, context);
  }

  /** The metric {@value #PRUNED_ROW_GROUPS}: row groups that footer statistics let the reader leave out. */
  public static final String PRUNED_ROW_GROUPS = "prunedRowGroups";

  private static Counter prunedRowGroups(SourceReaderContext context) {
    return context.metricGroup().counter(PRUNED_ROW_GROUPS);
  }

  private static <T> void emit(T record, SourceOutput<T> output, CubeSplitState state) {
    output.collect(record);
    state.emitted();
  }

  @Override
  public void start() {
    if (getNumberOfCurrentlyAssignedSplits() == 0) {
      context.sendSplitRequest();
    }
  }

  @Override
  protected void onSplitFinished(Map<String, CubeSplitState> finished) {
    context.sendSplitRequest();
  }

  @Override
  protected CubeSplitState initializedState(CubeSplit split) {
    return new CubeSplitState(split);
  }

  @Override
  protected CubeSplit toSplitType(String splitId, CubeSplitState state) {
    return state.toSplit();
  }
}
