package io.ktk.flink.source.planner;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.QueryTarget;
import io.ktk.flink.source.query.TypedCondition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.annotation.Internal;

/**
 * A {@link CubeQuery} checked against a cube (or a plain dataset, read as a cube of one dataset):
 * every name known, every literal typed, the dimensionality and output decided, and for each
 * dataset that takes part its role and what is read from it. Built by {@link QueryChecker} and
 * {@link PlainDatasetChecker}; the planner's and the readers' common ground.
 *
 * @param target the cube or plain dataset
 * @param query the query as asked
 * @param partitionColumns the cube's (the dataset's) partition columns, typed
 * @param dimensionColumns the query's dimension columns (all or some of the cube's), in cube order;
 *     for a plain dataset its key columns besides the partition columns (none without a key)
 * @param partitionBy the {@code partition_by} columns, typed, in the query's order
 * @param output the result's columns, in order (all nullable)
 * @param conditions every condition, typed
 * @param datasets the datasets that take part: the seed, then restricted, then enrichments (each
 *     group by id); datasets whose payload the query neither returns nor restricts are left out
 */
@Internal
public record ResolvedQuery(
    QueryTarget target,
    CubeQuery query,
    List<Field> partitionColumns,
    List<Field> dimensionColumns,
    List<Field> partitionBy,
    Schema output,
    List<TypedCondition> conditions,
    List<DatasetRead> datasets) {

  public ResolvedQuery {
    requireNonNull(target, "target is null");
    requireNonNull(query, "query is null");
    partitionColumns = List.copyOf(partitionColumns);
    dimensionColumns = List.copyOf(dimensionColumns);
    partitionBy = List.copyOf(partitionBy);
    requireNonNull(output, "output is null");
    conditions = List.copyOf(conditions);
    datasets = List.copyOf(datasets);
    if (datasets.isEmpty() || datasets.get(0).role() != DatasetRole.SEED) {
      throw new IllegalArgumentException("the seed must be the first dataset: " + datasets);
    }
  }

  public DatasetRead seed() {
    return datasets.get(0);
  }

  /** The dataset that takes part with this id, or null. */
  public DatasetRead dataset(String datasetId) {
    for (DatasetRead dataset : datasets) {
      if (dataset.datasetId().equals(datasetId)) {
        return dataset;
      }
    }
    return null;
  }

  /** The names of the partition columns, in order. */
  public List<String> partitionColumnNames() {
    return partitionColumns.stream().map(Field::getName).toList();
  }

  /** The conditions on partition columns, by column: the planner decides them on partition values. */
  public Map<String, List<TypedCondition>> partitionConditions() {
    Map<String, List<TypedCondition>> byColumn = new LinkedHashMap<>();
    for (Field column : partitionColumns) {
      List<TypedCondition> on = conditions.stream().filter(c -> c.columnName().equals(column.getName())).toList();
      if (!on.isEmpty()) {
        byColumn.put(column.getName(), on);
      }
    }
    return byColumn;
  }
}
