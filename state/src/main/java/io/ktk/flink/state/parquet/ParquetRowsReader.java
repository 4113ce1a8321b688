package io.ktk.flink.state.parquet;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.vector.TypedVector;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.MessageType;

/**
 * Reads a Parquet file as rows of typed Java values (the convention of {@link
 * ParquetRowsWriter}), projected to the top-level columns asked for, without Hadoop: the footer
 * and the projected column chunks are read by {@link ParquetChunks} with ranged reads, pages are
 * decompressed by {@link ParquetCodecs}, and parquet-column's record assembly turns levels and
 * values into rows.
 *
 * <p>Values are decoded by the Parquet type alone, so files with or without an {@code
 * ARROW:schema} read the same; {@link #arrowSchema()} is the schema pyarrow derives from the
 * Parquet schema (callers that want the {@code ARROW:schema} decode it from {@link
 * #keyValueMetadata()}).
 *
 * <p>A file that is not Parquet, is truncated, or cannot be decoded fails with {@link
 * CorruptDatasetException} naming the file; a page whose bytes do not match the CRC in its header
 * fails with {@link PageChecksumException} (checked by default as pages are read); a missing object fails with the store's {@code
 * NoSuchObjectException}; other I/O errors are passed on as they are. Not thread-safe.
 */
public final class ParquetRowsReader implements AutoCloseable {
  private final String name;
  private final SeekableInputStream in;
  private final ParquetMetadata footer;
  private final FileMetaData rawFooter;
  private final MessageType schema;
  private final Schema arrowSchema;
  private final ParquetCodecs codecs = new ParquetCodecs();
  private final boolean verifyChecksums;

  private ParquetRowsReader(String name, SeekableInputStream in, ParquetChunks.Footer footer,
      boolean verifyChecksums) {
    this.name = name;
    this.in = in;
    this.verifyChecksums = verifyChecksums;
    this.footer = footer.metadata();
    this.rawFooter = footer.raw();
    this.schema = this.footer.getFileMetaData().getSchema();
    try {
      this.arrowSchema = ArrowParquetSchemas.toArrow(schema);
    } catch (CorruptDatasetException e) {
      throw new CorruptDatasetException("Cannot read Parquet file " + name + ": " + e.getMessage(), e);
    }
  }

  /** Opens the object {@code key}, read with ranged reads. */
  public static ParquetRowsReader open(ObjectStore store, String key) throws IOException {
    return open(new StoreInputFile(store, key));
  }

  /**
   * Opens {@code file}; its {@code toString()} names it in messages (the store key for ours). Pages
   * that carry a CRC are checked as they are read.
   */
  public static ParquetRowsReader open(InputFile file) throws IOException {
    return open(file, true);
  }

  /**
   * Opens {@code file}, checking the CRC of every page read that carries one when {@code
   * verifyPageChecksums} (what {@link #open(InputFile)} does), or trusting the bytes when not.
   */
  public static ParquetRowsReader open(InputFile file, boolean verifyPageChecksums) throws IOException {
    return open(file, verifyPageChecksums, null);
  }

  /**
   * Opens {@code file} as {@link #open(InputFile, boolean)} does, taking its footer from {@code
   * footers} when it holds the footer of a file of this name and size (null: no cache), and putting
   * it there after reading it otherwise.
   */
  public static ParquetRowsReader open(InputFile file, boolean verifyPageChecksums, FooterCache footers)
      throws IOException {
    requireNonNull(file, "file is null");
    String name = file.toString();
    long length = file.getLength();
    SeekableInputStream in = file.newStream();
    try {
      ParquetChunks.Footer footer = footers == null ? null : footers.get(name, length);
      if (footer == null) {
        footer = ParquetChunks.readFooter(name, in, length);
        if (footers != null) {
          footers.put(name, length, footer);
        }
      }
      return new ParquetRowsReader(name, in, footer, verifyPageChecksums);
    } catch (EOFException e) {
      in.close();
      throw corrupt(name, e);
    } catch (IOException | RuntimeException e) {
      in.close();
      throw e;
    }
  }

