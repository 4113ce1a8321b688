package io.ktk.flink.source.catalog;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.dataset.DatasetDeletion;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.NoSuchDatasetException;
import io.ktk.flink.state.dataset.StoredCubes;
import io.ktk.flink.state.metadata.CubeNames;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.types.FlinkArrowTypes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;

/**
 * The datasets and cubes of a store as Flink tables, and the changes a catalog makes to them. Each
 * table is a {@code 'connector' = 'kartothek'} table whose options name the store and the dataset
 * or cube, so reading and writing go through the same factories as a {@code CREATE TABLE}:
 *
 * <ul>
 *   <li>a plain dataset is the table named by its uuid ({@code 'dataset' = '<uuid>'});
 *   <li>a cube is the table named by the cube, the cube query over all its datasets ({@code 'cube'});
 *   <li>each dataset of a cube is also the table {@code <cube>++<id>} ({@code 'cube'}, {@code
 *       'datasets' = '<id>'}): read, its columns joined onto the seed's cells; written, the dataset
 *       through the cube sink.
 * </ul>
 *
 * Columns and partition keys come from the latest committed version, typed as the source reads
 * them; columns are nullable (Kartothek stores every column nullable).
 */
final class StoredTables {
  private final ObjectStore store;
  private final Map<String, String> connectorOptions;

  /**
   * @param connectorOptions {@code connector}, {@code store} and the {@code store.*} options every
   *     table of the catalog carries
   */
  StoredTables(ObjectStore store, Map<String, String> connectorOptions) {
    this.store = store;
    this.connectorOptions = Map.copyOf(connectorOptions);
  }

  /** The names of all tables: plain datasets, cubes, and the datasets of cubes. */
  List<String> names() throws IOException {
    NavigableSet<String> names = new TreeSet<>();
    NavigableSet<String> cubes = StoredCubes.names(store);
    for (String uuid : DatasetKeys.discoverDatasetUuids(store)) {
      if (!uuid.contains(CubeNames.SEPARATOR)) {
        names.add(uuid);
      } else if (cubes.contains(uuid.substring(0, uuid.indexOf(CubeNames.SEPARATOR)))) {
        names.add(uuid);
      }
    }
    names.addAll(cubes);
    return new ArrayList<>(names);
  }

  /** The table of that name, or empty. */
  Optional<CatalogTable> table(String name) throws IOException {
    if (name.contains(CubeNames.SEPARATOR)) {
      CubeNames.DatasetName parsed;
      try {
        parsed = CubeNames.parse(name);
      } catch (KtkValidationException e) {
        return Optional.empty();
      }
      Optional<CubeSpec> spec = StoredCubes.spec(store, parsed.cube());
      if (spec.isEmpty()) {
        return Optional.empty();
      }
      Optional<DatasetSnapshot> snapshot = dataset(name);
      if (snapshot.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(table(columns(List.of(snapshot.get())), spec.get().partitionColumns(),
          primaryKey(snapshot.get()), Map.of("cube", parsed.cube(), "datasets", parsed.datasetId()),
          "dataset " + parsed.datasetId() + " of Kartothek cube " + parsed.cube()));
    }
    Optional<CubeSpec> cube = CubeNames.isValidName(name) ? StoredCubes.spec(store, name) : Optional.empty();
    if (cube.isPresent()) {
      List<DatasetSnapshot> datasets = new ArrayList<>();
      String seedUuid = cube.get().datasetUuid(cube.get().seedDatasetId());
      dataset(seedUuid).ifPresent(datasets::add);
      for (String uuid : DatasetKeys.discoverDatasetUuids(store, CubeNames.uuidPrefix(name))) {
        if (!uuid.equals(seedUuid) && CubeNames.datasetId(name, uuid).isPresent()) {
          dataset(uuid).ifPresent(datasets::add);
        }
      }
      return Optional.of(table(columns(datasets), cube.get().partitionColumns(), List.of(), Map.of("cube", name),
          "Kartothek cube " + name + " (seed and enrichments joined)"));
    }
    return dataset(name).map(snapshot -> table(columns(List.of(snapshot)),
        snapshot.partitionKeys().stream().map(Field::getName).toList(), primaryKey(snapshot), Map.of("dataset", name),
        "Kartothek dataset " + name));
  }

  /**
   * Creates dataset {@code uuid} with the table's columns, partition keys and primary key (none
   * when empty) and no files (version 0 of its log, published), so that it is listed and can be
   * written at once.
   */
  void createDataset(String uuid, RowType rowType, List<String> partitionKeys, List<String> indexColumns,
      List<String> primaryKey) throws IOException {
    if (!DatasetKeys.isValidUuid(uuid) || uuid.contains(CubeNames.SEPARATOR)) {
      throw new KtkValidationException("Cannot create dataset '" + uuid + "': a table of the catalog is a plain dataset"
          + " whose name holds only a-z A-Z 0-9 - _ (cube datasets are created by writing them)");
    }
    org.apache.arrow.vector.types.pojo.Schema schema = FlinkArrowTypes.toSchema(rowType);
    CommitLog log = CommitLog.open(store, uuid, CommitLogOptions.DEFAULTS);
    DatasetChange change = DatasetChange.append(partitionKeys, schema, List.of()).withIndex(indexColumns, Map.of());
    if (!primaryKey.isEmpty()) {
      change = change.withMetadata(Map.of(PrimaryKey.METADATA_KEY, PrimaryKey.toJson(primaryKey)));
    }
    log.commit(change);
    log.publish();
  }

  /** Deletes dataset {@code uuid} with all its objects. */
  void deleteDataset(String uuid) throws IOException {
    DatasetDeletion.delete(store, uuid, object -> { });
  }

  private Optional<DatasetSnapshot> dataset(String uuid) throws IOException {
    if (!DatasetKeys.isValidUuid(uuid)) {
      return Optional.empty();
    }
    try {
      return Optional.of(DatasetSnapshot.latest(store, uuid));
    } catch (NoSuchDatasetException e) {
      return Optional.empty();
    }
  }

  /**
   * The dataset's primary key ({@code ktk_primary_key}), declared by its table so that writers
   * through the catalog declare the key the dataset has; empty without one.
   */
  private static List<String> primaryKey(DatasetSnapshot dataset) {
    return PrimaryKey.of(dataset.uuid(), dataset.metadata()).orElse(List.of());
  }

  /** The columns of the datasets, each once (cell columns are in several), in the order met. */
  private static Map<String, LogicalType> columns(List<DatasetSnapshot> datasets) {
    Map<String, LogicalType> columns = new LinkedHashMap<>();
    for (DatasetSnapshot dataset : datasets) {
      for (Field field : dataset.schema().getFields()) {
        columns.putIfAbsent(field.getName(), FlinkArrowTypes.toLogicalType(field).copy(true));
      }
    }
    return columns;
  }

  private CatalogTable table(Map<String, LogicalType> columns, List<String> partitionKeys, List<String> primaryKey,
      Map<String, String> target, String comment) {
    Schema.Builder schema = Schema.newBuilder();
    columns.forEach((name, type) -> schema.column(name, TypeConversions.fromLogicalToDataType(
        primaryKey.contains(name) ? type.copy(false) : type)));
    if (!primaryKey.isEmpty()) {
      schema.primaryKey(primaryKey);
    }
    Map<String, String> options = new LinkedHashMap<>(connectorOptions);
    options.putAll(target);
    return CatalogTable.newBuilder().schema(schema.build()).comment(comment).partitionKeys(partitionKeys)
        .options(options).build();
  }
}
