package io.ktk.flink.source.catalog;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.config.OptionKeys;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.table.catalog.AbstractCatalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogPartition;
import org.apache.flink.table.catalog.CatalogPartitionSpec;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.FunctionNotExistException;
import org.apache.flink.table.catalog.exceptions.PartitionNotExistException;
import org.apache.flink.table.catalog.exceptions.TableAlreadyExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.catalog.stats.CatalogColumnStatistics;
import org.apache.flink.table.catalog.stats.CatalogTableStatistics;
import org.apache.flink.table.expressions.Expression;
import org.apache.flink.table.types.logical.RowType;

/**
 * A Flink catalog over a store's Kartothek datasets and cubes, so that no DDL restates what the
 * store records:
 *
 * <pre>{@code
 * CREATE CATALOG ktk WITH ('type' = 'kartothek', 'store' = 's3://bucket/data', 'store.region' = 'eu-west-1');
 * USE CATALOG ktk;
 * SHOW TABLES;                                -- datasets, cubes, and each cube's datasets (<cube>++<id>)
 * SELECT * FROM sales WHERE day = DATE '2024-01-01';
 * SELECT * FROM events FOR SYSTEM_TIME AS OF TIMESTAMP '2024-05-01 10:00:00';
 * CREATE TABLE events2 (id BIGINT, day DATE) PARTITIONED BY (day) WITH ('index-columns' = 'id');
 * DROP TABLE events2;
 * }</pre>
 *
 * <p>One database ({@code default}) holds every table ({@link StoredTables} says which). {@code
 * CREATE TABLE} creates a plain dataset (version 0 with the columns and partition keys, no files);
 * {@code DROP TABLE} deletes a plain dataset with all its files. {@code FOR SYSTEM_TIME AS OF}
 * reads a dataset's version of that time. Views, functions, partitions as objects and statistics
 * are not kept.
 */
@PublicEvolving
public final class KartothekCatalog extends AbstractCatalog {
  private final String storeUrl;
  private final Map<String, String> storeOptions;
  private ObjectStore store;
  private StoredTables tables;

  public KartothekCatalog(String name, String defaultDatabase, String storeUrl, Map<String, String> storeOptions) {
    super(name, defaultDatabase);
    this.storeUrl = storeUrl;
    this.storeOptions = Map.copyOf(storeOptions);
  }

  @Override
  public void open() {
    store = ObjectStores.open(storeUrl, storeOptions);
    Map<String, String> options = new LinkedHashMap<>();
    options.put("connector", "kartothek");
    options.put("store", storeUrl);
    storeOptions.forEach((key, value) -> options.put(KartothekCatalogOptions.STORE_OPTION_PREFIX + key, value));
    tables = new StoredTables(store, options);
  }

  @Override
  public void close() {
    if (store != null) {
      try {
        store.close();
      } catch (IOException e) {
        throw new CatalogException("Cannot close the store of catalog " + getName() + ": " + e.getMessage(), e);
      }
      store = null;
    }
  }

  // databases: one, fixed

  @Override
  public List<String> listDatabases() {
    return List.of(getDefaultDatabase());
  }

  @Override
  public CatalogDatabase getDatabase(String databaseName) throws DatabaseNotExistException {
    checkDatabase(databaseName);
    return new CatalogDatabaseImpl(Map.of(), "the datasets and cubes of " + storeUrl);
  }

  @Override
  public boolean databaseExists(String databaseName) {
    return getDefaultDatabase().equals(databaseName);
  }

  @Override
  public void createDatabase(String name, CatalogDatabase database, boolean ignoreIfExists) {
    throw unsupported("create databases: the catalog has one, " + getDefaultDatabase());
  }

