package io.ktk.flink.source.reader;

import io.ktk.flink.source.query.QuerySettings;
import io.ktk.flink.source.split.CubeSplit;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.metrics.Counter;
import org.apache.flink.types.Row;

/**
 * The Flink reader of cube query splits: asks the enumerator for a split, reads it on a fetcher
 * thread ({@link CubeSplitReader}) and emits its rows as {@link Row}s of typed values (the
 * project's value convention), then asks for the next. Its checkpointed state is its unfinished
 * splits with the number of rows each has emitted.
 */
public final class CubeSourceReader
    extends SingleThreadMultiplexSourceReaderBase<Row, Row, CubeSplit, CubeSplitState> {

  public CubeSourceReader(QuerySettings settings, Configuration config, SourceReaderContext context) {
    super(() -> new CubeSplitReader(settings, prunedRowGroups(context)), CubeSourceReader::emit, config, context);
  }

  /** The metric {@value #PRUNED_ROW_GROUPS}: row groups that footer statistics let the reader leave out. */
  public static final String PRUNED_ROW_GROUPS = "prunedRowGroups";

  private static Counter prunedRowGroups(SourceReaderContext context) {
    return context.metricGroup().counter(PRUNED_ROW_GROUPS);
  }

  private static void emit(Row row, org.apache.flink.api.connector.source.SourceOutput<Row> output,
      CubeSplitState state) {
    output.collect(row);
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
