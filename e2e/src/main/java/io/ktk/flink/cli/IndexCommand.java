package io.ktk.flink.cli;

import io.ktk.flink.state.ValidationException;
import io.ktk.flink.state.commit.CommitConflictException;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.CommitRequest;
import io.ktk.flink.state.commit.CommitResult;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.PlateauPublisher;
import io.ktk.flink.state.dataset.NoSuchDatasetException;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.IndexFile;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.Field;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code ktk index}: builds a secondary index over a dataset's existing files and commits it as one
 * ADD_INDEX version, then publishes the plateau view with the new index file.
 *
 * <p>Writers may commit while the files are read. The commit is therefore tried against exactly the
 * files it read: when another version was committed first, the command reads the files that version
 * added, drops the ones it removed, and tries again, so the index it commits always covers every file
 * of the version before it. Versions committed after the index exists are the writers' to index.
 */
@Command(
    name = "index",
    sortOptions = false,
    description = "Builds a secondary index on a column over the existing files of a dataset, commits it and "
        + "publishes the metadata with the new index.",
    footer = {"", "Example:", "  ktk index --store file:///data --dataset events --on customer"})
final class IndexCommand extends StoreCommand {
  /** Versions lost to concurrent writers before giving up. */
  private static final int MAX_ROUNDS = 100;

  @Option(names = "--dataset", required = true, paramLabel = "UUID", description = "The dataset's uuid.")
  String dataset;

  @Option(names = "--on", required = true, paramLabel = "COL", description = "The column to index.")
  String column;

  @Override
  void checkUsage() {
    if (!DatasetKeys.isValidUuid(dataset)) {
      throw new ParameterException(spec.commandLine(), "Invalid value for option '--dataset': '" + dataset
          + "' is not a dataset uuid (allowed: A-Z a-z 0-9 + - _)");
    }
  }

  @Override
  int run(ObjectStore store) throws Exception {
    // One attempt per commit call: after a lost race this command re-reads before it tries again.
    CommitLog log = CommitLog.open(store, dataset, new CommitLogOptions(100, 1, Duration.ZERO));
    DatasetState state = log.state();
    if (!state.exists()) {
      throw new NoSuchDatasetException("Cannot index dataset '" + dataset + "' in " + store.url()
          + ": it has neither a commit log nor plateau metadata");
    }
    Field field = checkColumn(state);
    Map<String, NavigableSet<Object>> valuesByLabel = new HashMap<>();
    for (int round = 1; ; round++) {
      state = log.state();
      readNewFiles(store, state, field, valuesByLabel);
      try {
        CommitResult result = log.commit(CommitRequest.addIndex(column, index(state, field, valuesByLabel)));
        long published = new PlateauPublisher().publish(log);
        int values = log.state().index(column).size();
        out().println("dataset " + dataset + ": indexed column " + column + " (" + values + " distinct values in "
            + state.files().size() + " files) at version " + result.version() + "; published version " + published);
        return Ktk.OK;
      } catch (CommitConflictException lost) {
        if (round == MAX_ROUNDS) {
          throw new CommitConflictException("Cannot index column '" + column + "' of dataset '" + dataset + "': "
              + MAX_ROUNDS + " versions in a row were committed by others while the files were read");
        }
      }
    }
  }

  private Field checkColumn(DatasetState state) {
    Field field = state.schema().getFields().stream().filter(f -> f.getName().equals(column)).findFirst()
        .orElseThrow(() -> new ValidationException("Cannot index column '" + column + "' of dataset '" + dataset
            + "': it has no such column (columns: " + state.schema().getFields().stream().map(Field::getName).toList()
            + ")"));
    if (state.partitionKeys().contains(column)) {
      throw new ValidationException("Cannot index column '" + column + "' of dataset '" + dataset
          + "': it is a partition column, which the partitions index already");
    }
    if (state.indexColumns().contains(column)) {
      throw new ValidationException("Cannot index column '" + column + "' of dataset '" + dataset
          + "': it has an index already (indexed: " + state.indexColumns() + ")");
    }
    IndexFile.valueOrder(field.getType()); // refuses nested types with a message naming the type
    return field;
  }

  /** Reads the column from the files of {@code state} not read yet; forgets files the state no longer has. */
  private void readNewFiles(ObjectStore store, DatasetState state, Field field,
      Map<String, NavigableSet<Object>> valuesByLabel) throws IOException {
    valuesByLabel.keySet().retainAll(state.files().keySet());
    List<DataFile> unread = new ArrayList<>();
    for (DataFile file : state.files().values()) {
      if (!valuesByLabel.containsKey(file.label())) {
        unread.add(file);
      }
    }
    try (Progress progress = progress("reading files", unread.size())) {
      for (DataFile file : unread) {
        ColumnValues.Distinct distinct = ColumnValues.read(store, dataset, file, field);
        if (distinct.hasNull()) {
          throw new ValidationException("Cannot index column '" + column + "' of dataset '" + dataset + "': data file "
              + file.key(dataset) + " holds nulls in it, and an index column may not hold nulls (Kartothek's rule)");
        }
        valuesByLabel.put(file.label(), distinct.values());
        progress.step();
      }
    }
  }

  private static Map<Object, List<String>> index(DatasetState state, Field field,
      Map<String, NavigableSet<Object>> valuesByLabel) {
    TreeMap<Object, List<String>> index = new TreeMap<>(IndexFile.valueOrder(field.getType()));
    for (String label : state.files().keySet()) {
      for (Object value : valuesByLabel.get(label)) {
        index.computeIfAbsent(value, v -> new ArrayList<>()).add(label);
      }
    }
    return index;
  }
}
