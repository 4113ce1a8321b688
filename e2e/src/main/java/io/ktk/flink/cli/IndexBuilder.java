package io.ktk.flink.cli;

import io.ktk.flink.sink.compaction.CompactionSettings;
import io.ktk.flink.sink.compaction.ViewFold;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.CommitConflictException;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.CommitResult;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.dataset.NoSuchDatasetException;
import io.ktk.flink.state.metadata.IndexFile;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.function.LongFunction;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Builds a secondary index over a dataset's existing files and commits it as one ADD_INDEX version,
 * then publishes the plateau view with the new index file.
 *
 * <p>Writers may commit while the files are read. The commit is therefore tried against exactly the
 * files it read: when another version was committed first, the builder reads the files that version
 * added, forgets the ones it removed, and tries again, so the index it commits covers every file of
 * the version before it. Versions committed after the index exists are the writers' to index.
 */
final class IndexBuilder {
  /** Versions lost to concurrent writers before giving up. */
  static final int MAX_ROUNDS = 100;

  private final ObjectStore store;
  private final String uuid;
  private final String column;

  /**
   * What was built.
   *
   * @param version the version that added the index
   * @param published the version the published view shows afterwards
   * @param values distinct values in the index
   * @param files files the index covers
   * @param rounds commit attempts (1 without concurrent writers)
   */
  record Built(long version, long published, int values, int files, int rounds) {}

  IndexBuilder(ObjectStore store, String uuid, String column) {
    this.store = store;
    this.uuid = uuid;
    this.column = column;
  }

  /** @param progress makes the progress of reading {@code n} files */
  Built build(LongFunction<Progress> progress) throws IOException {
    // One attempt per commit call: after a lost race the builder reads the new files before it tries again.
    CommitLog log = CommitLog.open(store, uuid, new CommitLogOptions(100, 1, Duration.ZERO));
    if (!log.state().exists()) {
      throw new NoSuchDatasetException("Cannot index dataset '" + uuid + "' in " + store.url()
          + ": it has neither a commit log nor plateau metadata");
    }
    Field field = checkColumn(log.state());
    Map<String, NavigableSet<Object>> valuesByLabel = new HashMap<>();
    for (int round = 1; ; round++) {
      DatasetState state = log.state();
      readNewFiles(state, field, valuesByLabel, progress);
      try {
        CommitResult result = log.commit(DatasetChange.addIndex(column, index(state, field, valuesByLabel)));
        long published = ViewFold.publish(log, CompactionSettings.defaults()); // folded with a primary key
        return new Built(result.version(), published, log.state().index(column).size(), valuesByLabel.size(), round);
      } catch (CommitConflictException lost) {
        if (round == MAX_ROUNDS) {
          throw new CommitConflictException("Cannot index column '" + column + "' of dataset '" + uuid + "': "
              + MAX_ROUNDS + " versions in a row were committed by others while the files were read");
        }
      }
    }
  }

  private Field checkColumn(DatasetState state) {
    Field field = state.schema().getFields().stream().filter(f -> f.getName().equals(column)).findFirst()
        .orElseThrow(() -> new KtkValidationException("Cannot index column '" + column + "' of dataset '" + uuid
            + "': it has no such column (columns: " + state.schema().getFields().stream().map(Field::getName).toList()
            + ")"));
    if (state.partitionKeys().contains(column)) {
      throw new KtkValidationException("Cannot index column '" + column + "' of dataset '" + uuid
          + "': it is a partition column, which the partitions index already");
    }
    if (state.indexColumns().contains(column)) {
      throw new KtkValidationException("Cannot index column '" + column + "' of dataset '" + uuid
          + "': it has an index already (indexed: " + state.indexColumns() + ")");
    }
    IndexFile.valueOrder(field.getType()); // refuses nested types with a message naming the type
    return field;
  }

  /** Reads the column from the files of {@code state} not read yet; forgets files the state no longer has. */
  private void readNewFiles(DatasetState state, Field field, Map<String, NavigableSet<Object>> valuesByLabel,
      LongFunction<Progress> progress) throws IOException {
    valuesByLabel.keySet().retainAll(state.files().keySet());
    List<DataFile> unread = new ArrayList<>();
    for (DataFile file : state.files().values()) {
      if (!valuesByLabel.containsKey(file.label())) {
        unread.add(file);
      }
    }
    try (Progress reading = progress.apply(unread.size())) {
      for (DataFile file : unread) {
        ColumnValues.Distinct distinct = ColumnValues.read(store, uuid, file, field);
        if (distinct.hasNull()) {
          throw new KtkValidationException("Cannot index column '" + column + "' of dataset '" + uuid + "': data file "
              + file.key(uuid) + " holds nulls in it, and an index column may not hold nulls (Kartothek's rule)");
        }
        valuesByLabel.put(file.label(), distinct.values());
        reading.step();
      }
    }
  }

  private static Map<IndexValue, List<String>> index(DatasetState state, Field field,
      Map<String, NavigableSet<Object>> valuesByLabel) {
    TreeMap<IndexValue, List<String>> index = new TreeMap<>(IndexFile.keyOrder(field.getType()));
    for (String label : state.files().keySet()) {
      for (Object value : valuesByLabel.get(label)) {
        index.computeIfAbsent(IndexValue.of(value), v -> new ArrayList<>()).add(label);
      }
    }
    return index;
  }
}
