package io.ktk.flink.source.dataset;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.metadata.IndexFile;
import io.ktk.flink.state.metadata.IndexValue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.annotation.Internal;

/**
 * The files of one pinned dataset version that a {@link DatasetQuery} must read, found without
 * reading any data file:
 *
 * <ul>
 *   <li>conditions on partition columns drop whole partitions (their values are in the labels);
 *   <li>{@code ==} and {@code in} conditions on columns with a secondary index drop the files the
 *       index does not list for those values (several such conditions: the files listed for all).
 * </ul>
 *
 * <p>Order (the order of {@link DatasetFileRows}' rows when the files are read one after the
 * other): partitions by their typed values, partition column by partition column, as the indices
 * order values (unsigned integers unsigned, strings by code point, NaN last); files by label
 * within a partition; rows as stored in a file. Immutable.
 */
@Internal
public final class DatasetScanPlan {
  private final DatasetSnapshot snapshot;
  private final ResolvedDatasetQuery query;
  private final List<Partition> partitions;

  private DatasetScanPlan(DatasetSnapshot snapshot, ResolvedDatasetQuery query, List<Partition> partitions) {
    this.snapshot = snapshot;
    this.query = query;
    this.partitions = List.copyOf(partitions);
  }

  /**
   * Checks {@code query} against {@code snapshot} and plans it.
   *
   * @throws io.ktk.flink.source.query.InvalidQueryException when the query does not fit the dataset
   */
  public static DatasetScanPlan of(DatasetSnapshot snapshot, DatasetQuery query) {
    requireNonNull(snapshot, "snapshot is null");
    ResolvedDatasetQuery resolved = resolve(snapshot, query);
    Set<String> indexed = indexedLabels(snapshot, resolved.fileConditions());
    List<Partition> planned = new ArrayList<>();
    for (Partition partition : inOrder(snapshot)) {
      if (!resolved.admitsPartition(partition.values())) {
        continue;
      }
      List<DataFile> files = partition.files().stream()
          .filter(file -> indexed == null || indexed.contains(file.label()))
          .sorted(Comparator.comparing(DataFile::label))
          .toList();
      if (!files.isEmpty()) {
        planned.add(new Partition(partition.path(), partition.values(), files));
      }
    }
    return new DatasetScanPlan(snapshot, resolved, planned);
  }

  /** Checks {@code query} against the schema of {@code snapshot} (see {@link ResolvedDatasetQuery#resolve}). */
  public static ResolvedDatasetQuery resolve(DatasetSnapshot snapshot, DatasetQuery query) {
    return ResolvedDatasetQuery.resolve(snapshot.uuid(), snapshot.schema(), snapshot.partitionKeys(), query);
  }

  /** The partitions of a snapshot in the order of their typed values (then by path). */
  public static List<Partition> inOrder(DatasetSnapshot snapshot) {
    List<Field> keys = snapshot.partitionKeys();
    Comparator<Partition> order = (a, b) -> 0;
    for (int i = 0; i < keys.size(); i++) {
      int position = i;
      Comparator<Object> values = IndexFile.valueOrder(keys.get(i).getType());
      order = order.thenComparing((a, b) -> values.compare(a.values().get(position), b.values().get(position)));
    }
    List<Partition> sorted = new ArrayList<>(snapshot.partitions());
    sorted.sort(order.thenComparing(Partition::path));
    return sorted;
  }

  /** The labels that the secondary indices admit for the conditions, or null when no index applies. */
  private static Set<String> indexedLabels(DatasetSnapshot snapshot, List<TypedCondition> conditions) {
    Set<String> admitted = null;
    for (TypedCondition condition : conditions) {
      List<Object> values = condition.admittedValues();
      if (values == null || !snapshot.indexColumns().contains(condition.columnName())) {
        continue;
      }
      TreeMap<IndexValue, List<String>> index = new TreeMap<>(IndexFile.keyOrder(condition.column().getType()));
      index.putAll(snapshot.index(condition.columnName()));
      Set<String> labels = new HashSet<>();
      for (Object value : values) {
        labels.addAll(index.getOrDefault(IndexValue.of(value), List.of()));
      }
      if (admitted == null) {
        admitted = labels;
      } else {
        admitted.retainAll(labels);
      }
    }
    return admitted;
  }

  /** The pinned dataset version. */
  public DatasetSnapshot snapshot() {
    return snapshot;
  }

  /** The checked query. */
  public ResolvedDatasetQuery query() {
    return query;
  }

  /** The partitions left after pruning, in order, each with the files left, in order. */
  public List<Partition> partitions() {
    return partitions;
  }

  /** The number of files to read. */
  public long fileCount() {
    return partitions.stream().mapToLong(partition -> partition.files().size()).sum();
  }

  /** Opens the rows of {@code file} of {@code partition} (one of this plan's), pruning row groups. */
  public DatasetFileRows rows(Partition partition, DataFile file) {
    return new DatasetFileRows(snapshot.store(), query, file.key(snapshot.uuid()), file.rows(), file.bytes(),
        partition.values(), true);
  }

  @Override
  public String toString() {
    return "DatasetScanPlan{" + snapshot + ", " + query + ", partitions=" + partitions.size() + ", files="
        + fileCount() + "}";
  }
}
