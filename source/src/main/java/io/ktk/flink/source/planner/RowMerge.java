package io.ktk.flink.source.planner;

/**
 * How the rows a dataset holds for one key become the rows a query sees (the "one row per cell"
 * rule of cubes, and its two variants for plain datasets).
 *
 * <ul>
 *   <li>{@link #CELLS}: a cube dataset. The key is the dataset's dimension columns (within a
 *       partition); of the rows of a key the last-written one counts: the file added by the higher
 *       version, then the higher label, then the later row. Conditions judge that row. A cube
 *       dataset written from a changelog ({@code docs/cdc.md}) has change files: when the last row
 *       of a cell has {@code __ktk_deleted} true, the cell has no row.
 *   <li>{@link #NONE}: a plain dataset without a primary key. Every row of every file counts, as
 *       stored; there is no key, nothing is merged, and rows keep the order they were read in.
 *   <li>{@link #UPSERTS}: a plain dataset with a primary key ({@code ktk_primary_key}). The key is
 *       the primary key's columns besides the partition columns; the last-written row per key
 *       counts, as for {@link #CELLS}, and when that row's {@code __ktk_deleted} column is true the
 *       key is deleted: it has no row. Files without that column hold no deletes.
 * </ul>
 */
public enum RowMerge {
  CELLS,
  NONE,
  UPSERTS
}
