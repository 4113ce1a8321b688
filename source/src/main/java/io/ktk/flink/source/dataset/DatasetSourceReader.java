package io.ktk.flink.source.dataset;

import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.metrics.Counter;
import org.apache.flink.types.Row;

/**
 * The Flink reader of a dataset source: asks the enumerator for a split (a file), reads it on a
 * fetcher thread ({@link DatasetSplitReader}) and emits its passing rows as {@link Row}s of typed
 * values (the project's value convention), then asks for the next. Its checkpointed state is its
 * unfinished splits with the number of rows each has emitted. Metric {@value #PRUNED_ROW_GROUPS}:
 * row groups that footer statistics let it leave out.
 */
@Internal
public final class DatasetSourceReader
    extends SingleThreadMultiplexSourceReaderBase<Object[], Row, DatasetSplit, DatasetSourceReader.SplitState> {
  public static final String PRUNED_ROW_GROUPS = "prunedRowGroups";

  /** A split being read and how many of its rows were emitted (mutable, reader thread only). */
  static final class SplitState {
    private final DatasetSplit split;
    private long emittedRows;

    SplitState(DatasetSplit split) {
      this.split = split;
      this.emittedRows = split.emittedRows();
    }
  }

  public DatasetSourceReader(DatasetSourceSettings settings, Configuration config, SourceReaderContext context) {
    super(() -> new DatasetSplitReader(settings, prunedRowGroups(context)), DatasetSourceReader::emit, config,
        context);
  }

  private static Counter prunedRowGroups(SourceReaderContext context) {
    return context.metricGroup().counter(PRUNED_ROW_GROUPS);
  }

  private static void emit(Object[] values, SourceOutput<Row> output, SplitState state) {
    output.collect(Row.of(values));
    state.emittedRows++;
  }

  @Override
  public void start() {
    if (getNumberOfCurrentlyAssignedSplits() == 0) {
      context.sendSplitRequest();
    }
  }

  @Override
  protected void onSplitFinished(Map<String, SplitState> finished) {
    context.sendSplitRequest();
  }

  @Override
  protected SplitState initializedState(DatasetSplit split) {
    return new SplitState(split);
  }

  @Override
  protected DatasetSplit toSplitType(String splitId, SplitState state) {
    return state.split.withEmittedRows(state.emittedRows);
  }
}
