package io.ktk.flink.source.engine;

import io.ktk.flink.source.planner.DatasetRead;
import io.ktk.flink.source.planner.PlannedFile;
import io.ktk.flink.source.planner.RowMerge;
import io.ktk.flink.source.query.QuerySemantics;
import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.parquet.ColumnStatistics;
import io.ktk.flink.state.parquet.FooterCache;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.parquet.RowSelection;
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
 * Reads a dataset's planned files of one partition, row group by row group, into its {@link
 * DatasetCells}: prunes row groups by their statistics, tests the conditions, and decodes late.
 *
 * <p><b>Late materialization.</b> A row group's condition columns (and the deletes column) are
 * decoded first and the conditions tested on them. Rows that cannot decide a kept row are not
 * decoded further and not kept at all ({@link DatasetCells}: a row failing a condition on a key
 * column, whose key fails everywhere, or any failing row where failing rows have no effect: plain
 * datasets without a key, a projected seed, Kartothek semantics). Of the other rows, the key columns
 * are decoded; the remaining payload columns only for the rows that pass, since a failing row is
 * kept only to stand for its key (it may be the newest row of a cell whose older row passed, and
 * then drops the cell: the merge decides which row of a cell wins before its conditions count) and
 * is never returned. A row group none of whose rows is kept decodes nothing beyond the condition
 * columns. {@link KeyFilter}s from restricted datasets read before act as conditions on key columns.
 */
final class DatasetLoader {
  private final DatasetRead dataset;
  private final RowMerge merge;
  private final boolean filterFirst;
  private final Set<String> keyNames = new HashSet<>();
  private final DatasetCells cells;
  private final FooterCache footers;
  /** Whether a row failing a payload condition still counts, as the newest row of its key. */
  private final boolean failingRowsCount;
  private List<KeyFilter> filters = List.of();
  /** The position among the read columns of each filter's column. */
  private int[] filterPositions = new int[0];

  /** @param footers the footers of files read before (by this reader), or null */
  DatasetLoader(DatasetRead dataset, QuerySemantics semantics, DatasetCells cells, FooterCache footers) {
    this.dataset = dataset;
    this.footers = footers;
    this.merge = dataset.merge();
    this.filterFirst = semantics == QuerySemantics.KARTOTHEK;
    this.cells = cells;
    dataset.keyColumns().forEach(field -> keyNames.add(field.getName()));
    failingRowsCount = merge != RowMerge.NONE && !filterFirst && !dataset.projected();
  }

  /**
   * Reads {@code files} (in write order), testing rows with {@code conditions} (on read columns).
   * With {@code prune}, a row group whose statistics prove that all its rows fail a condition is
   * not tested: skipped when that cannot change the result, else read for its keys only.
   */
  void load(ObjectStore store, List<PlannedFile> files, List<TypedCondition> conditions, boolean prune,
      RowGroupCounters counters) throws IOException {
    load(store, files, conditions, List.of(), prune, counters);
  }

