package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.parquet.BytesInputFile;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.parquet.StoreInputFile;
import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.types.ArrowTypeNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.io.InputFile;

/**
 * A secondary index file, {@code <uuid>/indices/<col>/<timestamp>.by-dataset-index.parquet}: for
 * each value of column {@code <col>} the labels of the partitions holding it, one row per value.
 *
 * <pre>
 * &lt;col&gt;: the column's type     partition: list&lt;item: string&gt;
 * 1                             ["p=1/part_a", "p=2/part_b"]
 * 7                             ["p=2/part_b"]
 * </pre>
 *
 * <p>Written: values in ascending order (by {@link #valueOrder}), each value's labels in
 * ascending order without duplicates, values without labels left out, Snappy, with an {@code
 * ARROW:schema} entry (no {@code pandas} entry), as plateau's {@code ExplicitSecondaryIndex.store}
 * writes it. String values are stored as {@code large_string}, the type plateau 4.6 gives string
 * columns and compares an index's type with when it updates the index; without the {@code
 * ARROW:schema} they would read back as {@code string}. Values and labels are written plain, the
 * values with statistics, the labels without (pyarrow writes a dictionary and statistics; readers
 * need neither), in pages cut by content so that a writer of the next file of the column can take
 * over the pages that did not change ({@link IndexFileWriter}).
 *
 * <p>Read: values are typed by the project's convention ({@code Long}, {@code Double}, {@code
 * String}, {@code byte[]}, {@code LocalDate}, ...) in a map ordered by {@link #valueOrder} (so
 * {@code byte[]} keys work by content). The file's column type must be the column's type up to
 * what plateau and pyarrow vary on their own: integer and float widths, {@code string} versus
 * {@code large_string}, {@code binary} versus {@code large_binary}, the unit of a timestamp or
 * time and the name of a time zone. Anything else fails with {@link CorruptDatasetException}
 * naming the file, the expected and the found type.
 */
public final class IndexFile {
  /** The name of the column holding the partition labels. */
  public static final String PARTITION_COLUMN = "partition";

  private IndexFile() {}

  /** The type stored for a column of {@code columnType}: {@code large_string} for strings. */
  public static ArrowType storedType(ArrowType columnType) {
    return columnType.getTypeID() == ArrowType.ArrowTypeID.Utf8 ? ArrowType.LargeUtf8.INSTANCE : columnType;
  }

  /**
   * The order of index values of {@code type}: numeric (unsigned integers unsigned, {@code -0.0}
   * equal to {@code 0.0}, NaN greatest), strings by code point, bytes unsigned lexicographic,
   * temporal and decimal values naturally.
   */
  public static Comparator<Object> valueOrder(ArrowType type) {
    switch (type.getTypeID()) {
      case Int:
        return ((ArrowType.Int) type).getIsSigned()
            ? (a, b) -> Long.compare((Long) a, (Long) b)
            : (a, b) -> Long.compareUnsigned((Long) a, (Long) b);
      case FloatingPoint:
        return (a, b) -> ((Double) a).doubleValue() == (Double) b ? 0 : Double.compare((Double) a, (Double) b);
      case Bool:
        return (a, b) -> Boolean.compare((Boolean) a, (Boolean) b);
      case Utf8:
      case LargeUtf8:
        return (a, b) -> compareCodePoints((String) a, (String) b);
      case Binary:
      case LargeBinary:
      case FixedSizeBinary:
        return (a, b) -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
      case Date:
      case Timestamp:
      case Time:
      case Decimal:
        return (a, b) -> compareNaturally(a, b);
      default:
        throw new KtkValidationException(
            "Cannot order index values of type " + ArrowTypeNames.name(type) + ": indices support primitive types only");
    }
  }

  /** {@link #valueOrder} of index values: how the keys of an index of a column of {@code type} sort. */
  public static Comparator<IndexValue> keyOrder(ArrowType type) {
    return Comparator.comparing(IndexValue::value, valueOrder(type));
  }

  /** The index file of {@code column} of {@code type}; see the class comment for the layout. */
  public static byte[] write(String column, ArrowType type, Map<?, ? extends Collection<String>> index) {
    return write(column, type, index, ParquetWriteOptions.defaults());
  }

  /**
   * As {@link #write(String, ArrowType, Map)}, with other write options (e.g. ZSTD). To write the
   * files of a column that changes over time, an {@link IndexFileWriter} reuses what did not change.
   */
  public static byte[] write(
      String column, ArrowType type, Map<?, ? extends Collection<String>> index, ParquetWriteOptions options) {
    return new IndexFileWriter(column, type, options).write(index);
  }

  /** Writes the index file of {@code column} to {@code key}. */
  public static void write(
      ObjectStore store, String key, String column, ArrowType type, Map<?, ? extends Collection<String>> index)
      throws IOException {
    store.put(key, write(column, type, index));
  }

