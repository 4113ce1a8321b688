package io.ktk.flink.source.engine;

import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.PlannedFile;
import io.ktk.flink.source.planner.QueryGroup;
import io.ktk.flink.source.planner.ResolvedQuery;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.vector.TypedVector;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Serves the partitions of query groups formed by {@code partition_by} dimension columns from one
 * reading of each physical partition. Groups by such a column (say {@code sensor}, indexed in the
 * seed) each read every physical partition whose files hold their value, and in a cube that a
 * stream writes every file holds every value: a hundred sensors would read every file a hundred
 * times. Here a physical partition is read and joined once for all groups (the files of all of
 * them, no {@code column == value} condition), and each group's rows are those of its values, in
 * the same order: the rows of a cell all have the cell's dimension values, so splitting the joined
 * rows by them gives exactly each group's rows.
 *
 * <p>What is read stays in memory until every group that needs it was served ({@code uses}) or the
 * budget is spent; a partition read beyond the budget is served and forgotten, and read again for
 * the next group (the result is the same, only slower). Thread-safe: a partition is read once
 * however many threads ask for it.
 */
final class GroupedPartitions {
  /** A physical partition read for all groups: its rows split by group values. */
  private record Split(ResultBatch batch, Map<List<Object>, int[]> rowsByKey, long bytes) {}

  private final ObjectStore store;
  private final List<String> groupColumns;
  private final Map<String, GroupPartition> partitions;
  private final Map<String, Integer> uses;
  private final Map<String, CompletableFuture<Split>> read = new HashMap<>();
  private final long budget;
  private long held;

  /**
   * @param partitions the files of every group per physical partition path
   * @param uses per path, how many group partitions will ask for it (null: unknown, kept as long as the budget allows)
   * @param budget the bytes (estimated) to hold at most
   */
  GroupedPartitions(ObjectStore store, List<String> groupColumns, Map<String, GroupPartition> partitions,
      Map<String, Integer> uses, long budget) {
    this.store = store;
    this.groupColumns = List.copyOf(groupColumns);
    this.partitions = Map.copyOf(partitions);
    this.uses = uses == null ? null : new HashMap<>(uses);
    this.budget = budget;
  }

  /**
   * The non-partition {@code partition_by} columns of {@code query} when they are all dimension
   * columns of the query (groups can then share readings), else an empty list.
   */
  static List<String> groupColumns(ResolvedQuery query) {
    List<String> dimensions = query.dimensionColumns().stream().map(Field::getName).toList();
    List<String> columns = new ArrayList<>();
    for (Field column : query.partitionBy()) {
      if (query.partitionColumnNames().contains(column.getName())) {
        continue;
      }
      if (!dimensions.contains(column.getName())) {
        return List.of();
      }
      columns.add(column.getName());
    }
    return columns;
  }

  /**
   * The files of {@code groups} (those that will be read: all of a plan's, or some) per physical
   * partition, in write order, and how often each is used.
   */
  static GroupedPartitions of(ObjectStore store, ResolvedQuery query, List<QueryGroup> groups, long budget) {
    Map<String, Map<String, Set<PlannedFile>>> files = new LinkedHashMap<>();
    Map<String, List<Object>> values = new HashMap<>();
    Map<String, Integer> uses = new HashMap<>();
    for (QueryGroup group : groups) {
      for (GroupPartition partition : group.partitions()) {
        values.put(partition.path(), partition.partitionValues());
        uses.merge(partition.path(), 1, Integer::sum);
        Map<String, Set<PlannedFile>> byDataset = files.computeIfAbsent(partition.path(), p -> new LinkedHashMap<>());
        partition.files().forEach((id, list) -> byDataset.computeIfAbsent(id, d -> new LinkedHashSet<>()).addAll(list));
      }
    }
    Map<String, GroupPartition> partitions = new HashMap<>();
    files.forEach((path, byDataset) -> {
      Map<String, List<PlannedFile>> ordered = new LinkedHashMap<>();
      byDataset.forEach((id, set) -> ordered.put(id, set.stream()
          .sorted(Comparator.comparingLong(PlannedFile::addedIn).thenComparing(PlannedFile::label)).toList()));
      partitions.put(path, new GroupPartition(path, values.get(path), ordered));
    });
    return new GroupedPartitions(store, groupColumns(query), partitions, uses, budget);
  }

  /** The rows of {@code group}'s partition {@code partition}, as {@link PartitionJoin#batch} gives them. */
  ResultBatch batch(PartitionJoin join, QueryGroup group, GroupPartition partition) throws IOException {
    String path = partition.path();
    CompletableFuture<Split> pending;
    boolean reader = false;
    synchronized (this) {
      pending = read.get(path);
      if (pending == null) {
        pending = new CompletableFuture<>();
        read.put(path, pending);
        reader = true;
      }
    }
    if (reader) {
      try {
        pending.complete(split(join.batchOfAllGroups(store, partitions.get(path), groupColumns)));
      } catch (IOException | RuntimeException e) {
        pending.completeExceptionally(e);
        synchronized (this) {
          read.remove(path);
        }
        throw e;
      }
    }
    Split split;
    try {
      split = pending.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while reading partition " + path);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw new IllegalStateException("Cannot read partition " + path + ": " + e.getCause(), e.getCause());
    }
    release(path, split, reader);
    int[] rows = split.rowsByKey().get(key(join.groupValues(group, groupColumns)));
    return split.batch().slice(rows == null ? new int[0] : rows);
  }

  /** Forgets a partition no group will ask for again, or one beyond the budget. */
  private synchronized void release(String path, Split split, boolean counted) {
    if (counted) {
      held += split.bytes();
    }
    boolean done = uses != null && uses.merge(path, -1, Integer::sum) <= 0;
    if (done || held > budget) {
      if (read.remove(path) != null) {
        held -= split.bytes();
      }
    }
  }

  private Split split(PartitionJoin.Grouped grouped) {
    ResultBatch batch = grouped.batch();
    Map<List<Object>, List<Integer>> rows = new HashMap<>();
    List<TypedVector> columns = grouped.groupColumns();
    for (int row = 0; row < batch.rowCount(); row++) {
      List<Object> key = new ArrayList<>(columns.size());
      for (TypedVector column : columns) {
        key.add(column.get(row));
      }
      rows.computeIfAbsent(key(key), k -> new ArrayList<>()).add(row);
    }
    Map<List<Object>, int[]> byKey = new HashMap<>();
    rows.forEach((key, list) -> byKey.put(key, list.stream().mapToInt(Integer::intValue).toArray()));
    long bytes = 16L * batch.rowCount() * (batch.schema().getFields().size() + 1);
    return new Split(batch, byKey, bytes);
  }

  /**
   * Values as map keys that are equal when the values are (as conditions compare them): binary
   * values by content, -0.0 as 0.0, decimals regardless of their scale.
   */
  private static List<Object> key(List<Object> values) {
    List<Object> key = new ArrayList<>(values.size());
    for (Object value : values) {
      if (value instanceof byte[]) {
        key.add(IndexValue.of(value));
      } else if (value instanceof Double number && number == 0.0) {
        key.add(0.0);
      } else if (value instanceof BigDecimal decimal) {
        key.add(decimal.stripTrailingZeros());
      } else {
        key.add(value);
      }
    }
    return key;
  }
}
