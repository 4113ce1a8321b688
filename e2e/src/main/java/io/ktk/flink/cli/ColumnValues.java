package io.ktk.flink.cli;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.metadata.IndexFile;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.parquet.StoreInputFile;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The distinct values of one column in one data file, read with a projection to that column only:
 * what a secondary index records for the file. Values are ordered and compared as the index orders
 * them ({@link IndexFile#valueOrder}), so binary values compare by content.
 */
final class ColumnValues {
  private ColumnValues() {}

  /** Reads {@code column} (with its committed type) from {@code file} of dataset {@code uuid}. */
  static Distinct read(ObjectStore store, String uuid, DataFile file, Field column) throws IOException {
    String key = file.key(uuid);
    NavigableSet<Object> values = new TreeSet<>(IndexFile.valueOrder(column.getType()));
    boolean hasNull = false;
    try (ParquetRowsReader reader =
        ParquetRowsReader.open(new StoreInputFile(store, key, file.bytes(), StoreInputFile.DEFAULT_READ_AHEAD))) {
      Iterator<List<Object>> rows;
      try {
        rows = reader.rows(List.of(column.getName()));
      } catch (IllegalArgumentException e) {
        throw new CorruptDatasetException("Cannot read column '" + column.getName() + "' of data file " + key
            + " of dataset '" + uuid + "': " + e.getMessage(), e);
      }
      while (rows.hasNext()) {
        Object value = rows.next().get(0);
        if (value == null) {
          hasNull = true;
        } else {
          values.add(value);
        }
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    } catch (ClassCastException e) {
      throw new CorruptDatasetException("Cannot read column '" + column.getName() + "' of data file " + key
          + " of dataset '" + uuid + "': its values do not fit the committed type", e);
    }
    return new Distinct(values, hasNull);
  }

  /** The distinct non-null values of the column in the file, and whether it also holds nulls. */
  record Distinct(NavigableSet<Object> values, boolean hasNull) {}
}
