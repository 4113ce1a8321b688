package io.ktk.flink.source.reader;

import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.engine.PartitionJoin;
import io.ktk.flink.source.engine.ResultBatch;
import io.ktk.flink.source.engine.RowGroupCounters;
import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.TargetSnapshot;
import io.ktk.flink.source.query.QuerySettings;
import io.ktk.flink.source.query.StoreRefusals;
import io.ktk.flink.source.split.CubeSplit;
import io.ktk.flink.state.parquet.FooterCache;
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
import java.util.concurrent.atomic.AtomicLong;
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
  /** Footers of the files read, kept across splits and the versions a continuous source moves to. */
  private final FooterCache footers = new FooterCache();
  private final Counter prunedMetric;
  private long prunedReported;
  private final Queue<CubeSplit> splits = new ArrayDeque<>();
  private final Map<Map<String, Long>, PartitionJoin> joins = new HashMap<>();
  private ObjectStore store;
  private CubeSplit current;
  private int partition;
  private long toSkip;
  /** Rows the source reader may still emit (a pushed-down limit), or Long.MAX_VALUE; shared by its split readers. */
  private final AtomicLong allowed;
  private long splitsNotRead;

  /** @param prunedMetric counts the row groups pruned by statistics (a Flink metric) */
  CubeSplitReader(QuerySettings settings, RecordFormat<T> format, Counter prunedMetric) {
    this(settings, format, prunedMetric, new AtomicLong(Long.MAX_VALUE));
  }

  /**
   * @param allowed how many rows the source reader may still emit (a pushed-down limit; {@code
   *     Long.MAX_VALUE} for all), counted down by every split reader it creates (Flink creates a
   *     new one when a fetcher fell idle): once it is 0 the splits finish without a row
   */
  CubeSplitReader(QuerySettings settings, RecordFormat<T> format, Counter prunedMetric, AtomicLong allowed) {
    this.settings = settings;
    this.format = format;
    this.prunedMetric = prunedMetric;
    this.allowed = allowed;
  }

  /** How many splits this reader finished without reading them, its limit being reached. */
  long splitsNotRead() {
    return splitsNotRead;
  }

  /** The row groups read and pruned by this reader. */
  RowGroupCounters rowGroups() {
    return counters;
  }

  /** Store refusals fail the job without restarts ({@link StoreRefusals}). */
  @Override
  public RecordsWithSplitIds<T> fetch() throws IOException {
    try {
      return fetchNext();
    } catch (IOException e) {
      throw StoreRefusals.failFastIfRefused(e);
    } catch (RuntimeException e) {
      throw StoreRefusals.failFastIfRefused(e);
    }
  }

  private RecordsWithSplitIds<T> fetchNext() throws IOException {
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
    if (allowed.get() == 0) {
      // the limit is reached: the rows are not needed (the query's rows are final, nothing drops them later)
      splitsNotRead++;
      current = null;
      return new RecordsBySplits<>(Map.of(), Set.of(id));
    }
    List<T> rows = List.of();
    while (rows.isEmpty() && partition < partitions.size()) {
      ResultBatch batch = join(current).batch(store, current.group(), partitions.get(partition++));
      int skipped = (int) Math.min(toSkip, batch.rowCount());
      toSkip -= skipped;
      int emitted = (int) Math.min(allowed.get(), batch.rowCount() - skipped);
      long left = allowed.addAndGet(-emitted);
      rows = new BatchRecords<>(format, batch, skipped, skipped + emitted);
      if (left == 0) {
        partition = partitions.size(); // the rest of the split is not needed either
      }
    }
    prunedMetric.inc(counters.pruned() - prunedReported);
    prunedReported = counters.pruned();
    boolean finished = partition >= partitions.size();
    if (finished) {
      current = null;
    }
    return new RecordsBySplits<>(rows.isEmpty() ? Map.of() : Map.of(id, rows), finished ? Set.of(id) : Set.of());
  }

  /** Rows of a batch, each made a record when it is emitted. */
  private static final class BatchRecords<T> extends AbstractList<T> implements RandomAccess {
    private final RecordFormat<T> format;
    private final ResultBatch batch;
    private final int from;
    private final int to;
    private IntFunction<T> records;

    /** Rows {@code from} (inclusive) to {@code to} (exclusive). */
    BatchRecords(RecordFormat<T> format, ResultBatch batch, int from, int to) {
      this.format = format;
      this.batch = batch;
      this.from = from;
      this.to = to;
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
      return to - from;
    }
  }

  private PartitionJoin join(CubeSplit split) throws IOException {
    if (store == null) {
      store = settings.openStore();
    }
    PartitionJoin join = joins.get(split.versions());
    if (join == null) {
      TargetSnapshot snapshot = TargetSnapshot.at(store, settings.target(), split.versions());
      join = new PartitionJoin(snapshot.resolve(settings.query()), true, counters, footers);
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
