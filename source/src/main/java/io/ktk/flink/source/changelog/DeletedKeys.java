package io.ktk.flink.source.changelog;

import io.ktk.flink.source.engine.ResultBatch;
import io.ktk.flink.source.planner.DatasetRead;
import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.PlannedFile;
import io.ktk.flink.source.planner.ResolvedQuery;
import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.parquet.StoreInputFile;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.vector.ObjectVector;
import io.ktk.flink.state.vector.TypedVector;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.annotation.Internal;

/**
 * The {@code -D} half of what a discovery of an upsert changelog serves for one partition: the keys
 * that the partition's newly added files hold a row of, but whose newest row there is not among
 * the upserts (the engine's merged result of those files: the newest row of each key that is not
 * deleted and passes the conditions). Such a key is deleted, or its newest row fails a condition:
 * either way it has no row in the query's result any more, which a consumer of the changelog
 * learns from a {@code -D}. Whether the key had a row before is not checked (that would mean
 * reading the partition's older files); a {@code -D} of a key the consumer does not hold is a
 * no-op in upsert mode. A key that fails a condition on a key column is never in the result, so
 * it gets no {@code -D}.
 *
 * <p>A {@code -D} row holds the key's columns (partition and primary key columns) and nulls in the
 * others: a delete stores nothing else. Rows come in the order the keys first appear in the files,
 * which the files fix, so a restored reader skips the same rows.
 */
@Internal
public final class DeletedKeys {
  private DeletedKeys() {}

  /**
   * The {@code -D} rows for {@code partition}, whose seed files are those a discovery added.
   *
   * @param query the query the split is read with; its output holds every key column
   * @param upserts the merged rows of {@code partition} (what the engine returns for it)
   */
  public static ResultBatch of(ObjectStore store, ResolvedQuery query, GroupPartition partition, ResultBatch upserts)
      throws IOException {
    DatasetRead seed = query.seed();
    List<String> keyNames = seed.keyColumns().stream().map(Field::getName).toList();
    List<String> output = query.output().getFields().stream().map(Field::getName).toList();
    int[] keyPositions = keyNames.stream().mapToInt(output::indexOf).toArray();
    for (int i = 0; i < keyPositions.length; i++) {
      if (keyPositions[i] < 0) {
        throw new IllegalStateException("the changelog of " + query.target().describe() + " must return its key column '"
            + keyNames.get(i) + "', not only " + output);
      }
    }
    List<String> partitionColumns = query.partitionColumnNames();
    for (String column : partitionColumns) {
      if (!output.contains(column)) {
        throw new IllegalStateException("the changelog of " + query.target().describe()
            + " must return its partition column '" + column + "', not only " + output);
      }
    }
    Set<List<Object>> upserted = new HashSet<>();
    for (int row = 0; row < upserts.rowCount(); row++) {
      Object[] key = new Object[keyPositions.length];
      for (int i = 0; i < key.length; i++) {
        key[i] = upserts.column(keyPositions[i]).get(row);
      }
      upserted.add(identity(key));
    }
    List<TypedCondition> keyConditions = seed.conditions().stream()
        .filter(condition -> keyNames.contains(condition.columnName())).toList();
    Set<List<Object>> seen = new HashSet<>();
    List<Object[]> deleted = new ArrayList<>();
    for (PlannedFile file : partition.filesOf(seed.datasetId())) {
      try (ParquetRowsReader reader = ParquetRowsReader.open(
          new StoreInputFile(store, file.key(), file.bytes(), StoreInputFile.DEFAULT_READ_AHEAD))) {
        for (int group = 0; group < reader.rowGroups().size(); group++) {
          int rows = Math.toIntExact(reader.rowGroups().get(group).getRowCount());
          List<TypedVector> keys = keyNames.isEmpty() ? List.of() : reader.readColumns(group, keyNames);
          for (int row = 0; row < rows; row++) {
            Object[] key = new Object[keyNames.size()];
            for (int i = 0; i < key.length; i++) {
              key[i] = keys.get(i).get(row);
            }
            List<Object> identity = identity(key);
            if (!upserted.contains(identity) && seen.add(identity) && passes(keyConditions, keyNames, key)) {
              deleted.add(key);
            }
          }
        }
      }
    }
    List<TypedVector> columns = new ArrayList<>(output.size());
    for (String column : output) {
      ObjectVector vector = new ObjectVector(deleted.size());
      int key = keyNames.indexOf(column);
      int partitionColumn = partitionColumns.indexOf(column);
      for (Object[] row : deleted) {
        if (key >= 0) {
          vector.append(row[key]);
        } else if (partitionColumn >= 0) {
          vector.append(partition.partitionValues().get(partitionColumn));
        } else {
          vector.appendNull();
        }
      }
      columns.add(vector);
    }
    return ResultBatch.of(query.output(), columns, deleted.size());
  }

  private static boolean passes(List<TypedCondition> conditions, List<String> keyNames, Object[] key) {
    for (TypedCondition condition : conditions) {
      if (!condition.test(key[keyNames.indexOf(condition.columnName())])) {
        return false;
      }
    }
    return true;
  }

  /** The key's values as a set element: binary values compare by content. */
  private static List<Object> identity(Object[] key) {
    Object[] values = key.clone();
    for (int i = 0; i < values.length; i++) {
      if (values[i] instanceof byte[] bytes) {
        values[i] = ByteBuffer.wrap(bytes);
      }
    }
    return Arrays.asList(values);
  }
}
