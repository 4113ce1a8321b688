package io.ktk.flink.state.parquet;

import static java.util.Objects.requireNonNull;

/**
 * Which rows of a row group to decode: a flag per row, true for a selected row. Readers given a
 * selection return vectors of the selected rows only, in row order, and skip the values of the
 * others without materializing them (a page without a selected row is not decoded at all). How a
 * reader decides which rows it wants (say, those passing a condition on columns it read first) is
 * its own business; the flags are read, never changed.
 */
public final class RowSelection {
  private final boolean[] selected;
  private final int rows;
  private final int count;
  /** The first and the last selected row (-1 when none is). */
  private final int first;
  private final int last;

  private RowSelection(boolean[] selected, int rows, int count, int first, int last) {
    this.selected = selected;
    this.rows = rows;
    this.count = count;
    this.first = first;
    this.last = last;
  }

  /**
   * The rows {@code r < rows} with {@code selected[r]} true; the array is used as it is (not copied),
   * and must not change while the selection is in use.
   */
  public static RowSelection of(boolean[] selected, int rows) {
    requireNonNull(selected, "selected is null");
    if (rows < 0 || rows > selected.length) {
      throw new IllegalArgumentException("rows " + rows + " outside the " + selected.length + " flags");
    }
    int count = 0;
    int first = -1;
    int last = -1;
    for (int row = 0; row < rows; row++) {
      if (selected[row]) {
        count++;
        last = row;
        if (first < 0) {
          first = row;
        }
      }
    }
    return new RowSelection(selected, rows, count, first, last);
  }

  /** The number of rows of the row group. */
  public int rows() {
    return rows;
  }

  /** The number of selected rows. */
  public int count() {
    return count;
  }

  /** Whether every row is selected. */
  public boolean all() {
    return count == rows;
  }

  public boolean contains(int row) {
    return selected[row];
  }

  /**
   * Whether any of the rows {@code [from, to)} is selected: at once when the range holds the first
   * or the last selected row or lies outside them (a row group of one page), else by looking.
   */
  boolean any(int from, int to) {
    if (count == 0 || to <= first || from > last) {
      return false;
    }
    if (from <= first || to > last) {
      return true; // the first (from <= first < to) or the last (from <= last < to) selected row is in range
    }
    for (int row = from; row < to; row++) {
      if (selected[row]) {
        return true;
      }
    }
    return false;
  }

  /** For each row, its position among the selected rows, or -1 (a mapping for {@code gather}). */
  public int[] positions() {
    int[] positions = new int[rows];
    for (int row = 0, at = 0; row < rows; row++) {
      positions[row] = selected[row] ? at++ : -1;
    }
    return positions;
  }

  /** The selected rows' numbers, in order (a mapping for {@code gather} from all rows). */
  public int[] selectedRows() {
    int[] numbers = new int[count];
    for (int row = 0, at = 0; row < rows; row++) {
      if (selected[row]) {
        numbers[at++] = row;
      }
    }
    return numbers;
  }
}
