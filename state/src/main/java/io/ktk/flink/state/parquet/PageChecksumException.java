package io.ktk.flink.state.parquet;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.CorruptDatasetException;

/**
 * A page of a Parquet file whose bytes do not match the CRC-32 in its page header: the file was
 * altered after it was written (a flipped bit on disk, in transit or in memory), so none of the
 * page's values can be trusted. Example message:
 *
 * <pre>
 * Cannot read Parquet file events/table/p=a/0f3c....parquet: page 1 (data page at byte 4711) of
 * column 'id' in row group 0 fails its checksum (header CRC-32 0x1b2c3d4e, bytes give 0x5f6a7b8c);
 * the file is corrupt: restore it from a copy or rewrite it from the source
 * </pre>
 */
public final class PageChecksumException extends CorruptDatasetException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final String column;
  private final int rowGroup;
  private final int page;

  PageChecksumException(String file, String column, int rowGroup, int page, String pageKind, long offset,
      int stored, int computed) {
    super("Cannot read Parquet file " + file + ": page " + page + " (" + pageKind + " at byte " + offset
        + ") of column '" + column + "' in row group " + rowGroup + " fails its checksum (header CRC-32 "
        + hex(stored) + ", bytes give " + hex(computed) + "); the file is corrupt: restore it from a copy or"
        + " rewrite it from the source");
    this.file = requireNonNull(file, "file is null");
    this.column = requireNonNull(column, "column is null");
    this.rowGroup = rowGroup;
    this.page = page;
  }

  /** The file, as its reader names it (the store key for files of a dataset). */
  public String file() {
    return file;
  }

  /** The column, its path joined with dots for nested leaves ({@code tags.list.element}). */
  public String column() {
    return column;
  }

  /** The row group, counted from 0. */
  public int rowGroup() {
    return rowGroup;
  }

  /** The page within its column chunk, counted from 0 (a dictionary page, if any, is page 0). */
  public int page() {
    return page;
  }

  private static String hex(int crc) {
    return String.format("0x%08x", crc);
  }
}
