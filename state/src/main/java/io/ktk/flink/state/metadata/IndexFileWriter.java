package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.parquet.ArrowParquetSchemas;
import io.ktk.flink.state.parquet.BytesOutputFile;
import io.ktk.flink.state.parquet.ParquetCodecs;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.types.ArrowTypeNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.MessageType;

/**
 * Writes the index files of one column ({@link IndexFile} describes their content), one after the
 * other as the index changes. Each file is whole, but the encoded and compressed pages of rows that
 * are the same as in the previous file are taken over, so that the file after a checkpoint costs
 * about a copy of the previous one plus the encoding of the values whose labels changed.
 *
 * <p>Pages are cut by content: a page ends after a value whose hash, modulo {@link
 * #PAGE_TARGET_BYTES}, is below the size of its labels (so pages hold about that many bytes, and a
 * value at least that large ends its page), or once a page reaches the page size of the options.
 * Where a page ends therefore depends on that value alone (up to the size limit), a change to some
 * values changes only the pages holding them, and a file is byte for byte the file written afresh
 * ({@link IndexFile#write}) from the same index. Both columns' pages hold the same rows, and a row
 * group is a run of whole pages of at least the row group size of the options (one, usually).
 *
 * <p>A value's labels are unchanged when the caller gives the same collection instance as for the
 * previous file (so a collection given must not change afterwards: pass immutable ones, as the
 * label sets of a {@code DatasetState} are), or else equal labels in the same order, one {@code
 * equals} per label. Memory: the last file's compressed pages, each value's labels as an array and
 * the collections given. Not thread-safe.
 */
public final class IndexFileWriter {
  /**
   * The mean uncompressed size of a page of labels: half a Snappy block (which compresses on its
   * own), so a page compresses about as well as a larger one, and a change rewrites little.
   */
  static final int PAGE_TARGET_BYTES = 32 << 10;

  private final String column;
  private final ArrowType type;
  private final ParquetWriteOptions options;
  private final Comparator<Object> order;
  private final Class<?> valueClass;
  private final MessageType parquetSchema;
  private final ColumnDescriptor valueColumn;
  private final ColumnDescriptor labelColumn;
  private final Map<String, String> keyValueMetadata;
  private final IndexPageEncoder encoder;

  /** The last file written. */
  private Written last = Written.NONE;
  private int pagesWritten;
  private int pagesEncoded;

  /** A writer of index files of {@code column} of {@code type} with {@code options} (e.g. the codec). */
  public IndexFileWriter(String column, ArrowType type, ParquetWriteOptions options) {
    this.column = requireNonNull(column, "column is null");
    this.type = requireNonNull(type, "type is null");
    this.options = requireNonNull(options, "options is null");
    if (column.equals(IndexFile.PARTITION_COLUMN)) {
      throw new KtkValidationException(
          "Cannot write the index of column " + column + ": the name is taken by the column of partition labels");
    }
    this.valueClass = valueClass(column, type);
    this.order = IndexFile.valueOrder(type);
    Field valueField = new Field(column, FieldType.nullable(IndexFile.storedType(type)), null);
    Field partitionField =
        new Field(
            IndexFile.PARTITION_COLUMN,
            FieldType.nullable(ArrowType.List.INSTANCE),
            List.of(Field.nullable("item", ArrowType.Utf8.INSTANCE)));
    Schema schema = new Schema(List.of(valueField, partitionField));
    this.parquetSchema = ArrowParquetSchemas.toParquet(schema);
    this.valueColumn = parquetSchema.getColumns().get(0);
    this.labelColumn = parquetSchema.getColumns().get(1);
    this.keyValueMetadata = Map.of(ArrowSchemaMetadata.KEY, ArrowSchemaMetadata.encode(schema));
    this.encoder = new IndexPageEncoder(valueField, valueColumn, labelColumn,
        new ParquetCodecs(options.zstdLevel()).getCompressor(options.compression()));
  }

  public String column() {
    return column;
  }

  public ArrowType type() {
    return type;
  }

  /**
   * The index file of {@code index} (each value of the column's Java type with the labels of the
   * partitions holding it, in any order); values without labels are left out. A value's collection
   * that is the instance given for it the last time must hold the same labels as then.
   */
  public byte[] write(Map<?, ? extends Collection<String>> index) {
    BytesOutputFile file = new BytesOutputFile(column + " index");
    try {
      write(index, file);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the index of column " + column + " in memory", e);
    }
    return file.toByteArray();
  }

  /**
   * Writes the index file of {@code index} (as {@link #write(Map)}) to {@code file}, e.g. a {@link
   * io.ktk.flink.state.parquet.StoreOutputFile}: the file's stream is closed when the file is
   * complete; on an exception the caller discards it.
   */
  public void write(Map<?, ? extends Collection<String>> index, OutputFile file) throws IOException {
    requireNonNull(index, "index is null");
    requireNonNull(file, "file is null");
    Written next = compare(sortedRows(index));
    List<IndexPageEncoder.Page> pages = pages(next);
    write(pages, file);
    last = next;
    pagesWritten = pages.size();
  }

