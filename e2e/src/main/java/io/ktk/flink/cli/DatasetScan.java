package io.ktk.flink.cli;

import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.metadata.IndexFile;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.parquet.StoreInputFile;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Streams the rows of one dataset version, projected to some columns and filtered by conditions,
 * one file at a time, so that memory does not grow with the dataset.
 *
 * <p>Before any file is read, conditions on partition columns drop whole partitions (their values
 * are in the labels), and {@code ==} / {@code in} conditions on indexed columns drop the files the
 * index does not list for those values. Partition columns are restored from the typed partition
 * values; only the other columns the output or the conditions need are read from the files. A
 * file that must be read for its row count only (the output holds partition columns only) is not
 * read at all when the log knows its row count.
 *
 * <p>Order: partitions by their typed values (partition key by partition key, as the index orders
 * values), files by label within a partition, rows as stored.
 */
final class DatasetScan {
  /** Receives rows; returns false to stop the scan. */
  interface RowConsumer {
    boolean accept(Object[] row) throws IOException;

    /** Called before the rows of each partition. */
    default void startPartition(Partition partition) {}
  }

  private final ObjectStore store;
  private final DatasetSnapshot snapshot;
  private final List<Field> output;
  private final List<TypedCondition> partitionConditions = new ArrayList<>();
  private final List<TypedCondition> fileConditions = new ArrayList<>();
  private final Map<String, Integer> partitionKeyPositions = new HashMap<>();
  private final List<String> fileColumns;
  private final List<Partition> partitions;

  DatasetScan(ObjectStore store, DatasetSnapshot snapshot, List<Field> output, List<TypedCondition> conditions) {
    this.store = store;
    this.snapshot = snapshot;
    this.output = List.copyOf(output);
    List<Field> keys = snapshot.partitionKeys();
    for (int i = 0; i < keys.size(); i++) {
      partitionKeyPositions.put(keys.get(i).getName(), i);
    }
    for (TypedCondition condition : conditions) {
      (partitionKeyPositions.containsKey(condition.columnName()) ? partitionConditions : fileConditions).add(condition);
    }
    Set<String> columns = new LinkedHashSet<>();
    output.stream().map(Field::getName).filter(name -> !partitionKeyPositions.containsKey(name)).forEach(columns::add);
    fileConditions.forEach(condition -> columns.add(condition.columnName()));
    this.fileColumns = List.copyOf(columns);
    this.partitions = plan();
  }

  /** The partitions of a snapshot in the order of their typed values. */
  static List<Partition> inOrder(DatasetSnapshot snapshot) {
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

  /** The files left after pruning; what the scan will read. */
  long fileCount() {
    return partitions.stream().mapToLong(partition -> partition.files().size()).sum();
  }

  private List<Partition> plan() {
    Set<String> indexed = indexedLabels();
    List<Partition> planned = new ArrayList<>();
    for (Partition partition : inOrder(snapshot)) {
      boolean keep = true;
      for (TypedCondition condition : partitionConditions) {
        keep &= condition.test(partition.values().get(partitionKeyPositions.get(condition.columnName())));
      }
      if (!keep) {
        continue;
      }
      List<DataFile> files = indexed == null
          ? partition.files()
          : partition.files().stream().filter(file -> indexed.contains(file.label())).toList();
      if (!files.isEmpty()) {
        planned.add(new Partition(partition.path(), partition.values(), files));
      }
    }
    return planned;
  }

  /** The labels that the secondary indices admit for the conditions, or null when no index applies. */
  private Set<String> indexedLabels() {
    Set<String> admitted = null;
    for (TypedCondition condition : fileConditions) {
      List<Object> values = condition.admittedValues();
      if (values == null || !snapshot.indexColumns().contains(condition.columnName())) {
        continue;
      }
      TreeMap<Object, List<String>> index = new TreeMap<>(IndexFile.valueOrder(condition.column().getType()));
      index.putAll(snapshot.index(condition.columnName()));
      Set<String> labels = new HashSet<>();
      for (Object value : values) {
        labels.addAll(index.getOrDefault(value, List.of()));
      }
      if (admitted == null) {
        admitted = labels;
      } else {
        admitted.retainAll(labels);
      }
    }
    return admitted;
  }

  /** Reads the planned files in order and hands each matching row to {@code consumer}. */
  void forEachRow(RowConsumer consumer, Progress progress) throws IOException {
    int[] fromFile = new int[output.size()];
    int[] fromPartition = new int[output.size()];
    for (int i = 0; i < output.size(); i++) {
      String name = output.get(i).getName();
      fromPartition[i] = partitionKeyPositions.getOrDefault(name, -1);
      fromFile[i] = fileColumns.indexOf(name);
    }
    int[] conditionColumns = fileConditions.stream().mapToInt(c -> fileColumns.indexOf(c.columnName())).toArray();
    for (Partition partition : partitions) {
      consumer.startPartition(partition);
      for (DataFile file : partition.files()) {
        boolean more = fileColumns.isEmpty()
            ? emitPartitionRows(partition, file, fromPartition, consumer)
            : readFile(partition, file, fromFile, fromPartition, conditionColumns, consumer);
        progress.step();
        if (!more) {
          return;
        }
      }
    }
  }

  private boolean emitPartitionRows(Partition partition, DataFile file, int[] fromPartition, RowConsumer consumer)
      throws IOException {
    long rows = file.rows();
    if (rows < 0) {
      try (ParquetRowsReader reader = open(file)) {
        rows = reader.rowCount();
      }
    }
    for (long r = 0; r < rows; r++) {
      Object[] row = new Object[output.size()];
      for (int i = 0; i < row.length; i++) {
        row[i] = partition.values().get(fromPartition[i]);
      }
      if (!consumer.accept(row)) {
        return false;
      }
    }
    return true;
  }

  private boolean readFile(Partition partition, DataFile file, int[] fromFile, int[] fromPartition,
      int[] conditionColumns, RowConsumer consumer) throws IOException {
    try (ParquetRowsReader reader = open(file)) {
      Iterator<List<Object>> rows;
      try {
        rows = reader.rows(fileColumns);
      } catch (IllegalArgumentException e) {
        throw new CorruptDatasetException("Cannot read data file " + file.key(snapshot.uuid()) + " of dataset '"
            + snapshot.uuid() + "': it lacks columns of the committed schema (" + e.getMessage() + ")", e);
      }
      while (rows.hasNext()) {
        List<Object> values = rows.next();
        boolean match = true;
        for (int c = 0; c < conditionColumns.length && match; c++) {
          match = fileConditions.get(c).test(values.get(conditionColumns[c]));
        }
        if (!match) {
          continue;
        }
        Object[] row = new Object[output.size()];
        for (int i = 0; i < row.length; i++) {
          row[i] = fromFile[i] >= 0 ? values.get(fromFile[i]) : partition.values().get(fromPartition[i]);
        }
        if (!consumer.accept(row)) {
          return false;
        }
      }
      return true;
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private ParquetRowsReader open(DataFile file) throws IOException {
    String key = file.key(snapshot.uuid());
    return ParquetRowsReader.open(new StoreInputFile(store, key, file.bytes(), StoreInputFile.DEFAULT_READ_AHEAD));
  }
}
