package io.ktk.flink.source.engine;

import io.ktk.flink.source.planner.DatasetRead;
import io.ktk.flink.source.planner.RowMerge;
import io.ktk.flink.source.query.QuerySemantics;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.vector.TypedVector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
 * <p>Rows that cannot decide a kept row are never appended ({@link DatasetLoader} reads them no
 * further than their condition columns): a row failing a condition on a key column (every row of
 * its key fails it), or any failing row where failing rows have no effect (a projected seed,
 * Kartothek semantics, a plain dataset without a key). A read column missing from a file (a column
 * added to the schema after the file was written) reads as null; a missing key column means the
 * file does not belong to the dataset.
 */
final class DatasetCells {
  private final DatasetRead dataset;
  private final RowMerge merge;
  /** Kartothek semantics: filter rows, then keep the last passing row of each key. */
  private final boolean filterFirst;
  private final AppendedColumn[] columns;
  private boolean[] passes = new boolean[1024];
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
    columns = new AppendedColumn[dataset.readColumns().size()];
    Arrays.setAll(columns, i -> new AppendedColumn());
  }

  /** The number of read columns (those of {@link DatasetRead#readColumns}). */
  int width() {
    return columns.length;
  }

  /** Makes room for {@code count} rows at once, so that columns are not regrown file by file. */
  void expect(int count) {
    Arrays.stream(columns).forEach(column -> column.expect(count));
    passes = Arrays.copyOf(passes, Math.max(passes.length, count));
  }

  /**
   * Appends {@code count} rows: {@code byColumn} holds a vector per read column (null: the file
   * lacks it, all null), {@code rowPasses} whether each row passes the conditions (null: none does,
   * the rows stand for their keys only).
   */
  void append(TypedVector[] byColumn, boolean[] rowPasses, int count) {
    for (int i = 0; i < columns.length; i++) {
      columns[i].append(byColumn[i], count);
    }
    grow(count);
    if (rowPasses == null) {
      Arrays.fill(passes, rows, rows + count, false);
    } else {
      System.arraycopy(rowPasses, 0, passes, rows, count);
      for (int row = 0; row < count && !anyPassed; row++) {
        anyPassed = rowPasses[row];
      }
    }
    rows += count;
  }

  /** Appends {@code count} rows of no read column, all passing (there is no condition to test). */
  void appendPassing(int count) {
    grow(count);
    Arrays.fill(passes, rows, rows + count, true);
    rows += count;
    anyPassed |= count > 0;
  }

  /** The number of rows appended. */
  int rows() {
    return rows;
  }

  /** Per row appended (up to {@link #rows()}), whether it passes the conditions; read only. */
  boolean[] passes() {
    return passes;
  }

  /** Whether any row appended so far passes the conditions. */
  boolean anyPassed() {
    return anyPassed;
  }

  private void grow(int count) {
    if (rows + count > passes.length) {
      passes = Arrays.copyOf(passes, Math.max(rows + count, passes.length * 2));
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
    columnKeys = CellKeys.encode(kinds, keyVectors, rows, ranks);
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
    int count = rows;
    cells = new int[count];
    cellCount = 0;
    int[] order = new int[count];
    Arrays.setAll(order, row -> row);
    sort.sort(keys, order, count);
    long[] sorted = null;
    if (single != null) {
      sorted = new long[count];
      sort.sortedWords(sorted, count);
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
      min = Math.min(min, words[row]);
      max = Math.max(max, words[row]);
    }
    long range = max - min;
    if (min > max || range < 0 || range >= 4L * rows + 1024) {
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