  /** The file's Parquet schema. */
  public MessageType parquetSchema() {
    return schema;
  }

  /** The Arrow schema of the Parquet schema, as pyarrow reads a file without {@code ARROW:schema}. */
  public Schema arrowSchema() {
    return arrowSchema;
  }

  /** The footer's key/value metadata, e.g. {@code ARROW:schema} and {@code pandas}. */
  public Map<String, String> keyValueMetadata() {
    return footer.getFileMetaData().getKeyValueMetaData();
  }

  /** The whole footer: row groups, column chunk statistics, the writer's {@code created_by}. */
  public ParquetMetadata footer() {
    return footer;
  }

  /** The number of rows in the file. */
  public long rowCount() {
    return footer.getBlocks().stream().mapToLong(BlockMetaData::getRowCount).sum();
  }

  /** The row groups, with their row counts and column statistics. */
  public List<BlockMetaData> rowGroups() {
    return footer.getBlocks();
  }

  /**
   * Iterates over all rows, each holding the values of {@code columns} in that order. Throws
   * {@link IllegalArgumentException} for a column the file does not have (check {@link
   * #arrowSchema()} first), {@link CorruptDatasetException} for undecodable data and {@link
   * UncheckedIOException} when the store fails.
   */
  public Iterator<List<Object>> rows(List<String> columns) {
    RowProjection projection = project(columns);
    return new Iterator<>() {
      private int group;
      private RecordReader<List<Object>> records;
      private long left;

      @Override
      public boolean hasNext() {
        while (left == 0) {
          if (group >= footer.getBlocks().size()) {
            return false;
          }
          left = footer.getBlocks().get(group).getRowCount();
          // pyarrow writes a row group of zero rows for an empty table; there is nothing to decode.
          if (left > 0) {
            try {
              records = projection.open(group);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          }
          group++;
        }
        return true;
      }

      @Override
      public List<Object> next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        left--;
        return projection.read(records);
      }
    };
  }

  /** All rows of {@code columns}; see {@link #rows}. */
  public List<List<Object>> readAll(List<String> columns) throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    try {
      rows(columns).forEachRemaining(rows::add);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return rows;
  }

  /**
   * What the footer tells about top-level column {@code column} in row group {@code rowGroup},
   * as far as the format makes it trustworthy (see {@link ColumnStatistics}); null when the file
   * has no such top-level primitive column.
   */
  public ColumnStatistics statistics(int rowGroup, String column) {
    requireNonNull(column, "column is null");
    return ColumnStatistics.of(rawFooter, schema, rowGroup, column);
  }