  /** For tests: the pages of the last file. */
  int pagesWritten() {
    return pagesWritten;
  }

  /** For tests: the pages the last file encoded, rather than took over from the file before. */
  int pagesEncoded() {
    return pagesEncoded;
  }

  /**
   * The rows of a file in value order: per row the value, its labels sorted (taken from the
   * previous file when unchanged), the collection given, the labels' size, the row's index in the
   * previous file when unchanged (else -1), and the page starting at the row, once cut.
   */
  private record Written(Object[] values, String[][] labels, Collection<?>[] given, int[] sizes, int[] previousAt,
      IndexPageEncoder.Page[] pageAt) {
    static final Written NONE =
        new Written(new Object[0], new String[0][], new Collection<?>[0], new int[0], new int[0],
            new IndexPageEncoder.Page[0]);
  }

  /** {@code rows} (sorted) with what is unchanged since the last file found by walking both in value order. */
  private Written compare(Row[] rows) {
    int count = rows.length;
    Written next = new Written(new Object[count], new String[count][], new Collection<?>[count], new int[count],
        new int[count], new IndexPageEncoder.Page[count]);
    int previous = 0;
    for (int i = 0; i < count; i++) {
      Object value = rows[i].value();
      while (previous < last.values().length && order.compare(last.values()[previous], value) < 0) {
        previous++;
      }
      next.values()[i] = value;
      next.given()[i] = rows[i].labels();
      if (previous < last.values().length && sameValue(last.values()[previous], value)
          && (last.given()[previous] == rows[i].labels() || sameLabels(last.labels()[previous], rows[i].labels()))) {
        next.labels()[i] = last.labels()[previous];
        next.sizes()[i] = last.sizes()[previous];
        next.previousAt()[i] = previous;
      } else {
        next.labels()[i] = sortedDistinct(value, rows[i].labels());
        next.sizes()[i] = size(next.labels()[i]);
        next.previousAt()[i] = -1;
      }
    }
    return next;
  }

  /** The pages of {@code next}, cut by content, those of unchanged rows taken from the last file. */
  private List<IndexPageEncoder.Page> pages(Written next) throws IOException {
    List<IndexPageEncoder.Page> pages = new ArrayList<>();
    pagesEncoded = 0;
    int count = next.values().length;
    int start = 0;
    long pageSize = 0;
    for (int i = 0; i < count; i++) {
      pageSize += next.sizes()[i];
      if (i == count - 1 || pageSize >= options.pageSizeBytes() || endsPage(next.values()[i], next.sizes()[i])) {
        IndexPageEncoder.Page page = unchangedPage(next.previousAt(), start, i + 1);
        if (page == null) {
          page = encoder.encode(next.values(), next.labels(), start, i + 1);
          pagesEncoded++;
        }
        next.pageAt()[start] = page;
        pages.add(page);
        start = i + 1;
        pageSize = 0;
      }
    }
    return pages;
  }

  /** The page of the last file holding exactly the rows {@code [from, to)}, unchanged, or null. */
  private IndexPageEncoder.Page unchangedPage(int[] previousAt, int from, int to) {
    int first = previousAt[from];
    IndexPageEncoder.Page page = first < 0 ? null : last.pageAt()[first];
    if (page == null || page.rows() != to - from) {
      return null;
    }
    for (int i = from + 1; i < to; i++) {
      if (previousAt[i] != first + (i - from)) {
        return null;
      }
    }
    return page;
  }

  private void write(List<IndexPageEncoder.Page> pages, OutputFile file) throws IOException {
    ParquetFileWriter writer = options.startFileWriter(file, parquetSchema, options.properties());
    Statistics<?> noStatistics = Statistics.noopStats(labelColumn.getPrimitiveType());
    int first = 0;
    while (first < pages.size()) {
      // A row group is a run of pages of at least the row group size (all of them, usually).
      int end = first;
      long rows = 0;
      long labelCount = 0;
      long bytes = 0;
      do {
        IndexPageEncoder.Page page = pages.get(end++);
        rows += page.rows();
        labelCount += page.labels();
        bytes += page.valuesSize() + page.labelPageSize();
      } while (end < pages.size() && bytes < options.rowGroupSizeBytes());
      List<IndexPageEncoder.Page> group = pages.subList(first, end);
      writer.startBlock(rows);
      writer.startColumn(valueColumn, rows, options.compression());
      for (IndexPageEncoder.Page page : group) {
        writer.writeDataPage(page.rows(), page.valuesSize(), BytesInput.from(page.values()), page.statistics(),
            page.rows(), Encoding.RLE, Encoding.RLE, Encoding.PLAIN);
      }
      writer.endColumn();
      writer.startColumn(labelColumn, labelCount, options.compression());
      for (IndexPageEncoder.Page page : group) {
        writer.writeDataPage(page.labels(), page.labelPageSize(), BytesInput.from(page.labelPage()), noStatistics,
            page.rows(), Encoding.RLE, Encoding.RLE, Encoding.PLAIN);
      }
      writer.endColumn();
      writer.endBlock();
      first = end;
    }
    writer.end(keyValueMetadata);
  }

