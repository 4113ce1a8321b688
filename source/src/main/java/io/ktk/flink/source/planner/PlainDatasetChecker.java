package io.ktk.flink.source.planner;

import io.ktk.flink.source.query.Condition;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.InvalidQueryException;
import io.ktk.flink.source.query.QueryTarget;
import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.metadata.CommonMetadataFile;
import io.ktk.flink.state.metadata.PrimaryKey;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Checks a query against one plain dataset and decides what it reads, as {@link QueryChecker} does
 * for a cube: the dataset is the seed of a cube of one dataset.
 *
 * <ul>
 *   <li>A plain dataset's query has conditions and columns only: no dimensionality, {@code
 *       partition_by}, datasets or Kartothek semantics (those are about cubes).
 *   <li>Columns: any of the dataset's; by default the partition columns, then the others by name
 *       (the layout of {@code _common_metadata}). Literals are typed by their column.
 *   <li>Its key: none ({@link RowMerge#NONE}, every row counts) or, with a primary key, the key's
 *       columns besides the partition columns ({@link RowMerge#UPSERTS}), read first.
 *   <li>Read from the files: the key columns, the output and condition columns that are not
 *       partition columns (those come from the labels); conditions on partition columns are
 *       decided by the planner, the others on each row.
 * </ul>
 */
final class PlainDatasetChecker {
  private PlainDatasetChecker() {}

  static ResolvedQuery check(DatasetSnapshot snapshot, CubeQuery query) {
    String uuid = snapshot.uuid();
    QueryTarget target = QueryTarget.dataset(uuid);
    String subject = target.describe();
    Schema schema = snapshot.schema();
    if (schema == null) {
      throw new KtkValidationException("Cannot query " + subject + ": it has no schema");
    }
    if (!query.dimensionColumns().isEmpty() || !query.partitionBy().isEmpty() || !query.datasets().isEmpty()
        || query.kartothekSemantics()) {
      throw new InvalidQueryException("Cannot query " + subject + " with " + query + ": a plain dataset is queried by"
          + " conditions and columns only (dimension columns, partition_by, datasets and Kartothek semantics are"
          + " about cubes)");
    }
    List<String> partitionKeys = snapshot.partitionKeys().stream().map(Field::getName).toList();
    List<Field> output = new ArrayList<>();
    if (query.columns().isEmpty()) {
      output.addAll(CommonMetadataFile.layout(schema, partitionKeys).getFields());
    } else {
      for (String name : query.columns()) {
        output.add(find(schema, name).orElseThrow(() -> new InvalidQueryException("Cannot read column '" + name
            + "' of " + subject + ": it has no such column (columns: " + names(schema) + ")")));
      }
    }
    List<TypedCondition> conditions = new ArrayList<>();
    for (Condition condition : query.conditions()) {
      Field column = find(schema, condition.column()).orElseThrow(() -> new InvalidQueryException("Cannot query "
          + subject + ": condition `" + condition + "` is on column '" + condition.column()
          + "', which the dataset does not have (columns: " + names(schema) + ")"));
      conditions.add(TypedCondition.resolve(condition, column, subject));
    }

    Optional<List<String>> primaryKey = PrimaryKey.of(uuid, snapshot.metadata());
    List<String> dimensions = primaryKey.map(key -> key.stream().filter(c -> !partitionKeys.contains(c)).toList())
        .orElse(List.of());
    List<Field> keyColumns = dimensions.stream().map(name -> find(schema, name).orElseThrow(() ->
        new KtkValidationException("Cannot query " + subject + ": its primary key " + primaryKey.get()
            + " names column '" + name + "', which its schema lacks (columns: " + names(schema) + ")"))).toList();
    Set<String> read = new LinkedHashSet<>();
    keyColumns.forEach(field -> read.add(field.getName()));
    output.stream().map(Field::getName).filter(name -> !partitionKeys.contains(name)).forEach(read::add);
    conditions.stream().map(TypedCondition::columnName).filter(name -> !partitionKeys.contains(name))
        .forEach(read::add);
    List<Field> readColumns = read.stream().map(name -> find(schema, name).orElseThrow()).toList();
    List<TypedCondition> rowConditions = conditions.stream().filter(c -> read.contains(c.columnName())).toList();
    DatasetRead dataset = new DatasetRead(uuid, uuid, DatasetRole.SEED,
        primaryKey.isPresent() ? RowMerge.UPSERTS : RowMerge.NONE, dimensions, keyColumns, false, readColumns,
        rowConditions);
    return new ResolvedQuery(target, query, snapshot.partitionKeys(), keyColumns, List.of(), new Schema(output),
        conditions, List.of(dataset));
  }

  private static Optional<Field> find(Schema schema, String name) {
    return schema.getFields().stream().filter(f -> f.getName().equals(name)).findFirst();
  }

  private static String names(Schema schema) {
    return schema.getFields().stream().map(Field::getName).collect(Collectors.joining(", "));
  }
}
