package io.ktk.flink.source.dataset;

import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.apache.flink.metrics.Counter;

/**
 * Reads the splits (files) of a dataset source, up to {@value #BATCH} passing rows per fetch,
 * with {@link DatasetFileRows} (row-group pruning, conditions per row). A split restored with rows
 * already emitted skips them: a file's passing rows come in a fixed order.
 */
final class DatasetSplitReader implements SplitReader<Object[], DatasetSplit> {
  static final int BATCH = 1024;

  private final DatasetSourceSettings settings;
  private final Counter prunedMetric;
  private final Queue<DatasetSplit> splits = new ArrayDeque<>();
  private ResolvedDatasetQuery query;
  private ObjectStore store;
  private DatasetSplit current;
  private DatasetFileRows rows;
  private long toSkip;
  private long prunedReported;

  DatasetSplitReader(DatasetSourceSettings settings, Counter prunedMetric) {
    this.settings = settings;
    this.prunedMetric = prunedMetric;
  }

  @Override
  public RecordsWithSplitIds<Object[]> fetch() throws IOException {
    if (current == null) {
      current = splits.poll();
      if (current == null) {
        return new RecordsBySplits<>(Map.of(), Set.of());
      }
      if (store == null) {
        store = settings.openStore();
        query = settings.resolve();
      }
      rows = new DatasetFileRows(store, query, current.key(), current.rows(), current.bytes(),
          current.partitionValues(), true);
      prunedReported = 0;
      toSkip = current.emittedRows();
    }
    String id = current.splitId();
    List<Object[]> batch = new ArrayList<>();
    Object[] row = null;
    while (batch.size() < BATCH && (row = rows.next()) != null) {
      if (toSkip > 0) {
        toSkip--;
      } else {
        batch.add(row);
      }
    }
    prunedMetric.inc(rows.rowGroupsPruned() - prunedReported);
    prunedReported = rows.rowGroupsPruned();
    boolean finished = row == null;
    if (finished) {
      rows.close();
      rows = null;
      current = null;
    }
    return new RecordsBySplits<>(batch.isEmpty() ? Map.of() : Map.of(id, batch), finished ? Set.of(id) : Set.of());
  }

  @Override
  public void handleSplitsChanges(SplitsChange<DatasetSplit> change) {
    if (!(change instanceof SplitsAddition)) {
      throw new UnsupportedOperationException("Cannot handle split change " + change.getClass().getSimpleName());
    }
    splits.addAll(change.splits());
  }

  @Override
  public void wakeUp() {
    // fetch() never blocks
  }

  @Override
  public void close() throws Exception {
    if (rows != null) {
      rows.close();
    }
    if (store != null) {
      store.close();
    }
  }
}