  /**
   * Like {@link #load(ObjectStore, List, List, boolean, RowGroupCounters)}, dropping also the rows
   * that {@code filters} (on key columns of this dataset) rule out.
   */
  void load(ObjectStore store, List<PlannedFile> files, List<TypedCondition> conditions, List<KeyFilter> filters,
      boolean prune, RowGroupCounters counters) throws IOException {
    List<String> readNames = dataset.readColumnNames();
    this.filters = filters;
    filterPositions = filters.stream().mapToInt(filter -> readNames.indexOf(filter.column())).toArray();
    long expected = files.stream().mapToLong(PlannedFile::rows).sum();
    boolean rowsDropped = !filters.isEmpty() || conditions.stream()
        .anyMatch(condition -> !failingRowsCount || keyNames.contains(condition.columnName()));
    if (!rowsDropped && expected > 0 && expected < Integer.MAX_VALUE) {
      // every row is kept (for its key at least): room for all at once, so columns are not regrown file by file
      cells.expect((int) expected);
    }
    List<String> names = dataset.readColumnNames();
    int[] conditionPositions = conditions.stream().mapToInt(c -> names.indexOf(c.columnName())).toArray();
    for (PlannedFile file : files) {
      if (cells.width() == 0 && file.rows() >= 0) {
        // only partition columns are asked for (a plain dataset): the logged row count says it all
        cells.appendPassing((int) file.rows());
        continue;
      }
      try (ParquetRowsReader reader = ParquetRowsReader.open(
          new StoreInputFile(store, file.key(), file.bytes(), StoreInputFile.DEFAULT_READ_AHEAD), true, footers)) {
        Set<String> present = new HashSet<>();
        reader.arrowSchema().getFields().forEach(field -> present.add(field.getName()));
        FileProjection all = FileProjection.of(dataset, file, dataset.readColumns(), present, true);
        FileProjection keysOnly = FileProjection.of(dataset, file, dataset.keyColumns(), present, false);
        if (cells.width() == 0) {
          cells.appendPassing(Math.toIntExact(reader.rowCount()));
          continue;
        }
        for (int group = 0; group < reader.rowGroups().size(); group++) {
          if (file.keysOnly()) {
            readKeys(reader, group, keysOnly);
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
              if (!cells.anyPassed()) {
                counters.countSkipped();
              } else {
                counters.countKeysOnly();
                readKeys(reader, group, keysOnly);
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

  /** Appends a row group's rows for their keys only: they all fail. */
  private void readKeys(ParquetRowsReader reader, int group, FileProjection projection) throws IOException {
    int count = Math.toIntExact(reader.rowGroups().get(group).getRowCount());
    if (count == 0) {
      return;
    }
    List<TypedVector> read = reader.readColumns(group, projection.readable());
    TypedVector[] byColumn = new TypedVector[cells.width()];
    for (int i = 0; i < projection.slots().length; i++) {
      int slot = projection.slots()[i];
      byColumn[i] = slot < 0 ? null : read.get(slot);
    }
    cells.append(byColumn, null, count);
  }

  /**
   * Reads a row group's rows, conditions first (see the class comment), and appends those that
   * can decide a kept row.
   */
  private void read(ParquetRowsReader reader, int group, FileProjection projection, List<TypedCondition> conditions,
      int[] conditionPositions) throws IOException {
    int count = Math.toIntExact(reader.rowGroups().get(group).getRowCount());
    if (count == 0) {
      return;
    }
    int width = cells.width();
    int[] slots = projection.slots();
    List<String> readable = projection.readable();
    // 1. the columns the conditions test, and the deletes
    boolean[] early = new boolean[width];
    List<String> earlyNames = new ArrayList<>();
    List<Integer> earlyColumns = new ArrayList<>();
    int[] earlyPositions = java.util.stream.IntStream.concat(Arrays.stream(conditionPositions),
        Arrays.stream(filterPositions)).toArray();
    for (int position : earlyPositions) {
      if (!early[position] && slots[position] >= 0) {
        early[position] = true;
        earlyNames.add(readable.get(slots[position]));
        earlyColumns.add(position);
      }
    }
    if (projection.deleted() >= 0) {
      earlyNames.add(PrimaryKey.DELETED_COLUMN);
    }
    TypedVector[] byColumn = new TypedVector[width];
    List<TypedVector> earlyRead = earlyNames.isEmpty() ? List.of() : reader.readColumns(group, earlyNames);
    for (int i = 0; i < earlyColumns.size(); i++) {
      byColumn[earlyColumns.get(i)] = earlyRead.get(i);
    }
    boolean[] passes = new boolean[count];
    boolean[] kept = new boolean[count];
    test(byColumn, count, conditions, conditionPositions, passes, kept);
    if (projection.deleted() >= 0) {
      deletesFail(earlyRead.get(earlyRead.size() - 1), count, passes);
    }
    RowSelection keptRows = RowSelection.of(kept, count);
    if (keptRows.count() == 0) {
      return;
    }
    // 2. the other columns: key columns for the kept rows, payload columns for the passing ones
    boolean[] passing = new boolean[count];
    for (int row = 0; row < count; row++) {
      passing[row] = kept[row] && passes[row];
    }
    RowSelection passingRows = RowSelection.of(passing, count);
    readLate(reader, group, projection, early, keptRows, passingRows, byColumn);
    int[] keptNumbers = keptRows.all() ? null : keptRows.selectedRows();
    if (keptNumbers != null) {
      for (int position : earlyColumns) {
        byColumn[position] = byColumn[position].gather(keptNumbers, keptNumbers.length);
      }
    }
    boolean[] keptPasses = new boolean[keptRows.count()];
    for (int row = 0, at = 0; row < count; row++) {
      if (kept[row]) {
        keptPasses[at++] = passes[row];
      }
    }
    cells.append(byColumn, keptPasses, keptRows.count());
  }

  /**
   * Reads the columns not read early into {@code byColumn}, each with one value per kept row: key
   * columns decoded for the kept rows, payload columns for the passing ones (null for the others).
   */
  private void readLate(ParquetRowsReader reader, int group, FileProjection projection, boolean[] early,
      RowSelection kept, RowSelection passing, TypedVector[] byColumn) throws IOException {
    int keyCount = dataset.keyColumns().size();
    boolean allPass = passing.count() == kept.count();
    List<String> keyNamesLate = new ArrayList<>();
    List<Integer> keyColumnsLate = new ArrayList<>();
    List<String> payloadNames = new ArrayList<>();
    List<Integer> payloadColumns = new ArrayList<>();
    for (int i = 0; i < byColumn.length; i++) {
      int slot = projection.slots()[i];
      if (early[i] || slot < 0) {
        continue;
      }
      boolean asKey = i < keyCount || allPass;
      (asKey ? keyNamesLate : payloadNames).add(projection.readable().get(slot));
      (asKey ? keyColumnsLate : payloadColumns).add(i);
    }
    if (!keyNamesLate.isEmpty()) {
      List<TypedVector> read = reader.readColumns(group, keyNamesLate, kept);
      for (int i = 0; i < read.size(); i++) {
        byColumn[keyColumnsLate.get(i)] = read.get(i);
      }
    }
    if (!payloadNames.isEmpty()) {
      // passing rows' values, spread over the kept rows (a failing row's payload is never returned)
      List<TypedVector> read = passing.count() == 0 ? null : reader.readColumns(group, payloadNames, passing);
      int[] spread = new int[kept.count()];
      int[] positions = passing.positions();
      for (int row = 0, at = 0; row < kept.rows(); row++) {
        if (kept.contains(row)) {
          spread[at++] = positions[row];
        }
      }
      for (int i = 0; i < payloadNames.size(); i++) {
        byColumn[payloadColumns.get(i)] = read == null ? null : read.get(i).gather(spread, spread.length);
      }
    }
  }

  /** A delete (its {@value PrimaryKey#DELETED_COLUMN} true) fails: the key then has no row. */
  private static void deletesFail(TypedVector deleted, int count, boolean[] passes) {
    for (int row = 0; row < count; row++) {
      if (Boolean.TRUE.equals(deleted.get(row))) {
        passes[row] = false;
      }
    }
  }

  /**
   * Tests the conditions on a row group's rows: those on key columns first, whose failing rows are
   * not {@code kept} (every row of their key fails), then the others (whose failing rows are not kept
   * either where failing rows have no effect).
   */
  private void test(TypedVector[] byColumn, int count, List<TypedCondition> conditions, int[] positions,
      boolean[] passes, boolean[] kept) {
    Arrays.fill(passes, 0, count, true);
    for (boolean onKeys : new boolean[] {true, false}) {
      for (int c = 0; c < positions.length; c++) {
        TypedCondition condition = conditions.get(c);
        if (keyNames.contains(condition.columnName()) == onKeys) {
          ConditionTests.apply(condition, byColumn[positions[c]], count, passes, 0);
        }
      }
      if (onKeys) {
        for (int f = 0; f < filters.size(); f++) {
          TypedVector vector = byColumn[filterPositions[f]];
          if (vector != null) {
            filters.get(f).apply(vector, count, passes);
          }
        }
      }
      if (onKeys || !failingRowsCount) {
        System.arraycopy(passes, 0, kept, 0, count);
      }
    }
  }
}
