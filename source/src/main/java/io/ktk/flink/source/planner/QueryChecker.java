package io.ktk.flink.source.planner;

import io.ktk.flink.source.query.Condition;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.InvalidQueryException;
import io.ktk.flink.source.query.QueryTarget;
import io.ktk.flink.source.query.TypedCondition;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.types.ArrowTypeNames;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Step 0 of planning: checks a {@link CubeQuery} against the cube's datasets and decides what it
 * means (Kartothek's "query intention"), from metadata alone, before any data file is read.
 *
 * <ul>
 *   <li>Columns: a query sees the columns of the datasets it uses. Every condition, output and
 *       {@code partition_by} column must be one of them; literals are typed by the column.
 *   <li>Dimensionality: the query's dimension columns, given or derived from the output columns.
 *       Fewer than the cube's is a projection of the seed; a dataset with dimension columns beyond
 *       the query's cannot contribute payload (which of its rows would it be?), as in Kartothek.
 *   <li>{@code partition_by}: partition columns, dimension columns of the query indexed in the seed,
 *       or payload columns indexed in their dataset; the groups are known from the indices.
 *   <li>Roles: a non-seed dataset whose payload is restricted (condition or {@code partition_by}) is
 *       inner-joined; one whose payload is only returned is left-joined; one the query does not need
 *       is not read at all.
 * </ul>
 */
final class QueryChecker {
  private final CubeSpec cube;
  private final CubeQuery query;
  private final String subject;
  private final NavigableMap<String, DatasetSnapshot> datasets = new TreeMap<>();
  /** Every column of the datasets used, typed as the seed has it (else as the first dataset by id). */
  private final Map<String, Field> columns = new TreeMap<>();
  private final Map<String, Set<String>> columnsByDataset = new TreeMap<>();

  private QueryChecker(CubeSpec cube, Map<String, DatasetSnapshot> all, CubeQuery query) {
    this.cube = cube;
    this.query = query;
    this.subject = "cube '" + cube.name() + "'";
    if (!all.containsKey(cube.seedDatasetId())) {
      throw new KtkValidationException("Cannot query " + subject + ": its seed dataset '" + cube.seedDatasetId()
          + "' is not among the datasets given " + new TreeSet<>(all.keySet()));
    }
    if (query.kartothekSemantics() && !query.datasets().isEmpty() && !query.datasets().contains(cube.seedDatasetId())) {
      throw new InvalidQueryException("Cannot query " + subject + ": datasets " + query.datasets() + " do not name the"
          + " seed dataset '" + cube.seedDatasetId() + "', which Kartothek semantics refuse as Kartothek 5.3 does"
          + " (\"Seed data is missing\"); add it, or query without Kartothek semantics, which always use the seed");
    }
    for (String id : query.datasets()) {
      if (!all.containsKey(id)) {
        throw new InvalidQueryException("Cannot query " + subject + ": dataset '" + id + "' is not in the cube (datasets: "
            + new TreeSet<>(all.keySet()) + ")");
      }
    }
    all.forEach((id, snapshot) -> {
      if (query.datasets().isEmpty() || query.datasets().contains(id) || id.equals(cube.seedDatasetId())) {
        datasets.put(id, snapshot);
      }
    });
  }

  /** Checks {@code query}; see the class comment. */
  static ResolvedQuery check(CubeSpec cube, Map<String, DatasetSnapshot> datasets, CubeQuery query) {
    return new QueryChecker(cube, datasets, query).check();
  }

  private ResolvedQuery check() {
    collectColumns();
    List<TypedCondition> conditions = new ArrayList<>();
    for (Condition condition : query.conditions()) {
      Field column = columns.get(condition.column());
      if (column == null) {
        throw unknownColumn("condition `" + condition + "` is on column '" + condition.column() + "'");
      }
      conditions.add(TypedCondition.resolve(condition, column, subject, query.semantics()));
    }
    List<String> dimensions = dimensionColumns();
    List<Field> partitionBy = partitionBy(dimensions);
    List<String> output = outputColumns(dimensions, partitionBy);

    Set<String> restricting = new TreeSet<>();
    conditions.forEach(condition -> restricting.add(condition.columnName()));
    partitionBy.forEach(column -> restricting.add(column.getName()));
    Set<String> wanted = new TreeSet<>(restricting);
    wanted.addAll(output);

    List<DatasetRead> seed = new ArrayList<>();
    List<DatasetRead> restricted = new ArrayList<>();
    List<DatasetRead> enrichments = new ArrayList<>();
    for (String id : datasets.keySet()) {
      boolean isSeed = id.equals(cube.seedDatasetId());
      Set<String> own = columnsByDataset.get(id);
      Set<String> payload = cube.payloadColumns(own);
      Set<String> requested = new TreeSet<>(payload);
      requested.retainAll(wanted);
      if (!isSeed && requested.isEmpty()) {
        continue;
      }
      List<String> datasetDimensions = cube.dimensionColumns().stream().filter(own::contains).toList();
      boolean projected = !dimensions.containsAll(datasetDimensions);
      if (projected && !requested.isEmpty()) {
        List<String> dropped = datasetDimensions.stream().filter(c -> !dimensions.contains(c)).toList();
        throw new InvalidQueryException("Cannot query " + subject + ": dataset '" + id + "' has dimension columns "
            + datasetDimensions + ", more than the query's " + dimensions + ", so its payload columns " + requested
            + " (returned, in conditions or in partition_by) cannot be kept: add " + dropped
            + " to the dimension columns or leave out " + requested);
      }
      List<Field> key = datasetDimensions.stream().filter(dimensions::contains).map(columns::get).toList();
      Set<String> read = new LinkedHashSet<>();
      key.forEach(field -> read.add(field.getName()));
      requested.forEach(read::add);
      for (TypedCondition condition : conditions) {
        String column = condition.columnName();
        if (own.contains(column) && !cube.partitionColumns().contains(column)) {
          read.add(column);
        }
      }
      List<Field> readColumns = read.stream().map(columns::get).toList();
      List<TypedCondition> rowConditions = conditions.stream().filter(c -> read.contains(c.columnName())).toList();
      Set<String> restrictedPayload = new TreeSet<>(payload);
      restrictedPayload.retainAll(restricting);
      DatasetRole role = isSeed ? DatasetRole.SEED
          : restrictedPayload.isEmpty() ? DatasetRole.ENRICHMENT : DatasetRole.RESTRICTED;
      DatasetRead dataset = new DatasetRead(id, cube.datasetUuid(id), role, RowMerge.CELLS,
          datasetDimensions, key, projected, readColumns, rowConditions);
      (isSeed ? seed : role == DatasetRole.RESTRICTED ? restricted : enrichments).add(dataset);
    }
    List<DatasetRead> reads = new ArrayList<>(seed);
    reads.addAll(restricted);
    reads.addAll(enrichments);

    List<Field> outputFields = new ArrayList<>();
    for (String name : output) {
      Field column = columns.get(name);
      outputFields.add(new Field(name, FieldType.nullable(column.getType()), column.getChildren()));
    }
    return new ResolvedQuery(QueryTarget.cube(cube.name()), query, cube.partitionColumns().stream().map(columns::get).toList(),
        dimensions.stream().map(columns::get).toList(), partitionBy, new Schema(outputFields), conditions, reads);
  }

  /** Reads the columns of every dataset used and checks what the cube's rules promise about them. */
  private void collectColumns() {
    Map<String, String> typedBy = new TreeMap<>();
    List<String> order = new ArrayList<>(datasets.keySet());
    order.remove(cube.seedDatasetId());
    order.add(0, cube.seedDatasetId());
    for (String id : order) {
      DatasetSnapshot snapshot = datasets.get(id);
      if (!snapshot.uuid().equals(cube.datasetUuid(id))) {
        throw new KtkValidationException("Cannot query " + subject + ": dataset '" + id + "' is given as "
            + snapshot.uuid() + ", expected " + cube.datasetUuid(id));
      }
      Schema schema = snapshot.schema();
      if (schema == null) {
        throw new KtkValidationException("Cannot query " + subject + ": dataset '" + id + "' has no schema");
      }
      checkPartitionKeys(id, snapshot.partitionKeys().stream().map(Field::getName).toList(), schema);
      Set<String> own = new TreeSet<>();
      for (Field field : schema.getFields()) {
        own.add(field.getName());
        Field known = columns.get(field.getName());
        if (known == null) {
          columns.put(field.getName(), field);
          typedBy.put(field.getName(), id);
        } else if (!cube.cellColumns().contains(field.getName())) {
          throw new KtkValidationException("Cannot query " + subject + ": payload column '" + field.getName()
              + "' is in datasets '" + typedBy.get(field.getName()) + "' and '" + id
              + "' (rule: a payload column belongs to one dataset)");
        } else if (!known.getType().equals(field.getType())) {
          throw new KtkValidationException("Cannot query " + subject + ": column '" + field.getName() + "' has type "
              + ArrowTypeNames.name(known) + " in dataset '" + typedBy.get(field.getName()) + "' but "
              + ArrowTypeNames.name(field) + " in dataset '" + id + "'; datasets are joined on it");
        }
      }
      columnsByDataset.put(id, own);
    }
    for (String column : cube.cellColumns()) {
      if (!columnsByDataset.get(cube.seedDatasetId()).contains(column)) {
        throw new KtkValidationException("Cannot query " + subject + ": the seed dataset '" + cube.seedDatasetId()
            + "' lacks column '" + column + "' (rule: the seed has every dimension and partition column)");
      }
    }
  }

  /**
   * The seed is partitioned by the cube's partition columns, in order. Any other dataset by some of
   * them, in any order (Kartothek 5.3 allows it; such a dataset's partition joins every seed
   * partition that agrees on the columns it has), but it may not hold one of them as a plain data
   * column (Kartothek forbids that). Partition keys beyond the cube's partition columns, which
   * Kartothek also allows, are not read here.
   */
  private void checkPartitionKeys(String id, List<String> keys, Schema schema) {
    if (id.equals(cube.seedDatasetId())) {
      if (!keys.equals(cube.partitionColumns())) {
        throw new KtkValidationException("Cannot query " + subject + ": the seed dataset '" + id + "' is partitioned by "
            + keys + ", but the cube's partition columns are " + cube.partitionColumns()
            + " (rule: the seed is partitioned by the cube's partition columns, in order)");
      }
      return;
    }
    for (String key : keys) {
      if (!cube.partitionColumns().contains(key)) {
        throw new KtkValidationException("Cannot query " + subject + ": dataset '" + id + "' is partitioned by " + keys
            + ", and '" + key + "' is not one of the cube's partition columns " + cube.partitionColumns()
            + "; Kartothek allows other partition keys, but reading them is not supported: rewrite the dataset"
            + " partitioned by some of " + cube.partitionColumns() + " only");
      }
    }
    for (String column : cube.partitionColumns()) {
      if (!keys.contains(column) && schema.getFields().stream().anyMatch(f -> f.getName().equals(column))) {
        throw new KtkValidationException("Cannot query " + subject + ": dataset '" + id + "' holds the cube's partition"
            + " column '" + column + "' as a data column but is partitioned by " + keys + " only (rule, as in"
            + " Kartothek 5.3: a dataset that has a partition column of the cube is partitioned by it)");
      }
    }
  }

  private List<String> dimensionColumns() {
    List<String> given = query.dimensionColumns();
    if (given.isEmpty() && !query.kartothekSemantics()) {
      given = query.columns().stream().filter(cube.dimensionColumns()::contains).toList();
    } else {
      for (String column : given) {
        if (!cube.dimensionColumns().contains(column)) {
          throw new InvalidQueryException("Cannot query " + subject + ": '" + column + "' is not a dimension column"
              + " of the cube (dimension columns: " + cube.dimensionColumns() + ")");
        }
      }
    }
    if (given.isEmpty()) {
      return cube.dimensionColumns();
    }
    Set<String> chosen = Set.copyOf(given);
    return cube.dimensionColumns().stream().filter(chosen::contains).toList();
  }

  private List<Field> partitionBy(List<String> dimensions) {
    List<Field> fields = new ArrayList<>();
    for (String name : query.partitionBy()) {
      Field column = columns.get(name);
      if (column == null) {
        throw unknownColumn("partition_by names column '" + name + "'");
      }
      fields.add(column);
      if (cube.partitionColumns().contains(name)) {
        continue;
      }
      String type = ArrowTypeNames.name(column);
      if (cube.dimensionColumns().contains(name)) {
        if (!dimensions.contains(name)) {
          throw new InvalidQueryException("Cannot query " + subject + ": partition_by names dimension column '" + name
              + "' (" + type + "), which is not among the query's dimension columns " + dimensions);
        }
        DatasetSnapshot seed = datasets.get(cube.seedDatasetId());
        if (!seed.indexColumns().contains(name)) {
          throw new InvalidQueryException("Cannot query " + subject + ": partition_by names dimension column '" + name
              + "' (" + type + "), which has no index in the seed dataset '" + cube.seedDatasetId()
              + "' (indexed: " + seed.indexColumns() + "); partition_by needs an index or partition column");
        }
        continue;
      }
      String owner = ownerOf(name);
      DatasetSnapshot dataset = datasets.get(owner);
      if (!dataset.indexColumns().contains(name)) {
        throw new InvalidQueryException("Cannot query " + subject + ": partition_by names column '" + name + "' ("
            + type + ") of dataset '" + owner + "', which has no index on it (indexed: " + dataset.indexColumns()
            + "); partition_by needs an index or partition column");
      }
    }
    return fields;
  }

  private List<String> outputColumns(List<String> dimensions, List<Field> partitionBy) {
    if (query.kartothekSemantics()) {
      return kartothekOutputColumns(dimensions, partitionBy);
    }
    if (!query.columns().isEmpty()) {
      for (String name : query.columns()) {
        if (!columns.containsKey(name)) {
          throw unknownColumn("columns name '" + name + "'");
        }
        if (cube.dimensionColumns().contains(name) && !dimensions.contains(name)) {
          throw new InvalidQueryException("Cannot query " + subject + ": columns name dimension column '" + name
              + "', which is not among the query's dimension columns " + dimensions);
        }
      }
      return query.columns();
    }
    Set<String> output = new LinkedHashSet<>(cube.partitionColumns());
    output.addAll(dimensions);
    partitionBy.forEach(column -> output.add(column.getName()));
    Set<String> payload = new TreeSet<>();
    columnsByDataset.forEach((id, own) -> {
      List<String> datasetDimensions = cube.dimensionColumns().stream().filter(own::contains).toList();
      if (dimensions.containsAll(datasetDimensions)) {
        payload.addAll(cube.payloadColumns(own));
      }
    });
    output.addAll(payload);
    return List.copyOf(output);
  }

  /**
   * Kartothek's output columns: {@code columns} read as {@code payload_columns} (empty: every column
   * of the datasets used), with the dimension, {@code partition_by} and partition columns, sorted by
   * name (code point order, as Python sorts).
   */
  private List<String> kartothekOutputColumns(List<String> dimensions, List<Field> partitionBy) {
    Set<String> output = new TreeSet<>(QueryChecker::compareCodePoints);
    if (query.columns().isEmpty()) {
      output.addAll(columns.keySet());
    } else {
      for (String name : query.columns()) {
        if (!columns.containsKey(name)) {
          throw unknownColumn("columns (Kartothek's payload_columns) name '" + name + "'");
        }
        output.add(name);
      }
    }
    output.addAll(dimensions);
    partitionBy.forEach(column -> output.add(column.getName()));
    output.addAll(cube.partitionColumns());
    for (String name : output) {
      if (cube.dimensionColumns().contains(name) && !dimensions.contains(name)) {
        throw new InvalidQueryException("Cannot query " + subject + ": the result would hold dimension column '" + name
            + "', which is not among the query's dimension columns " + dimensions + " (with Kartothek semantics"
            + " the columns are Kartothek's payload_columns, all columns when none are given): name the payload"
            + " columns to return");
      }
    }
    return List.copyOf(output);
  }

  private static int compareCodePoints(String a, String b) {
    return Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
  }

  private String ownerOf(String column) {
    return columnsByDataset.entrySet().stream().filter(e -> e.getValue().contains(column)).map(Map.Entry::getKey)
        .findFirst().orElseThrow();
  }

  private InvalidQueryException unknownColumn(String what) {
    return new InvalidQueryException("Cannot query " + subject + ": " + what + ", which none of the datasets "
        + datasets.keySet() + " has (columns: " + String.join(", ", columns.keySet()) + ")");
  }
}