  @Override
  public void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade) {
    throw unsupported("drop databases");
  }

  @Override
  public void alterDatabase(String name, CatalogDatabase newDatabase, boolean ignoreIfNotExists) {
    throw unsupported("alter databases");
  }

  // tables: the store's datasets and cubes

  @Override
  public List<String> listTables(String databaseName) throws DatabaseNotExistException {
    checkDatabase(databaseName);
    try {
      return tables.names();
    } catch (IOException e) {
      throw new CatalogException("Cannot list the tables of catalog " + getName() + " in " + storeUrl + ": "
          + e.getMessage(), e);
    }
  }

  @Override
  public List<String> listViews(String databaseName) throws DatabaseNotExistException {
    checkDatabase(databaseName);
    return List.of();
  }

  @Override
  public CatalogBaseTable getTable(ObjectPath path) throws TableNotExistException {
    if (!databaseExists(path.getDatabaseName())) {
      throw new TableNotExistException(getName(), path);
    }
    try {
      return tables.table(path.getObjectName()).orElseThrow(() -> new TableNotExistException(getName(), path));
    } catch (IOException e) {
      throw new CatalogException("Cannot read table " + path + " of catalog " + getName() + " in " + storeUrl + ": "
          + e.getMessage(), e);
    }
  }

  /** {@code FOR SYSTEM_TIME AS OF}: the table read at the version of that time (epoch milliseconds). */
  @Override
  public CatalogBaseTable getTable(ObjectPath path, long timestamp) throws TableNotExistException {
    CatalogTable table = (CatalogTable) getTable(path);
    if (!table.getOptions().containsKey("dataset")) {
      throw new CatalogException("Cannot read table " + path + " of catalog " + getName() + " as of " + timestamp
          + ": time travel is offered for plain datasets; a cube's datasets each have versions of their own");
    }
    Map<String, String> options = new LinkedHashMap<>(table.getOptions());
    options.put("scan.as-of-timestamp", Long.toString(timestamp));
    return table.copy(options);
  }

  @Override
  public boolean tableExists(ObjectPath path) {
    try {
      getTable(path);
      return true;
    } catch (TableNotExistException e) {
      return false;
    }
  }

  @Override
  public void createTable(ObjectPath path, CatalogBaseTable table, boolean ignoreIfExists)
      throws TableAlreadyExistException, DatabaseNotExistException {
    checkDatabase(path.getDatabaseName());
    if (tableExists(path)) {
      if (ignoreIfExists) {
        return;
      }
      throw new TableAlreadyExistException(getName(), path);
    }
    if (!(table instanceof ResolvedCatalogTable resolved)) {
      throw unsupported("create " + table.getTableKind() + " " + path + ": only tables");
    }
    Map<String, String> options = resolved.getOptions();
    Set<String> allowed = Set.of("index-columns");
    for (String key : options.keySet()) {
      if (!allowed.contains(key)) {
        throw new KtkValidationException("Cannot create table " + path + " in catalog " + getName() + ": option '"
            + key + "' is not kept with a dataset (the catalog's tables carry the store; the table's name is the "
            + "dataset's uuid); only 'index-columns' is taken, other options go into statements as hints");
      }
    }
    List<String> indexColumns = options.containsKey("index-columns")
        ? OptionKeys.names(List.of(options.get("index-columns").split(";"))) : List.of();
    RowType rowType = (RowType) resolved.getResolvedSchema().toPhysicalRowDataType().getLogicalType();
    try {
      List<String> primaryKey = resolved.getResolvedSchema().getPrimaryKey().map(UniqueConstraint::getColumns)
          .orElse(List.of());
      tables.createDataset(path.getObjectName(), rowType, resolved.getPartitionKeys(), indexColumns, primaryKey);
    } catch (IOException e) {
      throw new CatalogException("Cannot create table " + path + " in " + storeUrl + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void dropTable(ObjectPath path, boolean ignoreIfNotExists) throws TableNotExistException {
    CatalogTable table;
    try {
      table = (CatalogTable) getTable(path);
    } catch (TableNotExistException e) {
      if (ignoreIfNotExists) {
        return;
      }
      throw e;
    }
    if (!table.getOptions().containsKey("dataset")) {
      throw new KtkValidationException("Cannot drop table " + path + " of catalog " + getName() + ": it is a cube or a"
          + " cube's dataset; delete cubes with 'ktk delete --cube'");
    }
    try {
      tables.deleteDataset(path.getObjectName());
    } catch (IOException e) {
      throw new CatalogException("Cannot drop table " + path + " in " + storeUrl + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void renameTable(ObjectPath path, String newTableName, boolean ignoreIfNotExists) {
    throw unsupported("rename tables (a dataset's uuid is in its file paths)");
  }

  @Override
  public void alterTable(ObjectPath path, CatalogBaseTable newTable, boolean ignoreIfNotExists) {
    throw unsupported("alter tables (the schema changes with what is written)");
  }

  // not kept: partitions as objects, functions, statistics

  @Override
  public List<CatalogPartitionSpec> listPartitions(ObjectPath path) {
    return List.of();
  }

  @Override
  public List<CatalogPartitionSpec> listPartitions(ObjectPath path, CatalogPartitionSpec spec) {
    return List.of();
  }

  @Override
  public List<CatalogPartitionSpec> listPartitionsByFilter(ObjectPath path, List<Expression> filters) {
    return List.of();
  }

  @Override
  public CatalogPartition getPartition(ObjectPath path, CatalogPartitionSpec spec) throws PartitionNotExistException {
    throw new PartitionNotExistException(getName(), path, spec);
  }

  @Override
  public boolean partitionExists(ObjectPath path, CatalogPartitionSpec spec) {
    return false;
  }

  @Override
  public void createPartition(ObjectPath path, CatalogPartitionSpec spec, CatalogPartition partition,
      boolean ignoreIfExists) {
    throw unsupported("create partitions (they come with the rows written)");
  }

  @Override
  public void dropPartition(ObjectPath path, CatalogPartitionSpec spec, boolean ignoreIfNotExists) {
    throw unsupported("drop partitions");
  }

  @Override
  public void alterPartition(ObjectPath path, CatalogPartitionSpec spec, CatalogPartition newPartition,
      boolean ignoreIfNotExists) {
    throw unsupported("alter partitions");
  }

  @Override
  public List<String> listFunctions(String databaseName) throws DatabaseNotExistException {
    checkDatabase(databaseName);
    return List.of();
  }

  @Override
  public CatalogFunction getFunction(ObjectPath path) throws FunctionNotExistException {
    throw new FunctionNotExistException(getName(), path);
  }

  @Override
  public boolean functionExists(ObjectPath path) {
    return false;
  }

  @Override
  public void createFunction(ObjectPath path, CatalogFunction function, boolean ignoreIfExists) {
    throw unsupported("keep functions");
  }

  @Override
  public void alterFunction(ObjectPath path, CatalogFunction newFunction, boolean ignoreIfNotExists) {
    throw unsupported("keep functions");
  }

  @Override
  public void dropFunction(ObjectPath path, boolean ignoreIfNotExists) {
    throw unsupported("keep functions");
  }

  @Override
  public CatalogTableStatistics getTableStatistics(ObjectPath path) {
    return CatalogTableStatistics.UNKNOWN;
  }

  @Override
  public CatalogColumnStatistics getTableColumnStatistics(ObjectPath path) {
    return CatalogColumnStatistics.UNKNOWN;
  }

  @Override
  public CatalogTableStatistics getPartitionStatistics(ObjectPath path, CatalogPartitionSpec spec) {
    return CatalogTableStatistics.UNKNOWN;
  }

  @Override
  public CatalogColumnStatistics getPartitionColumnStatistics(ObjectPath path, CatalogPartitionSpec spec) {
    return CatalogColumnStatistics.UNKNOWN;
  }

  @Override
  public void alterTableStatistics(ObjectPath path, CatalogTableStatistics statistics, boolean ignoreIfNotExists) {
    throw unsupported("keep statistics");
  }

  @Override
  public void alterTableColumnStatistics(ObjectPath path, CatalogColumnStatistics statistics,
      boolean ignoreIfNotExists) {
    throw unsupported("keep statistics");
  }

  @Override
  public void alterPartitionStatistics(ObjectPath path, CatalogPartitionSpec spec, CatalogTableStatistics statistics,
      boolean ignoreIfNotExists) {
    throw unsupported("keep statistics");
  }

  @Override
  public void alterPartitionColumnStatistics(ObjectPath path, CatalogPartitionSpec spec,
      CatalogColumnStatistics statistics, boolean ignoreIfNotExists) {
    throw unsupported("keep statistics");
  }

  private void checkDatabase(String databaseName) throws DatabaseNotExistException {
    if (!databaseExists(databaseName)) {
      throw new DatabaseNotExistException(getName(), databaseName);
    }
  }

  private CatalogException unsupported(String what) {
    return new CatalogException("Catalog " + getName() + " does not " + what);
  }
}
