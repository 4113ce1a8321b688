package io.ktk.flink.source.reader;

import io.ktk.flink.source.planner.DatasetRead;
import io.ktk.flink.source.planner.PlannedFile;
import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.parquet.ColumnStatistics;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.parquet.StoreInputFile;
import io.ktk.flink.state.rowformat.RowBuffer;
import io.ktk.flink.state.rowformat.RowKeyMap;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The rows of one dataset in one partition of a query group, one per key, after de-duplication
 * and conditions.
 *
 * <p>Files are read in write order and rows in file order; a later row of a key replaces an
 * earlier one, so each cell keeps the row written last (Kartothek's rule). The conditions are then
 * judged on that row: a cell whose last row fails them is dropped, even if an older row of it would
 * pass. A file planned for its keys only contributes keys whose rows fail. For a projected dataset
 * (the seed without some of its dimension columns), a key stands for several cells and is kept
 * when any of them passes.
 *
 * <p>A read column missing from a file (a column added to the schema after the file was written)
 * reads as null; a missing key column means the file does not belong to the dataset.
 */
final class DatasetCells {
  private final DatasetRead dataset;
  private final KeyEncoder encoder;
  private final int[] keyPositions;
  private final RowKeyMap keys = new RowKeyMap();
  private final List<Object[]> rows = new ArrayList<>();
  private final BitSet alive = new BitSet();
  private final RowBuffer buffer = new RowBuffer();
  private final Set<String> keyNames = new HashSet<>();

  DatasetCells(DatasetRead dataset, KeyEncoder encoder) {
    this.dataset = dataset;
    this.encoder = encoder;
    this.keyPositions = new int[dataset.keyColumns().size()];
    for (int i = 0; i < keyPositions.length; i++) {
      keyPositions[i] = i;
      keyNames.add(dataset.keyColumns().get(i).getName());
    }
  }

  /**
   * Reads {@code files} (in write order), testing rows with {@code conditions} (on read columns).
   * With {@code prune}, a row group whose statistics prove that all its rows fail a condition is
   * not tested: skipped when that cannot change the result, else read for its keys only.
   */
  void load(ObjectStore store, List<PlannedFile> files, List<TypedCondition> conditions, boolean prune,
      RowGroupCounters counters) throws IOException {
    List<String> names = dataset.readColumnNames();
    int[] conditionPositions = conditions.stream().mapToInt(c -> names.indexOf(c.columnName())).toArray();
    for (PlannedFile file : files) {
      try (ParquetRowsReader reader = ParquetRowsReader.open(
          new StoreInputFile(store, file.key(), file.bytes(), StoreInputFile.DEFAULT_READ_AHEAD))) {
        Set<String> present = new HashSet<>();
        reader.arrowSchema().getFields().forEach(field -> present.add(field.getName()));
        Projection all = projection(file, dataset.readColumns(), present);
        Projection keysOnly = projection(file, dataset.keyColumns(), present);
        for (int group = 0; group < reader.rowGroups().size(); group++) {
          if (file.keysOnly()) {
            read(reader, group, keysOnly, false, conditions, conditionPositions);
            continue;
          }
          Pruned pruned = prune ? pruned(reader, group, conditions, present) : Pruned.NO;
          switch (pruned) {
            case NO -> {
              counters.countRead();
              read(reader, group, all, true, conditions, conditionPositions);
            }
            case SKIP -> counters.countSkipped();
            case BY_PAYLOAD -> {
              // Its rows all fail, but one may be the newest row of a cell whose older row passed (the
              // last-written row decides): mark its keys as failing, unless no cell is alive yet.
              if (alive.isEmpty()) {
                counters.countSkipped();
              } else {
                counters.countKeysOnly();
                read(reader, group, keysOnly, false, conditions, conditionPositions);
              }
            }
            default -> throw new IllegalStateException("Unexpected pruning " + pruned);
          }
        }
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
    }
  }

  private enum Pruned { NO, SKIP, BY_PAYLOAD }

  /** The columns to read from a file and where they go; columns the file lacks read as null. */
  private record Projection(List<String> readable, int[] slots) {}

  private Projection projection(PlannedFile file, List<Field> wanted, Set<String> present) {
    List<String> readable = new ArrayList<>();
    int[] slots = new int[wanted.size()];
    for (int i = 0; i < wanted.size(); i++) {
      String name = wanted.get(i).getName();
      if (present.contains(name)) {
        slots[i] = readable.size();
        readable.add(name);
      } else if (i < keyPositions.length) {
        throw new CorruptDatasetException("Cannot read data file " + file.key() + " of dataset '" + dataset.uuid()
            + "': it lacks the dimension column '" + name + "'");
      } else {
        slots[i] = -1;
      }
    }
    return new Projection(readable, slots);
  }

  /**
   * Whether a row group can be pruned, and how: a failing condition on a key column fails every
   * row of the group's cells wherever they are (skip); for a projected dataset a failing row has no
   * effect (skip); otherwise the failing rows may still overwrite older rows of their cells.
   */
  private Pruned pruned(ParquetRowsReader reader, int group, List<TypedCondition> conditions, Set<String> present) {
    Pruned pruned = Pruned.NO;
    long rows = reader.rowGroups().get(group).getRowCount();
    for (TypedCondition condition : conditions) {
      String column = condition.columnName();
      ColumnStatistics statistics = present.contains(column)
          ? reader.statistics(group, column) : RowGroupPruning.absent(rows);
      if (RowGroupPruning.excludes(condition, statistics)) {
        if (dataset.projected() || keyNames.contains(column)) {
          return Pruned.SKIP;
        }
        pruned = Pruned.BY_PAYLOAD;
      }
    }
    return pruned;
  }

  private void read(ParquetRowsReader reader, int group, Projection projection, boolean test,
      List<TypedCondition> conditions, int[] conditionPositions) {
    int width = projection.slots().length;
    Iterator<List<Object>> it = reader.rowGroupRows(group, projection.readable());
    while (it.hasNext()) {
      List<Object> read = it.next();
      // Rows keep the width of the read columns, so that a keys-only row is stored like any other.
      Object[] values = new Object[dataset.readColumns().size()];
      for (int i = 0; i < width; i++) {
        int slot = projection.slots()[i];
        values[i] = slot < 0 ? null : read.get(slot);
      }
      add(values, test && passes(values, conditions, conditionPositions));
    }
  }

  private static boolean passes(Object[] values, List<TypedCondition> conditions, int[] positions) {
    for (int c = 0; c < positions.length; c++) {
      if (!conditions.get(c).test(values[positions[c]])) {
        return false;
      }
    }
    return true;
  }

  private void add(Object[] values, boolean passes) {
    encoder.encode(values, keyPositions, buffer);
    int id = keys.getOrAdd(buffer);
    if (id == rows.size()) {
      rows.add(null);
    }
    if (dataset.projected()) {
      if (passes && !alive.get(id)) {
        alive.set(id);
        rows.set(id, values);
      }
    } else {
      alive.set(id, passes);
      rows.set(id, passes ? values : null);
    }
  }

  /** The ids of the kept keys, sorted by key. */
  int[] sortedIds() {
    int[] ids = alive.stream().toArray();
    keys.sort(ids);
    return ids;
  }

  /** The kept row with this id: the values of the read columns. */
  Object[] row(int id) {
    return rows.get(id);
  }

  /** The kept row whose key {@code out} holds (encoded by this dataset's encoder), or null. */
  Object[] lookup(RowBuffer key) {
    int id = keys.get(key);
    return id >= 0 && alive.get(id) ? rows.get(id) : null;
  }
}
