package io.ktk.flink.source.reader;

import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.engine.PartitionJoin;
import io.ktk.flink.source.engine.ResultBatch;
import io.ktk.flink.source.engine.RowGroupCounters;
import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.TargetSnapshot;
import io.ktk.flink.source.query.QuerySettings;
import io.ktk.flink.source.split.CubeSplit;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.AbstractList;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.RandomAccess;
import java.util.Set;
import java.util.function.IntFunction;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.apache.flink.metrics.Counter;

/**
 * Reads the splits of a query (of a cube, or of a plain dataset), one partition of one split per
 * fetch, with the same joins as the in-process {@link CubeReader}, and hands the rows on as records
 * of the source's {@link RecordFormat}, made on the task thread as they are emitted. A split
 * restored with rows already emitted skips them (a group's rows come in a fixed order).
 *
 * <p>The query is checked again against the dataset versions a split was planned at (read from
 * the store once per distinct set of versions), which tells the reader what to read and join.
 *
 * @param <T> the record type
 */
final class CubeSplitReader<T> implements SplitReader<T, CubeSplit> {
  private final QuerySettings settings;
  private final RecordFormat<T> format;
  private final RowGroupCounters counters = new RowGroupCounters();
  private final Counter prunedMetric;
  private long prunedReported;
  private final Queue<CubeSplit> splits = new ArrayDeque<>();
  private final Map<Map<String, Long>, PartitionJoin> joins = new HashMap<>();
  private ObjectStore store;
  private CubeSplit current;
  private int partition;
  private long toSkip;

  /** @param prunedMetric counts the row groups pruned by statistics (a Flink metric) */
  CubeSplitReader(QuerySettings settings, RecordFormat<T> format, Counter prunedMetric) {
    this.settings = settings;
    this.format = format;
    this.prunedMetric = prunedMetric;
  }

  /** The row groups read and pruned by this reader. */
  RowGroupCounters rowGroups() {
    return counters;
  }

  @Override
  public RecordsWithSplitIds<T> fetch() throws IOException {
    if (current == null) {
      current = splits.poll();
      if (current == null) {
        return new RecordsBySplits<>(Map.of(), Set.of());
      }
      partition = 0;
      toSkip = current.emittedRows();
    }
    String id = current.splitId();
    List<GroupPartition> partitions = current.group().partitions();
    List<T> rows = List.of();
    while (rows.isEmpty() && partition < partitions.size()) {
      ResultBatch batch = join(current).batch(store, current.group(), partitions.get(partition++));
      int skipped = (int) Math.min(toSkip, batch.rowCount());
      toSkip -= skipped;
      rows = new BatchRecords<>(format, batch, skipped);
    }
    prunedMetric.inc(counters.pruned() - prunedReported);
    prunedReported = counters.pruned();
    boolean finished = partition >= partitions.size();
    if (finished) {
      current = null;
    }
    return new RecordsBySplits<>(rows.isEmpty() ? Map.of() : Map.of(id, rows), finished ? Set.of(id) : Set.of());
  }

  /** The rows of a batch from {@code from} on, each made a record when it is emitted. */
  private static final class BatchRecords<T> extends AbstractList<T> implements RandomAccess {
    private final RecordFormat<T> format;
    private final ResultBatch batch;
    private final int from;
    private IntFunction<T> records;

    BatchRecords(RecordFormat<T> format, ResultBatch batch, int from) {
      this.format = format;
      this.batch = batch;
      this.from = from;
    }

    @Override
    public T get(int index) {
      if (records == null) {
        records = format.records(batch);
      }
      return records.apply(from + index);
    }

    @Override
    public int size() {
      return batch.rowCount() - from;
    }
  }

  private PartitionJoin join(CubeSplit split) throws IOException {
    if (store == null) {
      store = settings.openStore();
    }
    PartitionJoin join = joins.get(split.versions());
    if (join == null) {
      TargetSnapshot snapshot = TargetSnapshot.at(store, settings.target(), split.versions());
      join = new PartitionJoin(snapshot.resolve(settings.query()), true, counters);
      joins.put(split.versions(), join);
    }
    return join;
  }

  @Override
  public void handleSplitsChanges(SplitsChange<CubeSplit> change) {
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
    if (store != null) {
      store.close();
    }
  }
}
