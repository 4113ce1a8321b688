package io.ktk.flink.source.dataset;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.query.Condition;
import io.ktk.flink.source.query.InvalidQueryException;
import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.metadata.CommonMetadataFile;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.annotation.Internal;

/**
 * A {@link DatasetQuery} checked against a dataset's schema: the output columns, typed, the
 * conditions typed by their columns and split into those on partition columns (judged on the
 * partition values of the labels) and those on file columns (judged per row), and the columns
 * to read from the files (output and condition columns that are not partition columns).
 * Immutable.
 */
@Internal
public final class ResolvedDatasetQuery {
  private final String dataset;
  private final Schema output;
  private final List<Field> partitionKeys;
  private final Map<String, Integer> partitionKeyPositions = new HashMap<>();
  private final List<TypedCondition> partitionConditions = new ArrayList<>();
  private final List<TypedCondition> fileConditions = new ArrayList<>();
  private final List<String> fileColumns;

  private ResolvedDatasetQuery(String dataset, Schema output, List<Field> partitionKeys,
      List<TypedCondition> conditions) {
    this.dataset = dataset;
    this.output = output;
    this.partitionKeys = List.copyOf(partitionKeys);
    for (int i = 0; i < partitionKeys.size(); i++) {
      partitionKeyPositions.put(partitionKeys.get(i).getName(), i);
    }
    for (TypedCondition condition : conditions) {
      (isPartitionColumn(condition.columnName()) ? partitionConditions : fileConditions).add(condition);
    }
    Set<String> columns = new LinkedHashSet<>();
    output.getFields().stream().map(Field::getName).filter(name -> !isPartitionColumn(name)).forEach(columns::add);
    fileConditions.forEach(condition -> columns.add(condition.columnName()));
    this.fileColumns = List.copyOf(columns);
  }

  /**
   * Checks {@code query} against a dataset's schema.
   *
   * @param dataset the dataset's uuid, for messages
   * @param schema the committed schema (partition columns included)
   * @param partitionKeys the partition columns, in label order
   * @throws InvalidQueryException naming the dataset, the column, its type and the literal, when a
   *     column is unknown or a literal does not fit
   */
  public static ResolvedDatasetQuery resolve(String dataset, Schema schema, List<Field> partitionKeys,
      DatasetQuery query) {
    requireNonNull(dataset, "dataset is null");
    requireNonNull(query, "query is null");
    List<Field> output;
    if (query.columns().isEmpty()) {
      output = CommonMetadataFile.layout(schema, partitionKeys.stream().map(Field::getName).toList()).getFields();
    } else {
      output = new ArrayList<>();
      for (String name : query.columns()) {
        output.add(find(schema, name).orElseThrow(() -> new InvalidQueryException("Cannot read column '" + name
            + "' of dataset '" + dataset + "': it has no such column (columns: " + names(schema) + ")")));
      }
    }
    String subject = "dataset '" + dataset + "'";
    List<TypedCondition> typed = new ArrayList<>();
    for (Condition condition : query.conditions()) {
      Field column = find(schema, condition.column()).orElseThrow(() -> new InvalidQueryException("Cannot query "
          + subject + ": condition `" + condition + "` is on column '" + condition.column()
          + "', which the dataset does not have (columns: " + names(schema) + ")"));
      typed.add(TypedCondition.resolve(condition, column, subject));
    }
    return new ResolvedDatasetQuery(dataset, new Schema(output), partitionKeys, typed);
  }

  private static java.util.Optional<Field> find(Schema schema, String name) {
    return schema.getFields().stream().filter(f -> f.getName().equals(name)).findFirst();
  }

  private static String names(Schema schema) {
    return schema.getFields().stream().map(Field::getName).collect(Collectors.joining(", "));
  }

  /** The dataset's uuid. */
  public String dataset() {
    return dataset;
  }

  /** The result's columns, in order. */
  public Schema output() {
    return output;
  }

  /** The dataset's partition columns, in label order. */
  public List<Field> partitionKeys() {
    return partitionKeys;
  }

  /** The position of {@code column} among the partition columns, or -1. */
  public int partitionKeyPosition(String column) {
    return partitionKeyPositions.getOrDefault(column, -1);
  }

  private boolean isPartitionColumn(String column) {
    return partitionKeyPositions.containsKey(column);
  }

  /** The conditions on partition columns: judged on a partition's values. */
  public List<TypedCondition> partitionConditions() {
    return List.copyOf(partitionConditions);
  }

  /** The conditions on the other columns: judged on each row. */
  public List<TypedCondition> fileConditions() {
    return List.copyOf(fileConditions);
  }

  /** The columns read from the data files: output columns, then condition columns, without partition columns. */
  public List<String> fileColumns() {
    return fileColumns;
  }

  /** Whether a partition with these values passes the conditions on partition columns. */
  public boolean admitsPartition(List<Object> values) {
    for (TypedCondition condition : partitionConditions) {
      if (!condition.test(values.get(partitionKeyPosition(condition.columnName())))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return "ResolvedDatasetQuery{" + dataset + ", output=" + output.getFields().stream().map(Field::getName).toList()
        + ", where=" + partitionConditions + fileConditions + "}";
  }
}
