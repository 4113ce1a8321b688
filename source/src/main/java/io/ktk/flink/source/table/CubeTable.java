package io.ktk.flink.source.table;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.KartothekSource;
import io.ktk.flink.source.KartothekSourceOptions;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.planner.ResolvedQuery;
import io.ktk.flink.source.query.Condition;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.InvalidQueryException;
import io.ktk.flink.source.reader.RecordFormat;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.types.ArrowTypeNames;
import io.ktk.flink.state.types.FlinkArrowTypes;
import io.ktk.flink.state.types.UnsupportedTypeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;

/**
 * A SQL table over a cube, checked against the cube's pinned versions when a query is planned:
 * which columns the table declares (with their Arrow types in the cube), its dimensionality, the
 * datasets it uses and the seed's partitions.
 *
 * <p>The table is the cube query without conditions over its columns: one row per seed cell at the
 * table's dimensionality (the dimension columns it declares, or all of the cube's when it declares
 * none), enrichments left-joined. Its declared types must be exactly the Flink types of the cube's
 * (normalized) column types ({@link FlinkArrowTypes#toLogicalType}: int64 {@code BIGINT}, uint64
 * {@code DECIMAL(20, 0)}, float64 {@code DOUBLE}, string {@code STRING}, binary {@code BYTES},
 * timestamp[us] {@code TIMESTAMP(6)}, ...); nested columns and times finer than milliseconds are not
 * offered yet. Only partition and dimension columns may be declared {@code NOT NULL} (they are never
 * null; payload is null where an enrichment lacks the cell).
 *
 * @param name the table's name, for messages
 * @param storeUrl the store
 * @param storeOptions the store's options
 * @param cube the cube's name
 * @param versions the pinned version of every dataset of the cube, by id
 * @param datasets the datasets the table uses (empty: all)
 * @param columns the declared physical columns, in order, typed as the cube has them
 * @param dimensionColumns the table's dimensionality, in cube order
 * @param partitionColumns the cube's partition columns, typed
 * @param partitions the seed's partition values at the pinned version, in path order
 * @param continuous whether the scan goes on with later commits ({@code scan.mode})
 * @param discoveryInterval how often a continuous scan looks for later commits
 */
