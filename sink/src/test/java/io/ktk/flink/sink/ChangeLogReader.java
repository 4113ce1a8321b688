package io.ktk.flink.sink;

import io.ktk.flink.sink.Changelogs.Row;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a version of a {@link Changelogs} dataset from its commit log, merging by key as this
 * project's readers do ({@code docs/cdc.md}): per partition the files in (version added, label)
 * order, their rows in order, the last row of a key kept unless it deletes the key. Independent of
 * the source module's reader, so that the sink's output is checked on its own.
 */
final class ChangeLogReader {
  private ChangeLogReader() {}

  /** The table at {@code version}, by key. */
  static Map<Long, Row> read(ObjectStore store, String uuid, long version) throws IOException {
    return read(store, new LogReader(store, uuid).at(version));
  }

  static Map<Long, Row> read(ObjectStore store, DatasetState state) throws IOException {
    List<DataFile> files = new ArrayList<>(state.files().values());
    files.sort(Comparator.comparing(DataFile::physicalPartition).thenComparingLong(f -> state.addedIn(f.label()))
        .thenComparing(DataFile::label));
    Map<Long, Row> table = new HashMap<>();
    for (DataFile file : files) {
      String p = file.physicalPartition().substring("p=".length());
      try (ParquetRowsReader reader = ParquetRowsReader.open(store, file.key(state.uuid()))) {
        boolean changes = reader.parquetSchema().containsField(PrimaryKey.DELETED_COLUMN);
        List<String> columns = changes ? List.of("k", "v", "s", "seq", PrimaryKey.DELETED_COLUMN)
            : List.of("k", "v", "s", "seq");
        for (List<Object> row : reader.readAll(columns)) {
          long k = (Long) row.get(0);
          if (changes && Boolean.TRUE.equals(row.get(4))) {
            table.remove(k);
          } else {
            table.put(k, new Row(k, p, (Long) row.get(1), (String) row.get(2), (Long) row.get(3)));
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
