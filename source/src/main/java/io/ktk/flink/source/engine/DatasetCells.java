package io.ktk.flink.source.engine;

import io.ktk.flink.source.planner.DatasetRead;
import io.ktk.flink.source.planner.PlannedFile;
import io.ktk.flink.source.planner.RowMerge;
import io.ktk.flink.source.query.QuerySemantics;
import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.parquet.ColumnStatistics;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.parquet.StoreInputFile;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.vector.TypedVector;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rows of one dataset in one partition of a query group, one per key, after de-duplication
 * and conditions, held as column vectors. How the rows of a key become one is the dataset's {@link
 * RowMerge}; the rest of this comment is about cube datasets ({@link RowMerge#CELLS}), the two
 * kinds of plain datasets differ as that enum says: without a key ({@link RowMerge#NONE}) every
 * passing row is kept, in read order, and a file that lacks a read column is corrupt; with a
 * primary key ({@link RowMerge#UPSERTS}) a row whose {@value PrimaryKey#DELETED_COLUMN} is true
 * fails whatever the conditions say, so that its key has no row when it is the last. The same holds
 * for the change files of a cube dataset written from a changelog: a deleted cell has no row.
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
  private final RowMerge merge;
  /** Kartothek semantics: filter rows, then keep the last passing row of each key. */
  private final boolean filterFirst;
  private final Set<String> keyNames = new HashSet<>();
  private final AppendedColumn[] columns;
  private boolean[] passes = new boolean[1024];
  /**
   * Rows that cannot decide a kept row, so de-duplication leaves them out: they fail a condition on
   * a key column (every row of their key fails it), or any condition where failing rows have no
   * effect (a projected seed, Kartothek semantics).
   */
  private boolean[] dropped = new boolean[1024];
  private int droppedCount;
  private int rows;
  private boolean anyPassed;
  /** The keys, one column each ({@link #encodeKeys}). */
  private CellKeys columnKeys;
  /** The keys as sorted and joined: {@link #columnKeys}, or those packed into one long ({@link #usePacked}). */
  private CellKeys keys;
  private int[] cells;
  private int cellCount;
  private long[] cellWords;
  /** Dense placement: the kept row + 1 (or 0) by key offset from {@link #slotsMin}. */
  private int[] slots;
  private long slotsMin;

  DatasetCells(DatasetRead dataset, QuerySemantics semantics) {
    this.dataset = dataset;
    this.merge = dataset.merge();
    this.filterFirst = semantics == QuerySemantics.KARTOTHEK;
    dataset.keyColumns().forEach(field -> keyNames.add(field.getName()));
    columns = new AppendedColumn[dataset.readColumns().size()];
    Arrays.setAll(columns, i -> new AppendedColumn());
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
      dropped = Arrays.copyOf(dropped, passes.length);
    }
    List<String> names = dataset.readColumnNames();
    int[] conditionPositions = conditions.stream().mapToInt(c -> names.indexOf(c.columnName())).toArray();
    for (PlannedFile file : files) {
      if (columns.length == 0 && file.rows() >= 0) {
        // only partition columns are asked for (a plain dataset): the logged row count says it all
        appendPassing((int) file.rows());
        continue;
      }
      try (ParquetRowsReader reader = ParquetRowsReader.open(
          new StoreInputFile(store, file.key(), file.bytes(), StoreInputFile.DEFAULT_READ_AHEAD))) {
        Set<String> present = new HashSet<>();
        reader.arrowSchema().getFields().forEach(field -> present.add(field.getName()));
        FileProjection all = FileProjection.of(dataset, file, dataset.readColumns(), present, true);
        FileProjection keysOnly = FileProjection.of(dataset, file, dataset.keyColumns(), present, false);
        if (columns.length == 0) {
          appendPassing(Math.toIntExact(reader.rowCount()));
          continue;
        }
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
        if (filterFirst || merge == RowMerge.NONE || dataset.projected() || keyNames.contains(column)) {
          return Pruned.SKIP;
        }
        pruned = Pruned.BY_PAYLOAD;
      }
    }
    return pruned;
  }

  /** Appends a row group's rows; with {@code conditions} null they are keys only, and fail. */
  private void read(ParquetRowsReader reader, int group, FileProjection projection, List<TypedCondition> conditions,
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
    grow(count);
    if (conditions != null) {
      test(byColumn, count, conditions, conditionPositions);
      if (projection.deleted() >= 0) {
        deletesFail(read.get(projection.deleted()), count);
      }
    }
    rows += count;
  }

  /** A delete (its {@value PrimaryKey#DELETED_COLUMN} true) fails: the key then has no row. */
  private void deletesFail(TypedVector deleted, int count) {
    for (int row = 0; row < count; row++) {
      if (Boolean.TRUE.equals(deleted.get(row))) {
        passes[rows + row] = false;
      }
    }
  }

  /** Appends {@code count} rows of no read column, all passing (there is no condition to test). */
  private void appendPassing(int count) {
    grow(count);
    Arrays.fill(passes, rows, rows + count, true);
    rows += count;
  }

  private void grow(int count) {
    if (rows + count > passes.length) {
      passes = Arrays.copyOf(passes, Math.max(rows + count, passes.length * 2));
      dropped = Arrays.copyOf(dropped, passes.length);
    }
  }

  /**
   * Tests the conditions on the rows just read: those on key columns first, whose failing rows are
   * {@link #dropped}, then the others (whose failing rows are dropped too where failing rows have
   * no effect).
   */
  private void test(TypedVector[] byColumn, int count, List<TypedCondition> conditions, int[] positions) {
    Arrays.fill(passes, rows, rows + count, true);
    boolean failingRowsCount = merge != RowMerge.NONE && !filterFirst && !dataset.projected();
    for (boolean onKeys : new boolean[] {true, false}) {
      for (int c = 0; c < positions.length; c++) {
        TypedCondition condition = conditions.get(c);
        if (keyNames.contains(condition.columnName()) == onKeys) {
          ConditionTests.apply(condition, byColumn[positions[c]], count, passes, rows);
        }
      }
      if (onKeys || !failingRowsCount) {
        for (int row = rows; row < rows + count; row++) {
          if (!passes[row] && !dropped[row]) {
            dropped[row] = true;
            droppedCount++;
          }
        }
      }
    }
    for (int row = 0; row < count && !anyPassed; row++) {
      anyPassed = passes[rows + row];
    }
  }

  /** Encodes the rows' keys; ranked columns hold value ids until {@link #keep}. */
  void encodeKeys(List<KeyKind> kinds, KeyRanks[] ranks) {
    if (merge == RowMerge.NONE) {
      return;
    }
    List<TypedVector> keyVectors = new ArrayList<>(kinds.size());
    for (int c = 0; c < kinds.size(); c++) {
      keyVectors.add(columns[c].vector());
    }
    columnKeys = CellKeys.encode(kinds, keyVectors, rows, ranks, droppedCount > 0 ? dropped : null);
    keys = columnKeys;
  }

  /** Turns the value ids of ranked key columns into ranks, once every dataset's keys are encoded. */
  void resolveRanks(List<KeyKind> kinds, KeyRanks[] ranks) {
    if (columnKeys != null) {
      columnKeys.resolveRanks(kinds, ranks);
    }
  }

  /** Sorts and joins by these keys, one long per row ({@link KeyPacking}), instead of by the columns. */
  void usePacked(long[] packed) {
    keys = CellKeys.single(packed, rows);
  }

  /**
   * Ranks the keys and keeps one row per key (see the class comment), in key order: keys of one
   * long in a range not much wider than the row count are placed by their value (a "perfect hash",
   * one pass); other keys are sorted.
   */
  void keep(KeySort sort) {
    if (merge == RowMerge.NONE) {
      keepPassing();
      return;
    }
    long[] single = keys.singleWords();
    if (single != null && rows > 0 && keepDense(single)) {
      return;
    }
    int count = rows - droppedCount;
    cells = new int[count];
    cellCount = 0;
    int[] order = new int[count];
    for (int row = 0, i = 0; row < rows; row++) {
      if (!dropped[row]) {
        order[i++] = row;
      }
    }
    sort.sort(keys, order, count);
    long[] sorted = null;
    if (single != null) {
      sorted = new long[count];
      for (int i = 0; i < count; i++) {
        sorted[i] = single[order[i]];
      }
      cellWords = new long[count];
    }
    int start = 0;
    while (start < count) {
      int end = start + 1;
      if (sorted != null) {
        while (end < count && sorted[end] == sorted[start]) {
          end++;
        }
      } else {
        while (end < count && keys.compare(order[start], keys, order[end]) == 0) {
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

  /** Without a key: every passing row, in read order. */
  private void keepPassing() {
    cells = new int[rows];
    cellCount = 0;
    for (int row = 0; row < rows; row++) {
      if (passes[row]) {
        cells[cellCount++] = row;
      }
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
      if (!dropped[row]) {
        min = Math.min(min, words[row]);
        max = Math.max(max, words[row]);
      }
    }
    long range = max - min;
    if (min > max || range < 0 || range >= 4L * (rows - droppedCount) + 1024) {
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
        if (!dropped[row]) {
          placed[(int) (words[row] - min)] = passes[row] ? row + 1 : 0;
        }
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

  /** The keys of all rows read as sorted and joined, maybe packed (index them with {@link #cells()}). */
  CellKeys keys() {
    return keys;
  }

  /** The keys of all rows read, one column each. */
  CellKeys columnKeys() {
    return columnKeys;
  }

  /** The values of read column {@code column} for all rows read. */
  TypedVector column(int column) {
    return columns[column].vector();
  }
}
