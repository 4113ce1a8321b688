package io.ktk.flink.source.reader;

import io.ktk.flink.source.changelog.DeletedKeys;
import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.engine.PartitionJoin;
import io.ktk.flink.source.engine.ResultBatch;
import io.ktk.flink.source.engine.RowGroupCounters;
import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.ResolvedQuery;
import io.ktk.flink.source.planner.TargetSnapshot;
import io.ktk.flink.source.query.QuerySettings;
import io.ktk.flink.source.query.StoreRefusals;
import io.ktk.flink.source.split.CubeSplit;
import io.ktk.flink.source.split.CubeSplits;
import io.ktk.flink.state.parquet.FooterCache;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.AbstractList;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
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
import org.apache.flink.types.RowKind;

/**
 * Reads the splits of a query (of a cube, or of a plain dataset), one partition of one split per
 * fetch, with the same joins as the in-process {@link CubeReader}, and hands the rows on as records
 * of the source's {@link RecordFormat}, made on the task thread as they are emitted. A split
 * restored with rows already emitted skips them (a group's rows come in a fixed order).
 *
 * <p>For an upsert changelog ({@code docs/cdc.md}) the splits of discoveries give, per partition,
 * the merged rows of the added files as {@code +U}, then the {@code -D} rows of their other keys
 * ({@link DeletedKeys}); the splits of the pinned version give {@code +I} rows.
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
  /** Per set of dataset versions a split was planned at: the query checked there, and its join. */
  private final Map<Map<String, Long>, Planned> planned = new HashMap<>();
  /** Whether discovered splits are read as an upsert changelog ({@code +U} and {@code -D}; {@link DeletedKeys}). */
  private final boolean changelog;
  private ObjectStore store;
  private CubeSplit current;
  private int partition;
  private long toSkip;
  /** Rows the source reader may still emit (a pushed-down limit), or Long.MAX_VALUE; shared by its split readers. */
  private final AtomicLong allowed;
  private long splitsNotRead;

  /** @param prunedMetric counts the row groups pruned by statistics (a Flink metric) */
  CubeSplitReader(QuerySettings settings, RecordFormat<T> format, Counter prunedMetric) {
    this(settings, format, prunedMetric, new AtomicLong(Long.MAX_VALUE), false);
  }

  /**
   * @param allowed how many rows the source reader may still emit (a pushed-down limit; {@code
   *     Long.MAX_VALUE} for all), counted down by every split reader it creates (Flink creates a
   *     new one when a fetcher fell idle): once it is 0 the splits finish without a row
   * @param changelog whether the splits of discoveries are read as an upsert changelog: per key of
   *     their files, the newest row as {@code +U}, or a {@code -D} when it is deleted or fails the
   *     conditions; the splits of the pinned version give {@code +I} rows
   */
  CubeSplitReader(QuerySettings settings, RecordFormat<T> format, Counter prunedMetric, AtomicLong allowed,
      boolean changelog) {
    this.settings = settings;
    this.changelog = changelog;
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
      BatchRecords<T> read = read(current, partitions.get(partition++));
      int skipped = (int) Math.min(toSkip, read.size());
      toSkip -= skipped;
      int emitted = (int) Math.min(allowed.get(), read.size() - skipped);
      long left = allowed.addAndGet(-emitted);
      rows = read.subList(skipped, skipped + emitted);
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

  /**
   * The rows of one partition of {@code split}: its merged rows as {@code +I}, or, for a discovered
   * split of an upsert changelog, as {@code +U} followed by the {@code -D} rows of its other keys.
   */
  private BatchRecords<T> read(CubeSplit split, GroupPartition partition) throws IOException {
    Planned plan = plan(split);
    ResultBatch batch = plan.join().batch(store, split.group(), partition);
    if (!changelog || !CubeSplits.discovered(split)) {
      return new BatchRecords<>(format, List.of(batch), List.of(RowKind.INSERT));
    }
    ResultBatch deletes = DeletedKeys.of(store, plan.query(), partition, batch);
    return new BatchRecords<>(format, List.of(batch, deletes), List.of(RowKind.UPDATE_AFTER, RowKind.DELETE));
  }

  /** Rows of batches, one row kind per batch, each made a record when it is emitted. */
  private static final class BatchRecords<T> extends AbstractList<T> implements RandomAccess {
    private final RecordFormat<T> format;
    private final List<ResultBatch> batches;
    private final List<RowKind> kinds;
    private final List<IntFunction<T>> records;
    private final int size;

    BatchRecords(RecordFormat<T> format, List<ResultBatch> batches, List<RowKind> kinds) {
      this.format = format;
      this.batches = batches;
      this.kinds = kinds;
      this.records = new ArrayList<>(Collections.nCopies(batches.size(), null));
      this.size = batches.stream().mapToInt(ResultBatch::rowCount).sum();
    }

    @Override
    public T get(int index) {
      int batch = 0;
      int row = index;
      while (row >= batches.get(batch).rowCount()) {
        row -= batches.get(batch++).rowCount();
      }
      if (records.get(batch) == null) {
        records.set(batch, format.records(batches.get(batch), kinds.get(batch)));
      }
      return records.get(batch).apply(row);
    }

    @Override
    public int size() {
      return size;
    }
  }

  /** The query checked at a split's versions, and the join that reads it. */
  private record Planned(ResolvedQuery query, PartitionJoin join) {}

  private Planned plan(CubeSplit split) throws IOException {
    if (store == null) {
      store = settings.openStore();
    }
    Planned plan = planned.get(split.versions());
    if (plan == null) {
      TargetSnapshot snapshot = TargetSnapshot.at(store, settings.target(), split.versions());
      ResolvedQuery query = snapshot.resolve(settings.query());
      plan = new Planned(query, new PartitionJoin(query, true, counters, footers));
      planned.put(split.versions(), plan);
    }
    return plan;
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
