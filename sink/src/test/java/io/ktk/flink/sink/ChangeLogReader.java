package io.ktk.flink.sink;

import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a version of a dataset with a primary key from its commit log, merging by key as this
 * project's readers do ({@code docs/cdc.md}): per partition the files in (version added, label)
 * order, their rows in order, the last row of a key kept unless it deletes the key. Independent of
 * the source module's reader, so that the sink's output is checked on its own. Partition values
 * are read from the labels, as strings.
 */
final class ChangeLogReader {
  private ChangeLogReader() {}

  /** The table at {@code version}: per key (the key columns' values), the row's {@code columns}. */
  static Map<List<Object>, List<Object>> read(ObjectStore store, String uuid, long version, List<String> columns)
      throws IOException {
    return read(store, new LogReader(store, uuid).at(version), columns);
  }

  static Map<List<Object>, List<Object>> read(ObjectStore store, DatasetState state, List<String> columns)
      throws IOException {
    List<String> key = PrimaryKey.of(state.uuid(), state.metadata()).orElseThrow();
    List<String> partitionKeys = state.partitionKeys();
    List<String> dataColumns = new ArrayList<>(columns.stream().filter(c -> !partitionKeys.contains(c)).toList());
    List<DataFile> files = new ArrayList<>(state.files().values());
    files.sort(Comparator.comparing(DataFile::physicalPartition).thenComparingLong(f -> state.addedIn(f.label()))
        .thenComparing(DataFile::label));
    Map<List<Object>, List<Object>> table = new HashMap<>();
    for (DataFile file : files) {
      Map<String, Object> partition = new HashMap<>();
      String[] segments = file.label().split("/");
      for (int i = 0; i < partitionKeys.size(); i++) {
        String value = segments[i].substring(segments[i].indexOf('=') + 1);
        partition.put(partitionKeys.get(i), URLDecoder.decode(value, StandardCharsets.UTF_8));
      }
      try (ParquetRowsReader reader = ParquetRowsReader.open(store, file.key(state.uuid()))) {
        boolean changes = reader.parquetSchema().containsField(PrimaryKey.DELETED_COLUMN);
        List<String> read = new ArrayList<>(dataColumns);
        if (changes) {
          read.add(PrimaryKey.DELETED_COLUMN);
        }
        for (List<Object> values : reader.readAll(read)) {
          List<Object> row = new ArrayList<>();
          for (String column : columns) {
            int at = dataColumns.indexOf(column);
            row.add(at < 0 ? partition.get(column) : values.get(at));
          }
          List<Object> rowKey = key.stream().map(c -> row.get(columns.indexOf(c))).toList();
          if (changes && Boolean.TRUE.equals(values.get(dataColumns.size()))) {
            table.remove(rowKey);
          } else {
            table.put(rowKey, row);
          }
        }
      }
    }
    return table;
  }

  /** The version's checkpoint: that of the latest entry up to it with a checkpoint id. */
  static Optional<Long> checkpointOf(ObjectStore store, String uuid, long version) throws IOException {
    DatasetState state = new LogReader(store, uuid).at(version);
    return state.checkpoints().values().stream().max(Long::compare);
  }
}