  /** A value of the index with its labels as given. */
  private record Row(Object value, Collection<String> labels) {}

  /**
   * The index's values with labels, checked, in {@link IndexFile#valueOrder}; two keys of the map
   * that are equal in value order (e.g. 0.0 and -0.0) become one row, under the first.
   */
  private Row[] sortedRows(Map<?, ? extends Collection<String>> index) {
    List<Row> rows = new ArrayList<>(index.size());
    for (Map.Entry<?, ? extends Collection<String>> entry : index.entrySet()) {
      Object value = entry.getKey();
      if (value == null) {
        throw new KtkValidationException("Cannot write the index of column " + column + ": it has a null value");
      }
      if (!valueClass.isInstance(value)) {
        throw new KtkValidationException(
            "Cannot write the index of column " + column + " of type " + ArrowTypeNames.name(type) + ": value " + value
                + " is a " + value.getClass().getSimpleName() + ", expected a " + valueClass.getSimpleName());
      }
      Collection<String> labels = entry.getValue();
      if (labels != null && !labels.isEmpty()) {
        rows.add(new Row(value, labels));
      }
    }
    rows.sort((a, b) -> order.compare(a.value(), b.value())); // stable: the first of equal values comes first
    List<Row> merged = new ArrayList<>(rows.size());
    for (Row row : rows) {
      Row last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
      if (last != null && order.compare(last.value(), row.value()) == 0) {
        List<String> both = new ArrayList<>(last.labels());
        both.addAll(row.labels());
        merged.set(merged.size() - 1, new Row(last.value(), both));
      } else {
        merged.add(row);
      }
    }
    return merged.toArray(Row[]::new);
  }

  /** Whether {@code current} is exactly {@code previous}: the same labels in the same order. */
  private static boolean sameLabels(String[] previous, Collection<String> current) {
    if (previous.length != current.size()) {
      return false;
    }
    int k = 0;
    for (String label : current) {
      if (!previous[k++].equals(label)) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameValue(Object a, Object b) {
    return a instanceof byte[] && b instanceof byte[] ? Arrays.equals((byte[]) a, (byte[]) b) : a.equals(b);
  }

  /** The labels in code point order without duplicates; a label set usually comes sorted already. */
  private String[] sortedDistinct(Object value, Collection<String> labels) {
    String[] all = labels.toArray(String[]::new);
    for (String label : all) {
      if (label == null) {
        throw new KtkValidationException(
            "Cannot write the index of column " + column + ": value " + value + " has a null partition label");
      }
    }
    // Sorting a sorted array takes one comparison per label, no tree.
    Arrays.sort(all, IndexFile::compareCodePoints);
    int distinct = 0;
    for (String label : all) {
      if (distinct == 0 || !label.equals(all[distinct - 1])) {
        all[distinct++] = label;
      }
    }
    return distinct == all.length ? all : Arrays.copyOf(all, distinct);
  }

  /** About the bytes a value's labels take in a page (chars, not UTF-8 bytes: a measure, not a limit). */
  private static int size(String[] labels) {
    long size = 0;
    for (String label : labels) {
      size += 4 + label.length();
    }
    return (int) Math.min(size, Integer.MAX_VALUE);
  }

  /** Whether a page ends after {@code value}: with a probability of its size in {@link #PAGE_TARGET_BYTES}. */
  private static boolean endsPage(Object value, int size) {
    long h = value instanceof byte[] ? Arrays.hashCode((byte[]) value) : value.hashCode();
    // murmur3's finalizer: the hash codes of numbers and dates are their bits, not spread
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return Long.remainderUnsigned(h, PAGE_TARGET_BYTES) < size;
  }

  private static Class<?> valueClass(String column, ArrowType type) {
    switch (type.getTypeID()) {
      case Int:
        return Long.class;
      case FloatingPoint:
        return Double.class;
      case Bool:
        return Boolean.class;
      case Utf8:
      case LargeUtf8:
        return String.class;
      case Binary:
      case LargeBinary:
      case FixedSizeBinary:
        return byte[].class;
      case Date:
        return LocalDate.class;
      case Timestamp:
        return ((ArrowType.Timestamp) type).getTimezone() == null ? LocalDateTime.class : Instant.class;
      case Time:
        return LocalTime.class;
      case Decimal:
        return BigDecimal.class;
      default:
        throw new KtkValidationException(
            "Cannot write the index of column " + column + " of type " + ArrowTypeNames.name(type)
                + ": indices support primitive types only");
    }
  }
}
