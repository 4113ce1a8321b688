package io.ktk.flink.source.table;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.KartothekDatasetSource;
import io.ktk.flink.source.KartothekSourceOptions;
import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.planner.PlainDatasetSnapshot;
import io.ktk.flink.source.query.Condition;
import io.ktk.flink.source.reader.RecordFormat;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.metadata.PrimaryKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;

/**
 * A SQL table over one plain dataset (not a cube), checked against the dataset's latest version
 * when a query is planned: every row of every file is a row of the table (no de-duplication; with a
 * primary key, the last-written row of each key that is not deleted), its columns are the declared
 * ones. Declared types must be exactly the Flink types of the dataset's
 * column types, as for cubes ({@link CubeTable}); a column may be {@code NOT NULL} when it is a
 * partition column or the schema says it holds no nulls.
 *
 * @param name the table's name, for messages
 * @param storeUrl the store
 * @param storeOptions the store's options
 * @param dataset the dataset's uuid
 * @param version the pinned version
 * @param columns the declared physical columns, in order, typed as the dataset has them
 * @param partitionColumns the dataset's partition columns, typed
 * @param partitions the partition values at the pinned version, in plan order
 * @param primaryKey the dataset's primary key ({@code ktk_primary_key}), empty when it has none
 * @param continuous whether the scan goes on with what later commits add ({@code scan.mode}): appended
 *     rows, or with a primary key an upsert changelog ({@link #changelogKey()})
 * @param discoveryInterval how often a continuous scan looks for later commits
 */
record DatasetTable(
    String name,
    String storeUrl,
    Map<String, String> storeOptions,
    String dataset,
    long version,
    List<Field> columns,
    List<Field> partitionColumns,
    List<List<Object>> partitions,
    List<String> primaryKey,
    boolean continuous,
    Duration discoveryInterval) implements KartothekTable {

  DatasetTable {
    requireNonNull(dataset, "dataset is null");
    columns = List.copyOf(columns);
    partitionColumns = List.copyOf(partitionColumns);
    partitions = List.copyOf(partitions);
    primaryKey = List.copyOf(primaryKey);
    requireNonNull(name, "name is null");
    requireNonNull(storeUrl, "storeUrl is null");
    storeOptions = Map.copyOf(storeOptions);
    requireNonNull(discoveryInterval, "discoveryInterval is null");
  }

  /**
   * This table, scanned continuously or not. A dataset with a primary key is scanned continuously
   * as an upsert changelog, which Flink needs the table to declare the key for.
   *
   * @param declaredKey the table's {@code PRIMARY KEY} columns (empty: none declared)
   * @throws KtkValidationException when the scan is continuous, the dataset has a key, and the table
   *     declares none or another one
   */
  DatasetTable scanning(boolean continuous, Duration discoveryInterval, List<String> declaredKey) {
    if (continuous && !primaryKey.isEmpty()
        && (declaredKey.size() != primaryKey.size() || !declaredKey.containsAll(primaryKey))) {
      throw new KtkValidationException("Cannot create the source of table " + name + " (dataset '" + dataset + "'): a"
          + " continuous scan of a dataset with a primary key is an upsert changelog keyed by it, so the table must"
          + " declare PRIMARY KEY (" + String.join(", ", primaryKey) + ") NOT ENFORCED"
          + (declaredKey.isEmpty() ? "" : ", not (" + String.join(", ", declaredKey) + ")"));
    }
    return new DatasetTable(name, storeUrl, storeOptions, dataset, version, columns, partitionColumns, partitions,
        primaryKey, continuous, discoveryInterval);
  }

  @Override
  public List<String> changelogKey() {
    return continuous ? primaryKey : List.of();
  }

  @Override
  public boolean bounded() {
    return !continuous;
  }

  /**
   * Checks the declared row type against the dataset at {@code snapshot}.
   *
   * @param partitionKeys the table's {@code PARTITIONED BY} columns (empty or the dataset's partition columns)
   * @throws KtkValidationException naming the table, the dataset and the column, when a column is
   *     unknown, typed otherwise than the dataset types it, or cannot be read by this source
   */
  static DatasetTable check(String name, String storeUrl, Map<String, String> storeOptions, DatasetSnapshot snapshot,
      RowType declared, List<String> partitionKeys) {
    String subject = "Cannot create the source of table " + name + " (dataset '" + snapshot.uuid() + "'): ";
    List<String> keyNames = snapshot.partitionKeys().stream().map(Field::getName).toList();
    // never null either: the primary key's columns (a writer refuses a change without its key)
    List<String> primaryKey = PrimaryKey.of(snapshot.uuid(), snapshot.metadata()).orElse(List.of());
    List<Field> columns = new ArrayList<>();
    for (int i = 0; i < declared.getFieldCount(); i++) {
      String columnName = declared.getFieldNames().get(i);
      Field column = snapshot.schema().getFields().stream().filter(f -> f.getName().equals(columnName)).findFirst()
          .orElseThrow(() -> new KtkValidationException(subject + "column '" + columnName + "' is not in the dataset"
              + " (columns: " + snapshot.schema().getFields().stream().map(Field::getName)
                  .collect(Collectors.joining(", ")) + ")"));
      LogicalType type = declared.getTypeAt(i);
      DeclaredColumns.checkType(subject, "dataset", column, type);
      if (!type.isNullable() && column.isNullable() && !keyNames.contains(columnName)
          && !primaryKey.contains(columnName)) {
        throw new KtkValidationException(subject + "column '" + columnName + "' is declared NOT NULL, but the dataset's"
            + " schema allows nulls in it; only partition columns " + keyNames + ", primary key columns "
            + primaryKey + " and columns without nulls may be NOT NULL");
      }
      columns.add(column);
    }
    DeclaredColumns.checkPartitionedBy(subject, "dataset", partitionKeys, snapshot.partitionKeys());
    List<List<Object>> partitions = new ArrayList<>();
    for (Partition partition : new PlainDatasetSnapshot(snapshot).partitionsInOrder()) {
      partitions.add(partition.values());
    }
    return new DatasetTable(name, storeUrl, storeOptions, snapshot.uuid(), snapshot.version(), columns,
        snapshot.partitionKeys(), partitions, primaryKey, false, KartothekSourceOptions.DISCOVERY_INTERVAL.defaultValue());
  }

  @Override
  public String describe() {
    return "Kartothek[" + dataset + "]";
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

  private KartothekDatasetSource.Builder builder(List<String> columns, List<Condition> where, long limit) {
    return KartothekDatasetSource.builder(storeUrl, dataset).storeOptions(storeOptions).version(version)
        .query(DatasetQuery.builder().columns(columns).where(where).build())
        .continuous(continuous).changelog(continuous && !primaryKey.isEmpty()).discoveryInterval(discoveryInterval)
        .limit(continuous ? -1 : limit);
  }
}
