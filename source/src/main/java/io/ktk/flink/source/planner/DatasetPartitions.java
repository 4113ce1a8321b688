package io.ktk.flink.source.planner;

import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.metadata.IndexFile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Step 1 of planning, for one dataset: its physical partitions with their files, after the
 * pre-conditions (conditions decided by partition values and secondary indices, before any file is
 * read), with the {@code partition_by} values of each file from its indices.
 *
 * <p>Pruning must not change the result, also when a cell appears in several files (the last
 * written wins). A partition whose values fail a condition holds no qualifying row: dropped. A file
 * that an index shows to fail a condition on a dimension column holds only rows of other cells
 * than the qualifying ones: dropped. A file that an index shows to fail a condition on a payload
 * column holds no qualifying row, but its rows may be the newest of cells that older files hold
 * with qualifying values: it stays a candidate that {@link #passesPayload} marks as failing, and
 * the alignment reads it for its keys only when an older file of the partition qualifies. With
 * Kartothek semantics rows are filtered before the last row of a cell is taken, so such a file is
 * dropped, as Kartothek drops it. Which columns count as dimension columns here is {@link
 * DatasetRead#indexDecidesFiles}: for a plain dataset without a key, every column (each row stands
 * alone); for one with a primary key, none (a file may hold deletes of qualifying keys).
 *
 * <p>Files are in write order: by the version that added them, then by label. A plain dataset
 * without a key, whose rows are not merged, reads them by label (the order {@code ktk read} has
 * always printed).
 *
 * <p>A dataset other than the seed may be partitioned by only some of the cube's partition columns
 * (Kartothek 5.3 allows it): its partitions are keyed by the values of the columns it has, and
 * {@link #get} finds the one that a seed partition's values fall into. Conditions on the partition
 * columns it lacks are not its to decide: the seed's partitions decide them.
 */
final class DatasetPartitions {

  /** A file that survived the exact pre-conditions, in write order within its partition. */
  record Candidate(PlannedFile file, boolean passesPayload, Map<String, Set<Object>> partitionByValues) {}

  /** A physical partition's candidates, in write order. */
  record Entry(String path, List<Object> values, List<Candidate> files) {}

  private final TreeMap<List<Object>, Entry> partitions;
  /** Whether pre-conditions on payload columns pruned files (which then may be read for keys). */
  private final boolean payloadPruning;
  /** For each of the dataset's partition keys, its position among the cube's partition columns. */
  private final int[] keyPositions;

  private DatasetPartitions(TreeMap<List<Object>, Entry> partitions, boolean payloadPruning, int[] keyPositions) {
    this.partitions = partitions;
    this.payloadPruning = payloadPruning;
    this.keyPositions = keyPositions;
  }

  /**
   * @param ownedPartitionBy the non-partition {@code partition_by} columns whose values this
   *     dataset's index assigns to its files
   */
  static DatasetPartitions build(ResolvedQuery query, DatasetRead read, DatasetSnapshot snapshot,
      List<String> ownedPartitionBy) {
    List<String> partitionColumns = query.partitionColumnNames();
    List<String> keys = snapshot.partitionKeys().stream().map(Field::getName).toList();
    int[] keyPositions = keys.stream().mapToInt(partitionColumns::indexOf).toArray();
    Map<Integer, List<TypedCondition>> onPartitionValues = new HashMap<>();
    query.partitionConditions().forEach((column, conditions) -> {
      if (keys.contains(column)) {
        onPartitionValues.put(keys.indexOf(column), conditions);
      }
    });
    boolean dropFailing = query.query().kartothekSemantics();

    Set<String> exactLabels = null;
    Set<String> payloadLabels = null;
    for (TypedCondition condition : query.conditions()) {
      String column = condition.columnName();
      if (partitionColumns.contains(column) || !snapshot.indexColumns().contains(column)) {
        continue;
      }
      Set<String> passing = new HashSet<>();
      snapshot.forEachIndexValue(column, (value, labels) -> {
        if (condition.test(value)) {
          passing.addAll(labels);
        }
      });
      if (read.indexDecidesFiles(column)) {
        exactLabels = intersect(exactLabels, passing);
      } else {
        payloadLabels = intersect(payloadLabels, passing);
      }
    }
    Map<String, Map<String, Set<Object>>> valuesByLabel = new HashMap<>();
    for (String column : ownedPartitionBy) {
      Field field = snapshot.schema().findField(column);
      Comparator<Object> order = IndexFile.valueOrder(field.getType());
      snapshot.forEachIndexValue(column, (value, labels) -> {
        for (String label : labels) {
          valuesByLabel.computeIfAbsent(label, l -> new HashMap<>())
              .computeIfAbsent(column, c -> new TreeSet<>(order)).add(value);
        }
      });
    }

    TreeMap<List<Object>, Entry> partitions = new TreeMap<>(ValuesOrder.of(snapshot.partitionKeys()));
    for (Partition partition : snapshot.partitions()) {
      if (!passes(partition, onPartitionValues)) {
        continue;
      }
      List<Candidate> candidates = new ArrayList<>();
      for (DataFile file : partition.files()) {
        if (exactLabels != null && !exactLabels.contains(file.label())) {
          continue;
        }
        boolean passesPayload = payloadLabels == null || payloadLabels.contains(file.label());
        if (!passesPayload && dropFailing) {
          continue;
        }
        PlannedFile planned = new PlannedFile(file.key(snapshot.uuid()), file.label(), file.rows(), file.bytes(),
            snapshot.addedIn(file), false);
        candidates.add(new Candidate(planned, passesPayload, valuesByLabel.getOrDefault(file.label(), Map.of())));
      }
      if (candidates.isEmpty()) {
        continue;
      }
      candidates.sort(read.merge() == RowMerge.NONE ? Comparator.comparing(c -> c.file().label())
          : Comparator.comparingLong((Candidate c) -> c.file().addedIn()).thenComparing(c -> c.file().label()));
      partitions.put(partition.values(), new Entry(partition.path(), partition.values(), candidates));
    }
    return new DatasetPartitions(partitions, payloadLabels != null && !dropFailing, keyPositions);
  }

  private static boolean passes(Partition partition, Map<Integer, List<TypedCondition>> conditions) {
    for (Map.Entry<Integer, List<TypedCondition>> e : conditions.entrySet()) {
      Object value = partition.values().get(e.getKey());
      for (TypedCondition condition : e.getValue()) {
        if (!condition.test(value)) {
          return false;
        }
      }
    }
    return true;
  }

  private static Set<String> intersect(Set<String> a, Set<String> b) {
    if (a == null) {
      return b;
    }
    a.retainAll(b);
    return a;
  }

  /** The partitions in the order of their values. */
  Iterable<Entry> entries() {
    return partitions.values();
  }

  /**
   * The partition that the seed partition of these values (the cube's partition columns, in cube
   * order) falls into: the one of equal values in the columns this dataset is partitioned by; null
   * when there is none.
   */
  Entry get(List<Object> seedValues) {
    List<Object> own = new ArrayList<>(keyPositions.length);
    for (int position : keyPositions) {
      own.add(seedValues.get(position));
    }
    return partitions.get(own);
  }

  boolean payloadPruning() {
    return payloadPruning;
  }
}
