package io.ktk.flink.source.engine;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.QueryGroup;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Executes a {@link QueryPlan} in this process: reads the planned files of each group with column
 * projection, de-duplicates and filters each dataset's rows, joins them and returns the result
 * group by group, partition by partition, in the plan's order, as a {@link ResultBatch} per
 * partition ({@link #batches}) or as rows ({@link #rows}).
 *
 * <p>With one thread, one partition's rows (of all its datasets) are in memory at a time. With
 * {@code threads} above one, that many partitions are read and joined ahead on as many daemon
 * threads, in order, so memory grows accordingly; the threads end when the iteration ends or
 * fails, or a second after an abandoned iteration's last read.
 *
 * <p>Rows are unmodifiable lists of typed values, by the project's convention ({@code Long},
 * {@code Double}, {@code String}, {@code byte[]}, {@code LocalDate}, ...; null for a missing
 * value), with the columns of {@link #schema()}.
 *
 * <p>An iteration is not thread-safe; each one is used by one consumer.
 */
public final class CubeReader {
  private final ObjectStore store;
  private final QueryPlan plan;
  private final boolean prune;
  private final int threads;
  private final RowGroupCounters counters = new RowGroupCounters();

  /** A reader on the calling thread that prunes row groups by their statistics. */
  public CubeReader(ObjectStore store, QueryPlan plan) {
    this(store, plan, true, 1);
  }

  /**
   * @param pruneRowGroups whether row groups whose footer statistics prove that none of their rows
   *     qualifies are left out ({@link RowGroupPruning}); the result is the same either way
   */
  public CubeReader(ObjectStore store, QueryPlan plan, boolean pruneRowGroups) {
    this(store, plan, pruneRowGroups, 1);
  }

  /**
   * @param threads how many partitions are read at once (1: on the consumer's thread); the
   *     store must allow concurrent reads, as this project's stores do
   */
  public CubeReader(ObjectStore store, QueryPlan plan, boolean pruneRowGroups, int threads) {
    this.store = requireNonNull(store, "store is null");
    this.plan = requireNonNull(plan, "plan is null");
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, not " + threads);
    }
    this.prune = pruneRowGroups;
    this.threads = threads;
  }

  /** The row groups read and pruned so far. */
  public RowGroupCounters rowGroups() {
    return counters;
  }

  /** The result's columns, in order; all nullable. */
  public Schema schema() {
    return plan.query().output();
  }

  public QueryPlan plan() {
    return plan;
  }

  /**
   * All rows of the query, group by group. I/O failures surface as {@link UncheckedIOException}
   * from {@code hasNext()}.
   */
  public Iterator<List<Object>> rows() {
    return rows(plan.groups());
  }

  /** The rows of some groups (e.g. one split's), in the given order. */
  public Iterator<List<Object>> rows(List<QueryGroup> groups) {
    Iterator<ResultBatch> batches = batches(groups);
    return new Iterator<>() {
      private Iterator<List<Object>> current = Collections.emptyIterator();

      @Override
      public boolean hasNext() {
        while (!current.hasNext()) {
          if (!batches.hasNext()) {
            return false;
          }
          current = batches.next().rows().iterator();
        }
        return true;
      }

      @Override
      public List<Object> next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return current.next();
      }
    };
  }

  /** The result as one batch per partition (empty ones included), group by group; see {@link #rows()}. */
  public Iterator<ResultBatch> batches() {
    return batches(plan.groups());
  }

  /** The batches of some groups, in the given order. */
  public Iterator<ResultBatch> batches(List<QueryGroup> groups) {
    List<Task> tasks = new ArrayList<>();
    for (QueryGroup group : groups) {
      for (GroupPartition partition : group.partitions()) {
        tasks.add(new Task(group, partition));
      }
    }
    GroupedPartitions grouped = GroupedPartitions.groupColumns(plan.query()).isEmpty() ? null
        : GroupedPartitions.of(store, plan.query(), groups, Runtime.getRuntime().maxMemory() / 3);
    return threads == 1 ? new SerialBatches(tasks, grouped) : new ParallelBatches(tasks, grouped);
  }

  /** Reads one task's partition, from the partitions all groups share when {@code grouped} is not null. */
  private ResultBatch batch(PartitionJoin join, GroupedPartitions grouped, Task task) throws IOException {
    return grouped == null ? join.batch(store, task.group(), task.partition())
        : grouped.batch(join, task.group(), task.partition());
  }

  private record Task(QueryGroup group, GroupPartition partition) {}

  private final class SerialBatches implements Iterator<ResultBatch> {
    private final Iterator<Task> tasks;
    private final GroupedPartitions grouped;
    private final PartitionJoin join = new PartitionJoin(plan.query(), prune, counters);

    SerialBatches(List<Task> tasks, GroupedPartitions grouped) {
      this.tasks = tasks.iterator();
      this.grouped = grouped;
    }

    @Override
    public boolean hasNext() {
      return tasks.hasNext();
    }

    @Override
    public ResultBatch next() {
      Task task = tasks.next();
      try {
        return batch(join, grouped, task);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Keeps {@code threads} partitions in work ahead of the consumer; each worker joins with its own state. */
  private final class ParallelBatches implements Iterator<ResultBatch> {
    private final Iterator<Task> tasks;
    private final GroupedPartitions grouped;
    private final Deque<Future<ResultBatch>> ahead = new ArrayDeque<>();
    private final ThreadLocal<PartitionJoin> joins =
        ThreadLocal.withInitial(() -> new PartitionJoin(plan.query(), prune, counters));
    private ExecutorService executor;

    ParallelBatches(List<Task> tasks, GroupedPartitions grouped) {
      this.tasks = tasks.iterator();
      this.grouped = grouped;
    }

    @Override
    public boolean hasNext() {
      fill();
      if (ahead.isEmpty()) {
        shutdown();
        return false;
      }
      return true;
    }

    @Override
    public ResultBatch next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      Future<ResultBatch> next = ahead.poll();
      try {
        ResultBatch batch = next.get();
        fill();
        return batch;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        shutdown();
        throw new UncheckedIOException(new InterruptedIOException("interrupted while reading the cube"));
      } catch (ExecutionException e) {
        shutdown();
        Throwable cause = e.getCause();
        if (cause instanceof IOException io) {
          throw new UncheckedIOException(io);
        }
        if (cause instanceof RuntimeException runtime) {
          throw runtime;
        }
        throw new IllegalStateException(cause);
      }
    }

    private void fill() {
      while (ahead.size() < threads && tasks.hasNext()) {
        if (executor == null) {
          // idle threads end after a second, so an iteration dropped half-way leaves no threads behind
          ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 1, TimeUnit.SECONDS,
              new LinkedBlockingQueue<>(), runnable -> {
                Thread thread = new Thread(runnable, "ktk-cube-reader");
                thread.setDaemon(true);
                return thread;
              });
          pool.allowCoreThreadTimeOut(true);
          executor = pool;
        }
        Task task = tasks.next();
        ahead.add(executor.submit(() -> batch(joins.get(), grouped, task)));
      }
    }

    private void shutdown() {
      if (executor != null) {
        ahead.forEach(future -> future.cancel(true));
        ahead.clear();
        executor.shutdownNow();
        executor = null;
      }
    }
  }
}
