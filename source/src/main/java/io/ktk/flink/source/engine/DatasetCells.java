package io.ktk.flink.source.engine;

import io.ktk.flink.source.planner.DatasetRead;
import io.ktk.flink.source.planner.PlannedFile;
import io.ktk.flink.source.query.QuerySemantics;
import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.parquet.ColumnStatistics;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.parquet.StoreInputFile;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.vector.ObjectVector;
import io.ktk.flink.state.vector.TypedVector;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The rows of one dataset in one partition of a query group, one per key, after de-duplication
 * and conditions, held as column vectors.
 *
 * <p>Files are read in write order and rows in file order; of the rows of a key, the one read last
 * is kept (Kartothek's rule: the last written wins). The conditions are judged on that row: a cell
 * whose last row fails them is dropped, even if an older row of it would pass. A file planned for
 * its keys only contributes keys whose rows fail. For a projected dataset (the seed without some
 * of its dimension columns), a key stands for several cells and is kept when any of them passes,
 * with the first passing row. With Kartothek semantics rows are filtered first and the last
 * passing row of a key is kept, as Kartothek 5.3 does (so an overwritten row may be returned).
 *
 * <p>De-duplication sorts the rows by key ({@link KeySort}, stable, so rows of a key stay in read
 * order) and takes one row of each run of equal keys; keys of one long in a dense range are placed
 * by value instead of sorted. The kept rows ({@link #cells()}) are then in key order, ready to be
 * merged with other datasets' cells.
 *
 * <p>A read column missing from a file (a column added to the schema after the file was written)
 * reads as null; a missing key column means the file does not belong to the dataset.
 */
final class DatasetCells {
  private final DatasetRead dataset;
  /** Kartothek semantics: filter rows, then keep the last passing row of each key. */
  private final boolean filterFirst;
  private final Set<String> keyNames = new HashSet<>();
  private final Column[] columns;
  private boolean[] passes = new boolean[1024];
  private int rows;
  private boolean anyPassed;
  private CellKeys keys;
  private int[] cells;
  private int cellCount;
  private long[] cellWords;
  /** Dense placement: the kept row + 1 (or 0) by key offset from {@link #slotsMin}. */
  private int[] slots;
  private long slotsMin;

  DatasetCells(DatasetRead dataset, QuerySemantics semantics) {
    this.dataset = dataset;
    this.filterFirst = semantics == QuerySemantics.KARTOTHEK;
    dataset.keyColumns().forEach(field -> keyNames.add(field.getName()));
    columns = new Column[dataset.readColumns().size()];
    Arrays.setAll(columns, i -> new Column());
  }

  /**
   * Reads {@code files} (in write order), testing rows with {@code conditions} (on read columns).
   * With {@code prune}, a row group whose statistics prove that all its rows fail a condition is
   * not tested: skipped when that cannot change the result, else read for its keys only.
   */
  void load(ObjectStore store, List<PlannedFile> files, List<TypedCondition> conditions, boolean prune,
      RowGroupCounters counters) throws IOException {
    long expected = files.stream().mapToLong(PlannedFile::rows).sum();
    if (expected > 0 && expected < Integer.MAX_VALUE) {
      // room for all rows at once: columns are not regrown file by file
      Arrays.stream(columns).forEach(column -> column.expect((int) expected));
      passes = Arrays.copyOf(passes, Math.max(passes.length, (int) expected));
    }
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
            read(reader, group, keysOnly, null, conditionPositions);
            continue;
          }
          // Kartothek's reader skips row groups by their statistics, and for != that changes rows: always
          Pruned pruned = prune || filterFirst ? pruned(reader, group, conditions, present) : Pruned.NO;
          switch (pruned) {
            case NO -> {
              counters.countRead();
              read(reader, group, all, conditions, conditionPositions);
            }
            case SKIP -> counters.countSkipped();
            case BY_PAYLOAD -> {
              // Its rows all fail, but one may be the newest row of a cell whose older row passed (the
              // last-written row decides): read its keys as failing, unless no row passed yet.
              if (!anyPassed) {
                counters.countSkipped();
              } else {
                counters.countKeysOnly();
                read(reader, group, keysOnly, null, conditionPositions);
              }
            }
            default -> throw new IllegalStateException("Unexpected pruning " + pruned);
          }
        }
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
      } else if (i < dataset.keyColumns().size()) {
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
   * effect (skip); otherwise the failing rows may still overwrite older rows of their cells. With
   * Kartothek semantics failing rows have no effect either (skip).
   */
  private Pruned pruned(ParquetRowsReader reader, int group, List<TypedCondition> conditions, Set<String> present) {
    Pruned pruned = Pruned.NO;
    long groupRows = reader.rowGroups().get(group).getRowCount();
    for (TypedCondition condition : conditions) {
      String column = condition.columnName();
      ColumnStatistics statistics = present.contains(column)
          ? reader.statistics(group, column) : RowGroupPruning.absent(groupRows);
      if (RowGroupPruning.excludes(condition, statistics)) {
        if (filterFirst || dataset.projected() || keyNames.contains(column)) {
          return Pruned.SKIP;
        }
        pruned = Pruned.BY_PAYLOAD;
      }
    }
    return pruned;
  }

  /** Appends a row group's rows; with {@code conditions} null they are keys only, and fail. */
  private void read(ParquetRowsReader reader, int group, Projection projection, List<TypedCondition> conditions,
      int[] conditionPositions) throws IOException {
    int count = Math.toIntExact(reader.rowGroups().get(group).getRowCount());
    if (count == 0) {
      return;
    }
    List<TypedVector> read = reader.readColumns(group, projection.readable());
    TypedVector[] byColumn = new TypedVector[columns.length];
    for (int i = 0; i < projection.slots().length; i++) {
      int slot = projection.slots()[i];
      byColumn[i] = slot < 0 ? null : read.get(slot);
    }
    for (int i = 0; i < columns.length; i++) {
      columns[i].append(byColumn[i], count);
    }
    if (rows + count > passes.length) {
      passes = Arrays.copyOf(passes, Math.max(rows + count, passes.length * 2));
    }
    if (conditions != null) {
      test(byColumn, count, conditions, conditionPositions);
    }
    rows += count;
  }

  private void test(TypedVector[] byColumn, int count, List<TypedCondition> conditions, int[] positions) {
    Arrays.fill(passes, rows, rows + count, true);
    for (int c = 0; c < positions.length; c++) {
      TypedCondition condition = conditions.get(c);
      TypedVector vector = byColumn[positions[c]];
      OrderedCondition ordered = vector == null ? null : OrderedCondition.of(condition, vector);
      if (ordered != null) {
        ordered.apply(vector, count, passes, rows);
        continue;
      }
      for (int row = 0; row < count; row++) {
        if (passes[rows + row]) {
          passes[rows + row] = condition.test(vector == null ? null : vector.get(row));
        }
      }
    }
    for (int row = 0; row < count && !anyPassed; row++) {
      anyPassed = passes[rows + row];
    }
  }

  /** Encodes the rows' keys; ranked columns hold value ids until {@link #keep}. */
  void encodeKeys(List<KeyKind> kinds, KeyRanks[] ranks) {
    List<TypedVector> keyVectors = new ArrayList<>(kinds.size());
    for (int c = 0; c < kinds.size(); c++) {
      keyVectors.add(columns[c].vector());
    }
    keys = CellKeys.encode(kinds, keyVectors, rows, ranks);
  }

  /**
   * Ranks the keys and keeps one row per key (see the class comment), in key order: keys of one
   * long in a range not much wider than the row count are placed by their value (a "perfect hash",
   * one pass); other keys are sorted.
   */
  void keep(List<KeyKind> kinds, KeyRanks[] ranks, KeySort sort) {
    keys.resolveRanks(kinds, ranks);
    long[] single = keys.singleWords();
    if (single != null && rows > 0 && keepDense(single)) {
      return;
    }
    cells = new int[rows];
    cellCount = 0;
    int[] order = new int[rows];
    Arrays.setAll(order, i -> i);
    sort.sort(keys, order, rows);
    long[] sorted = null;
    if (single != null) {
      sorted = new long[rows];
      for (int i = 0; i < rows; i++) {
        sorted[i] = single[order[i]];
      }
      cellWords = new long[rows];
    }
    int start = 0;
    while (start < rows) {
      int end = start + 1;
      if (sorted != null) {
        while (end < rows && sorted[end] == sorted[start]) {
          end++;
        }
      } else {
        while (end < rows && keys.compare(order[start], keys, order[end]) == 0) {
          end++;
        }
      }
      int kept = -1;
      if (dataset.projected()) {
        for (int i = start; i < end && kept < 0; i++) {
          if (passes[order[i]]) {
            kept = order[i];
          }
        }
      } else if (filterFirst) {
        for (int i = end - 1; i >= start && kept < 0; i--) {
          if (passes[order[i]]) {
            kept = order[i];
          }
        }
      } else if (passes[order[end - 1]]) {
        kept = order[end - 1];
      }
      if (kept >= 0) {
        if (sorted != null) {
          cellWords[cellCount] = sorted[start];
        }
        cells[cellCount++] = kept;
      }
      start = end;
    }
  }

  /**
   * Keeps one row per key by placing rows at their key's offset from the smallest key; false if
   * the range is too wide. A slot holds the kept row + 1, or 0: no cell, or one whose last row
   * failed (non-projected), or none of whose rows passed (projected).
   */
  private boolean keepDense(long[] words) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int row = 0; row < rows; row++) {
      min = Math.min(min, words[row]);
      max = Math.max(max, words[row]);
    }
    long range = max - min;
    if (range < 0 || range >= 4L * rows + 1024) {
      return false;
    }
    int[] placed = new int[(int) range + 1];
    if (dataset.projected()) {
      for (int row = 0; row < rows; row++) {
        int slot = (int) (words[row] - min);
        if (passes[row] && placed[slot] == 0) {
          placed[slot] = row + 1;
        }
      }
    } else if (filterFirst) {
      for (int row = 0; row < rows; row++) {
        if (passes[row]) {
          placed[(int) (words[row] - min)] = row + 1;
        }
      }
    } else {
      for (int row = 0; row < rows; row++) {
        placed[(int) (words[row] - min)] = passes[row] ? row + 1 : 0;
      }
    }
    slots = placed;
    slotsMin = min;
    cells = null;
    return true;
  }

  /** Whether the kept rows are placed by key ({@link #lookup} works). */
  boolean dense() {
    return slots != null;
  }

  /** For {@link #dense} cells: the kept row whose key is the single long {@code word}, or -1. */
  int lookup(long word) {
    long slot = word - slotsMin;
    return slot >= 0 && slot < slots.length ? slots[(int) slot] - 1 : -1;
  }

  /** Lists the placed rows in key order (once, when asked for). */
  private void listDense() {
    cells = new int[rows];
    cellWords = new long[rows];
    cellCount = 0;
    for (int slot = 0; slot < slots.length; slot++) {
      int row = slots[slot] - 1;
      if (row >= 0) {
        cellWords[cellCount] = slotsMin + slot;
        cells[cellCount++] = row;
      }
    }
  }

  /** The rows kept, in key order; valid up to {@link #cellCount()}. */
  int[] cells() {
    if (cells == null) {
      listDense();
    }
    return cells;
  }

  int cellCount() {
    cells();
    return cellCount;
  }

  /**
   * When a key is one long ({@link CellKeys#singleWords}), the key of each kept row, in the order of
   * {@link #cells()}; else null.
   */
  long[] cellWords() {
    cells();
    return cellWords;
  }

  /** The keys of all rows read (index them with {@link #cells()}). */
  CellKeys keys() {
    return keys;
  }

  /** The values of read column {@code column} for all rows read. */
  TypedVector column(int column) {
    return columns[column].vector();
  }

  /**
   * One read column's values over all row groups read: vectors of the same kind are appended as
   * they are; when a file stores the column differently (say timestamps in another unit), the
   * column continues as typed values; rows of a file without the column are null.
   */
  private static final class Column {
    private TypedVector vector;
    private int leadingNulls;
    private int expected;

    void expect(int rows) {
      expected = rows;
    }

    void append(TypedVector chunk, int count) {
      if (chunk == null) {
        if (vector == null) {
          leadingNulls += count;
        } else {
          for (int i = 0; i < count; i++) {
            vector.appendNull();
          }
        }
        return;
      }
      if (vector == null && leadingNulls == 0 && count >= expected) {
        vector = chunk;
        return;
      }
      if (vector == null) {
        vector = chunk.emptyCopy(Math.max(leadingNulls + count, expected));
        for (int i = 0; i < leadingNulls; i++) {
          vector.appendNull();
        }
      } else if (!vector.canAppend(chunk)) {
        vector = ObjectVector.copyOf(vector);
      }
      vector.appendFrom(chunk);
    }

    TypedVector vector() {
      if (vector == null) {
        vector = new ObjectVector(leadingNulls);
        for (int i = 0; i < leadingNulls; i++) {
          vector.appendNull();
        }
        leadingNulls = 0;
      }
      return vector;
    }
  }
}