  /**
   * Iterates over the rows of one row group, reading only its chunks of {@code columns}; see
   * {@link #rows} for the columns and the exceptions.
   */
  public Iterator<List<Object>> rowGroupRows(int index, List<String> columns) {
    RowProjection projection = project(columns);
    long count = footer.getBlocks().get(index).getRowCount();
    return new Iterator<>() {
      private RecordReader<List<Object>> records;
      private long left = count;

      @Override
      public boolean hasNext() {
        return left > 0;
      }

      @Override
      public List<Object> next() {
        if (left == 0) {
          throw new NoSuchElementException();
        }
        if (records == null) {
          try {
            records = projection.open(index);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
        left--;
        return projection.read(records);
      }
    };
  }

  /** The rows of one row group; see {@link #rows}. */
  public List<List<Object>> readRowGroup(int index, List<String> columns) throws IOException {
    RowProjection projection = project(columns);
    long count = footer.getBlocks().get(index).getRowCount();
    List<List<Object>> rows = new ArrayList<>();
    if (count == 0) {
      return rows;
    }
    RecordReader<List<Object>> records = projection.open(index);
    for (long i = 0; i < count; i++) {
      rows.add(projection.read(records));
    }
    return rows;
  }

  /**
   * The values of {@code columns} in row group {@code index}, one vector per column in that
   * order, each of the group's row count. Flat primitive columns are decoded straight into
   * vectors (integers, dates, times, timestamps and small decimals as longs, floats as doubles,
   * dictionary entries decoded once); nested columns are assembled into typed values. Throws as
   * {@link #rows} does, with {@link IOException} for store failures.
   */
  public List<TypedVector> readColumns(int index, List<String> columns) throws IOException {
    return readColumns(index, columns, null);
  }

  /**
   * Like {@link #readColumns(int, List)}, but each vector holds only the rows of {@code selection}
   * (null: all), in order: the values of other rows are skipped without being materialized, and
   * pages without a selected row are not decoded (late materialization: decode what a condition
   * on other columns let through).
   */
  public List<TypedVector> readColumns(int index, List<String> columns, RowSelection selection) throws IOException {
    MessageType requested = requested(columns, null);
    int count = Math.toIntExact(footer.getBlocks().get(index).getRowCount());
    if (selection != null && selection.rows() != count) {
      throw new IllegalArgumentException("a selection of " + selection.rows() + " rows for row group " + index
          + " of " + name + ", which has " + count);
    }
    return RowGroupVectors.read(this, index, count, requested, columns, selection);
  }

  /** The pages of the (flat) columns {@code requested} of row group {@code index}, for {@link RowGroupVectors}. */
  PageReadStore pages(int index, MessageType requested) throws IOException {
    try {
      return ParquetChunks.readRowGroup(
          name, in, index, footer.getBlocks().get(index), requested, codecs, verifyChecksums);
    } catch (EOFException e) {
      throw corrupt(name, e);
    } catch (FileNotFoundException e) {
      throw e;
    } catch (RuntimeException e) {
      throw corrupt(name, e);
    }
  }

  /** The file's name in messages. */
  String name() {
    return name;
  }

  /**
   * The pages of {@code columns} (top-level columns, all their leaves) in row group {@code index},
   * decompressed but not decoded, for callers that decode values themselves (compaction copies
   * them into another file): {@link PageReadStore#getPageReader} takes a descriptor of {@link
   * #parquetSchema()}, and each page reader can be consumed once. Throws as {@link #rows} does, with
   * {@link IOException} for store failures.
   */
  public PageReadStore rowGroupPages(int index, List<String> columns) throws IOException {
    return pages(index, requested(columns, null));
  }

  /**
   * Checks the CRC of every page of every column of every row group that carries one, reading
   * each column chunk once without decoding it; throws {@link PageChecksumException} at the first
   * page that fails. Returns how many pages were checked and how many have no CRC to check.
   */
  public PageChecksumCount verifyPageChecksums() throws IOException {
    long verified = 0;
    long unverifiable = 0;
    try {
      for (int group = 0; group < footer.getBlocks().size(); group++) {
        PageChecksumCount pages = ParquetChunks.verifyRowGroup(name, in, group, footer.getBlocks().get(group));
        verified += pages.verified();
        unverifiable += pages.withoutChecksum();
      }
    } catch (EOFException e) {
      throw corrupt(name, e);
    }
    return new PageChecksumCount(verified, unverifiable);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  private RowProjection project(List<String> columns) {
    return RowProjection.of(this, columns);
  }

  /** The file's top-level fields named {@code columns}, in the file's order (checked: {@link RowProjection}). */
  private MessageType requested(List<String> columns, List<Integer> positions) {
    return RowProjection.requested(this, columns, positions);
  }

  static CorruptDatasetException corrupt(String name, Exception e) {
    if (e instanceof CorruptDatasetException) {
      return (CorruptDatasetException) e;
    }
    return new CorruptDatasetException("Cannot read Parquet file " + name + ": " + e.getMessage(), e);
  }
}