record CubeTable(
    String name,
    String storeUrl,
    Map<String, String> storeOptions,
    String cube,
    NavigableMap<String, Long> versions,
    NavigableSet<String> datasets,
    List<Field> columns,
    List<String> dimensionColumns,
    List<Field> partitionColumns,
    List<List<Object>> partitions,
    boolean continuous,
    Duration discoveryInterval) implements KartothekTable {

  CubeTable {
    requireNonNull(name, "name is null");
    requireNonNull(storeUrl, "storeUrl is null");
    storeOptions = Map.copyOf(storeOptions);
    requireNonNull(cube, "cube is null");
    versions = new TreeMap<>(versions);
    datasets = new TreeSet<>(datasets);
    columns = List.copyOf(columns);
    dimensionColumns = List.copyOf(dimensionColumns);
    partitionColumns = List.copyOf(partitionColumns);
    partitions = List.copyOf(partitions);
    requireNonNull(discoveryInterval, "discoveryInterval is null");
  }

  /** This table, scanned continuously or not. */
  CubeTable scanning(boolean continuous, Duration discoveryInterval) {
    return new CubeTable(name, storeUrl, storeOptions, cube, versions, datasets, columns, dimensionColumns,
        partitionColumns, partitions, continuous, discoveryInterval);
  }

  @Override
  public boolean bounded() {
    return !continuous;
  }

  /**
   * Checks the declared row type against the cube at {@code snapshot}.
   *
   * @param partitionKeys the table's {@code PARTITIONED BY} columns (empty or the cube's partition columns)
   * @throws KtkValidationException naming the table, the cube and the column, when a column is unknown,
   *     typed otherwise than the cube types it, or cannot be read by this source
   */
  static CubeTable check(String name, String storeUrl, Map<String, String> storeOptions, CubeSnapshot snapshot,
      List<String> datasets, RowType declared, List<String> partitionKeys) {
    String cube = snapshot.spec().name();
    String subject = "Cannot create the source of table " + name + " (cube '" + cube + "'): ";
    List<String> names = declared.getFieldNames();
    List<String> dimensions = snapshot.spec().dimensionColumns().stream().filter(names::contains).toList();
    if (dimensions.isEmpty()) {
      dimensions = snapshot.spec().dimensionColumns();
    }
    ResolvedQuery resolved;
    try {
      resolved = snapshot.resolve(CubeQuery.builder().columns(names).dimensionColumns(dimensions)
          .datasets(datasets).build());
    } catch (InvalidQueryException e) {
      throw new KtkValidationException(subject + e.getMessage(), e);
    }
    Set<String> keyColumns = new TreeSet<>(snapshot.spec().cellColumns());
    List<Field> columns = resolved.output().getFields();
    for (int i = 0; i < columns.size(); i++) {
      Field column = columns.get(i);
      LogicalType type = declared.getTypeAt(i);
      DeclaredColumns.checkType(subject, "cube", column, type);
      if (!type.isNullable() && !keyColumns.contains(column.getName())) {
        throw new KtkValidationException(subject + "column '" + column.getName() + "' is declared NOT NULL, but it is"
            + " a payload column, which is null where its dataset lacks a cell; only partition and dimension columns "
            + snapshot.spec().cellColumns() + " may be NOT NULL");
      }
    }
    DeclaredColumns.checkPartitionedBy(subject, "cube", partitionKeys, resolved.partitionColumns());
    String seed = snapshot.spec().seedDatasetId();
    List<List<Object>> partitions = new ArrayList<>();
    for (Partition partition : snapshot.datasets().get(seed).partitions()) {
      partitions.add(partition.values());
    }
    return new CubeTable(name, storeUrl, storeOptions, cube, snapshot.versions(), new TreeSet<>(datasets), columns,
        dimensions, resolved.partitionColumns(), partitions, false,
        KartothekSourceOptions.DISCOVERY_INTERVAL.defaultValue());
  }

  /** The Flink type (as its summary string, nullable) this source reads a column as (of a cube or dataset). */
  static String readableType(String subject, Field column) {
    ArrowType type = column.getType();
    if (type instanceof ArrowType.Time time && (time.getUnit() == TimeUnit.MICROSECOND
        || time.getUnit() == TimeUnit.NANOSECOND)) {
      throw new KtkValidationException(subject + "column '" + column.getName() + "' has type "
          + ArrowTypeNames.name(column) + ", which Flink's TIME cannot hold without losing precision; leave the"
          + " column out of the table");
    }
    LogicalType logical;
    try {
      logical = FlinkArrowTypes.toLogicalType(column);
    } catch (UnsupportedTypeException e) {
      throw new KtkValidationException(subject + e.getMessage(), e);
    }
    LogicalTypeRoot root = logical.getTypeRoot();
    if (root == LogicalTypeRoot.ARRAY || root == LogicalTypeRoot.ROW || root == LogicalTypeRoot.NULL) {
      throw new KtkValidationException(subject + "column '" + column.getName() + "' has type "
          + ArrowTypeNames.name(column) + ", which the SQL source does not read yet (primitive columns only); leave"
          + " the column out of the table");
    }
    return logical.copy(true).asSummaryString();
  }

  /** The declared column called {@code name}, or null. */
  Field column(String name) {
    for (Field column : columns) {
      if (column.getName().equals(name)) {
        return column;
      }
    }
    return null;
  }

  @Override
  public String describe() {
    return "Kartothek[" + cube + "]";
  }

  @Override
  public Source<Row, ?, ?> source(List<String> columns, List<Condition> where, long limit) {
    return builder(columns, where, limit).build();
  }

  @Override
  public Source<RowData, ?, ?> source(List<String> columns, List<Condition> where, long limit,
      RecordFormat<RowData> format, TypeInformation<RowData> type) {
    return builder(columns, where, limit).build(format, type);
  }

  private KartothekSource.Builder builder(List<String> columns, List<Condition> where, long limit) {
    // A limit stops each reader once it emitted that many rows (the query's rows are final: Flink pushes
    // a limit only onto a scan without a filter left above it); Flink still cuts the rows. Continuous scans poll.
    CubeQuery query = CubeQuery.builder().columns(columns).dimensionColumns(dimensionColumns).datasets(datasets)
        .where(where).build();
    return KartothekSource.builder(storeUrl, cube).storeOptions(storeOptions).versions(versions).query(query)
        .continuous(continuous).discoveryInterval(discoveryInterval).limit(continuous ? -1 : limit);
  }
}
