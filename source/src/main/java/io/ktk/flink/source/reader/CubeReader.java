package io.ktk.flink.source.reader;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.QueryGroup;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Executes a {@link QueryPlan} in this process: reads the planned files of each group with column
 * projection, de-duplicates and filters each dataset's rows, joins them and returns the result rows
 * group by group, partition by partition, in the plan's order. Only one partition's rows (of all
 * its datasets) are in memory at a time.
 *
 * <p>Rows are unmodifiable lists of typed values, by the project's convention ({@code Long},
 * {@code Double}, {@code String}, {@code byte[]}, {@code LocalDate}, ...; null for a missing
 * value), with the columns of {@link #schema()}.
 *
 * <p>Not thread-safe; create one per reading thread.
 */
public final class CubeReader {
  private final ObjectStore store;
  private final QueryPlan plan;
  private final PartitionJoin join;
  private final RowGroupCounters counters = new RowGroupCounters();

  /** A reader that prunes row groups by their statistics. */
  public CubeReader(ObjectStore store, QueryPlan plan) {
    this(store, plan, true);
  }

  /**
   * @param pruneRowGroups whether row groups whose footer statistics prove that none of their rows
   *     qualifies are left out ({@link RowGroupPruning}); the result is the same either way
   */
  public CubeReader(ObjectStore store, QueryPlan plan, boolean pruneRowGroups) {
    this.store = requireNonNull(store, "store is null");
    this.plan = requireNonNull(plan, "plan is null");
    this.join = new PartitionJoin(plan.query(), pruneRowGroups, counters);
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
    List<QueryGroup> copy = List.copyOf(groups);
    return new Iterator<>() {
      private int group;
      private int partition;
      private Iterator<List<Object>> current = Collections.emptyIterator();

      @Override
      public boolean hasNext() {
        while (!current.hasNext()) {
          if (group >= copy.size()) {
            return false;
          }
          QueryGroup next = copy.get(group);
          if (partition >= next.partitions().size()) {
            group++;
            partition = 0;
            continue;
          }
          try {
            current = read(next, next.partitions().get(partition++)).iterator();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
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

  /** The rows of one partition of a group, sorted by the query's dimension columns. */
  public List<List<Object>> read(QueryGroup group, GroupPartition partition) throws IOException {
    return join.rows(store, group, partition);
  }
}
