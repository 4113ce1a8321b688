package io.ktk.flink.source.dataset;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.engine.RowGroupPruning;
import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.parquet.StoreInputFile;
import io.ktk.flink.state.store.ObjectStore;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.annotation.Internal;

/**
 * The rows of one data file of a plain dataset that pass a query's conditions, projected to its
 * output columns, as stored in the file; pulled one at a time ({@link #next}), so that memory does
 * not grow with the file. The file is opened at the first pull.
 *
 * <ul>
 *   <li>Partition columns come from the partition's typed values (the label), not from the file.
 *   <li>When the output holds partition columns only (and no condition needs a file column), the
 *       file is not read at all when its row count is known (logged), else only its footer.
 *   <li>Row-group pruning: before a row group is read, its footer statistics are asked whether any
 *       row can pass each condition ({@link RowGroupPruning}); when one cannot, the group is skipped.
 *       A plain dataset has no cells and no last-written row, so every condition may prune.
 *   <li>Conditions are tested per row; a comparison with null is never true.
 * </ul>
 *
 * <p>A file that lacks a column of the committed schema that the query reads is corrupt: {@link
 * CorruptDatasetException}. Not thread-safe.
 */
@Internal
public final class DatasetFileRows implements Closeable {
  private final ObjectStore store;
  private final ResolvedDatasetQuery query;
  private final String key;
  private final long rows;
  private final long bytes;
  private final List<Object> partitionValues;
  private final boolean prune;
  private final List<TypedCondition> conditions;
  private final int[] conditionColumns;
  private final int[] fromFile;
  private final int[] fromPartition;
  private ParquetRowsReader reader;
  private int group = -1;
  private Iterator<List<Object>> groupRows;
  private long partitionRowsLeft = -1;
  private long rowGroupsRead;
  private long rowGroupsPruned;
  private boolean done;

  /**
   * @param key the file's object key
   * @param rows the file's row count when known (logged), else -1
   * @param bytes the file's size when known, else -1
   * @param partitionValues the typed values of the file's partition
   * @param prune whether row groups are pruned by statistics (the result is the same either way)
   */
  public DatasetFileRows(ObjectStore store, ResolvedDatasetQuery query, String key, long rows, long bytes,
      List<Object> partitionValues, boolean prune) {
    this.store = requireNonNull(store, "store is null");
    this.query = requireNonNull(query, "query is null");
    this.key = requireNonNull(key, "key is null");
    this.rows = rows;
    this.bytes = bytes;
    this.partitionValues = new ArrayList<>(requireNonNull(partitionValues, "partitionValues is null"));
    this.prune = prune;
    this.conditions = query.fileConditions();
    List<String> fileColumns = query.fileColumns();
    this.conditionColumns = conditions.stream().mapToInt(c -> fileColumns.indexOf(c.columnName())).toArray();
    List<Field> output = query.output().getFields();
    this.fromFile = new int[output.size()];
    this.fromPartition = new int[output.size()];
    for (int i = 0; i < output.size(); i++) {
      String name = output.get(i).getName();
      fromPartition[i] = query.partitionKeyPosition(name);
      fromFile[i] = fileColumns.indexOf(name);
    }
  }

  /**
   * The next row that passes the conditions (values of the output columns), or null after the last.
   *
   * @throws CorruptDatasetException when the file cannot be decoded or lacks a read column
   */
  public Object[] next() throws IOException {
    if (done) {
      return null;
    }
    try {
      return query.fileColumns().isEmpty() ? nextPartitionRow() : nextFileRow();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private Object[] nextPartitionRow() throws IOException {
    if (partitionRowsLeft < 0) {
      partitionRowsLeft = rows >= 0 ? rows : open().rowCount();
    }
    if (partitionRowsLeft == 0) {
      done = true;
      return null;
    }
    partitionRowsLeft--;
    return row(null);
  }

  private Object[] nextFileRow() throws IOException {
    ParquetRowsReader file = open();
    while (true) {
      while (groupRows != null && groupRows.hasNext()) {
        List<Object> values = groupRows.next();
        if (passes(values)) {
          return row(values);
        }
      }
      groupRows = null;
      if (++group >= file.rowGroups().size()) {
        done = true;
        return null;
      }
      if (prune && pruned(file, group)) {
        rowGroupsPruned++;
      } else {
        rowGroupsRead++;
        groupRows = file.rowGroupRows(group, query.fileColumns());
      }
    }
  }

  private boolean passes(List<Object> values) {
    for (int c = 0; c < conditionColumns.length; c++) {
      if (!conditions.get(c).test(values.get(conditionColumns[c]))) {
        return false;
      }
    }
    return true;
  }

  private Object[] row(List<Object> values) {
    Object[] row = new Object[fromFile.length];
    for (int i = 0; i < row.length; i++) {
      row[i] = fromFile[i] >= 0 ? values.get(fromFile[i]) : partitionValues.get(fromPartition[i]);
    }
    return row;
  }

  private boolean pruned(ParquetRowsReader file, int group) {
    for (TypedCondition condition : conditions) {
      if (RowGroupPruning.excludes(condition, file.statistics(group, condition.columnName()))) {
        return true;
      }
    }
    return false;
  }

  private ParquetRowsReader open() throws IOException {
    if (reader == null) {
      reader = ParquetRowsReader.open(new StoreInputFile(store, key, bytes, StoreInputFile.DEFAULT_READ_AHEAD));
      Set<String> present = new HashSet<>();
      reader.arrowSchema().getFields().forEach(field -> present.add(field.getName()));
      List<String> missing = query.fileColumns().stream().filter(name -> !present.contains(name)).toList();
      if (!missing.isEmpty()) {
        throw new CorruptDatasetException("Cannot read data file " + key + " of dataset '" + query.dataset()
            + "': it lacks columns " + missing + " of the committed schema");
      }
    }
    return reader;
  }

  /** Row groups whose rows were read and tested so far. */
  public long rowGroupsRead() {
    return rowGroupsRead;
  }

  /** Row groups that statistics pruned so far (not read). */
  public long rowGroupsPruned() {
    return rowGroupsPruned;
  }

  @Override
  public void close() throws IOException {
    done = true;
    if (reader != null) {
      reader.close();
      reader = null;
    }
  }
}