  /** Reads the index file {@code data} (from {@code key}) of {@code column} of {@code columnType}. */
  public static NavigableMap<Object, List<String>> read(byte[] data, String key, String column, ArrowType columnType) {
    try {
      return read(new BytesInputFile(key, data), key, column, columnType);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + key + " from memory", e);
    }
  }

  /** Reads the index file under {@code key}; a missing object is a {@link CorruptDatasetException}. */
  public static NavigableMap<Object, List<String>> read(
      ObjectStore store, String key, String column, ArrowType columnType) throws IOException {
    return read(new StoreInputFile(store, key), key, column, columnType);
  }

  private static NavigableMap<Object, List<String>> read(
      InputFile file, String key, String column, ArrowType columnType) throws IOException {
    requireNonNull(column, "column is null");
    requireNonNull(columnType, "columnType is null");
    String action = "Cannot read index file " + key + " of column " + column;
    try (ParquetRowsReader reader = ParquetRowsReader.open(file)) {
      String arrowSchema = reader.keyValueMetadata().get(ArrowSchemaMetadata.KEY);
      Schema schema = arrowSchema == null ? reader.arrowSchema() : ArrowSchemaMetadata.decode(arrowSchema, key);
      Field valueField = find(schema, column, action);
      Field partitionField = find(schema, PARTITION_COLUMN, action);
      if (!kind(valueField.getType()).equals(kind(columnType))) {
        throw new CorruptDatasetException(
            action + ": expected type " + ArrowTypeNames.name(columnType) + ", found " + ArrowTypeNames.name(valueField));
      }
      if (!isListOfStrings(partitionField)) {
        throw new CorruptDatasetException(
            action + ": column " + PARTITION_COLUMN + " must be list<string>, found "
                + ArrowTypeNames.name(partitionField));
      }
      TreeMap<Object, TreeSet<String>> merged = new TreeMap<>(valueOrder(columnType));
      Iterator<List<Object>> rows = reader.rows(List.of(column, PARTITION_COLUMN));
      while (rows.hasNext()) {
        List<Object> row = rows.next();
        if (row.get(0) == null) {
          throw new CorruptDatasetException(action + ": it holds a null value");
        }
        @SuppressWarnings("unchecked")
        List<String> labels = (List<String>) row.get(1);
        if (labels == null || labels.isEmpty()) {
          continue;
        }
        TreeSet<String> set = merged.computeIfAbsent(row.get(0), v -> new TreeSet<>(IndexFile::compareCodePoints));
        for (String label : labels) {
          if (label == null) {
            throw new CorruptDatasetException(action + ": value " + row.get(0) + " has a null partition label");
          }
          set.add(label);
        }
      }
      TreeMap<Object, List<String>> result = new TreeMap<>(valueOrder(columnType));
      merged.forEach((value, labels) -> result.put(value, List.copyOf(labels)));
      return Collections.unmodifiableNavigableMap(result);
    } catch (NoSuchObjectException e) {
      throw new CorruptDatasetException(action + ": the object does not exist", e);
    } catch (IllegalArgumentException e) {
      // The ARROW:schema names a column the Parquet schema does not have.
      throw new CorruptDatasetException(action + ": " + e.getMessage(), e);
    } catch (CorruptDatasetException e) {
      if (e.getMessage().contains(key)) {
        throw e;
      }
      throw new CorruptDatasetException(action + ": " + e.getMessage(), e);
    }
  }

  /** The type up to the differences plateau and pyarrow introduce themselves (see class comment). */
  private static ArrowType kind(ArrowType type) {
    switch (type.getTypeID()) {
      case Int:
        return new ArrowType.Int(64, ((ArrowType.Int) type).getIsSigned());
      case FloatingPoint:
        return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
      case LargeUtf8:
        return ArrowType.Utf8.INSTANCE;
      case LargeBinary:
        return ArrowType.Binary.INSTANCE;
      case Date:
        return new ArrowType.Date(DateUnit.DAY);
      case Timestamp:
        boolean zoned = ((ArrowType.Timestamp) type).getTimezone() != null;
        return new ArrowType.Timestamp(TimeUnit.MICROSECOND, zoned ? "UTC" : null);
      case Time:
        return new ArrowType.Time(TimeUnit.NANOSECOND, 64);
      default:
        return type;
    }
  }

  private static boolean isListOfStrings(Field field) {
    ArrowType.ArrowTypeID id = field.getType().getTypeID();
    if (id != ArrowType.ArrowTypeID.List && id != ArrowType.ArrowTypeID.LargeList) {
      return false;
    }
    ArrowType.ArrowTypeID element = field.getChildren().get(0).getType().getTypeID();
    return element == ArrowType.ArrowTypeID.Utf8 || element == ArrowType.ArrowTypeID.LargeUtf8;
  }

  private static Field find(Schema schema, String name, String action) {
    Optional<Field> field = schema.getFields().stream().filter(f -> f.getName().equals(name)).findFirst();
    return field.orElseThrow(
        () -> new CorruptDatasetException(action + ": it has no column " + name + ", only " + names(schema)));
  }

  private static List<String> names(Schema schema) {
    List<String> names = new ArrayList<>();
    schema.getFields().forEach(f -> names.add(f.getName()));
    return names;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int compareNaturally(Object a, Object b) {
    return ((Comparable) a).compareTo(b);
  }

  /**
   * Strings by code point, as Python and pyarrow order them. This differs from {@link
   * String#compareTo} (UTF-16 units) only where a surrogate meets a character above them.
   */
  static int compareCodePoints(String a, String b) {
    int length = Math.min(a.length(), b.length());
    for (int k = 0; k < length; k++) {
      char x = a.charAt(k);
      char y = b.charAt(k);
      if (x != y) {
        if (!Character.isSurrogate(x) && !Character.isSurrogate(y)) {
          return Character.compare(x, y);
        }
        // The chars before are equal: back up to the start of a pair split here, and compare code points.
        boolean splitsPair = k > 0 && Character.isHighSurrogate(a.charAt(k - 1))
            && (Character.isLowSurrogate(x) || Character.isLowSurrogate(y));
        int at = splitsPair ? k - 1 : k;
        return Integer.compare(a.codePointAt(at), b.codePointAt(at));
      }
    }
    return Integer.compare(a.length(), b.length());
  }
}
