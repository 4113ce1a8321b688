package io.ktk.flink.sink.table;

import io.ktk.flink.sink.KartothekCubeSink;
import io.ktk.flink.sink.KartothekCubeSinkBuilder;
import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.sink.KartothekSinkBuilder;
import io.ktk.flink.sink.config.KartothekSinkOptions;
import io.ktk.flink.sink.maintenance.MaintenanceOptions;
import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.store.ConnectorOptionKeys;
import io.ktk.flink.state.config.OptionKeys;
import io.ktk.flink.state.dataset.StoredCubes;
import io.ktk.flink.state.metadata.CubeNames;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/**
 * The SQL connector {@code 'connector' = 'kartothek'}: a table that is a Kartothek dataset
 * ({@code 'dataset'}), or one dataset of a cube ({@code 'cube'}, {@code 'datasets'}), to {@code
 * INSERT INTO} in STREAMING and BATCH mode. Options are those of {@link KartothekSinkOptions#table()},
 * store options with the prefix {@code store.}; {@code PARTITIONED BY} names the partition columns.
 * The source's options are accepted too (and left to it), so one {@code CREATE TABLE} serves
 * {@code INSERT} and {@code SELECT}.
 *
 * <pre>{@code
 * CREATE TABLE events (id BIGINT, day DATE, v DOUBLE) PARTITIONED BY (day) WITH (
 *   'connector' = 'kartothek',
 *   'store' = 's3://bucket/datasets', 'store.region' = 'eu-central-1',
 *   'dataset' = 'events', 'index-columns' = 'id');
 * INSERT INTO events SELECT id, day, v FROM source;
 * }</pre>
 *
 * <p>{@code PRIMARY KEY (...) NOT ENFORCED} (or the option {@code 'primary-key'}) gives the dataset
 * a primary key, and the table then takes an upsert changelog: an updating query ({@code INSERT
 * INTO totals SELECT k, COUNT(*) FROM events GROUP BY k}) keeps one row per key ({@code
 * docs/cdc.md}). On a cube's dataset the key must be its cell.
 *
 * <p>A cube's dataset takes its cube's dimension and partition columns from the store when the
 * cube exists ({@code 'dimension-columns'} is needed to create one). The validation policy
 * DEAD_LETTER is refused: SQL has no side output to send rejected records to, and they may not be
 * dropped silently.
 */
@Internal
public final class KartothekDynamicTableFactory implements DynamicTableSinkFactory {
  public static final String IDENTIFIER = "kartothek";

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of(KartothekSinkOptions.STORE);
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    Set<ConfigOption<?>> optional = new LinkedHashSet<>(KartothekSinkOptions.table());
    optional.addAll(MaintenanceOptions.all());
    optional.removeAll(requiredOptions());
    return optional;
  }

  @Override
  public DynamicTableSink createDynamicTableSink(Context context) {
    ResolvedCatalogTable table = context.getCatalogTable();
    String name = context.getObjectIdentifier().asSummaryString();
    // The source's keys are accepted too: one CREATE TABLE serves INSERT and SELECT.
    ConnectorOptionKeys.check("create the sink of table " + name, table.getOptions(), context.getClassLoader(),
        IDENTIFIER, KartothekSinkOptions.STORE.key());
    ReadableConfig config = FactoryUtil.createTableFactoryHelper(this, context).getOptions();
    FactoryUtil.validateFactoryOptions(this, config);
    String dataset = config.getOptional(KartothekSinkOptions.DATASET).orElse(null);
    String cube = config.getOptional(KartothekSinkOptions.CUBE).orElse(null);
    if ((dataset == null) == (cube == null)) {
      throw new KtkValidationException("Cannot create the sink of table " + name + ": give exactly one of the options"
          + " 'dataset' and 'cube' (given: " + (cube == null ? "neither" : "both") + ")");
    }
    String subject = "Cannot create the sink of table " + name + " (" + (cube == null ? "dataset '" + dataset + "'"
        : "cube '" + cube + "'") + "): ";
    if (config.get(KartothekSinkOptions.VALIDATION_POLICY) == ValidationPolicy.DEAD_LETTER) {
      throw new KtkValidationException(subject + "the validation policy DEAD_LETTER needs the DataStream API "
          + "(KartothekSink.addTo), since SQL has no side output for rejected records");
    }
    List<String> partitionKeys = table.getPartitionKeys();
    List<String> optionKeys = OptionKeys.names(config.get(KartothekSinkOptions.PARTITION_COLUMNS));
    if (!partitionKeys.isEmpty() && !optionKeys.isEmpty() && !optionKeys.equals(partitionKeys)) {
      throw new KtkValidationException(subject + "PARTITIONED BY " + partitionKeys + " and '"
          + KartothekSinkOptions.PARTITION_COLUMNS.key() + "' = " + optionKeys + " disagree");
    }
    List<String> partitionColumns = partitionKeys.isEmpty() ? optionKeys : partitionKeys;
    RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
    List<String> declaredKey = table.getResolvedSchema().getPrimaryKey()
        .map(UniqueConstraint::getColumns).orElse(List.of());
    if (cube == null) {
      KartothekSinkBuilder builder = KartothekSink.forRowData(rowType)
          .options(builderOptions(table.getOptions(), KartothekSinkOptions.all()));
      builder.partitionBy(partitionColumns);
      List<String> keyOption = OptionKeys.names(config.get(KartothekSinkOptions.PRIMARY_KEY));
      if (!declaredKey.isEmpty() && !keyOption.isEmpty() && !keyOption.equals(declaredKey)) {
        throw new KtkValidationException(subject + "PRIMARY KEY " + declaredKey + " and '"
            + KartothekSinkOptions.PRIMARY_KEY.key() + "' = " + keyOption + " disagree");
      }
      List<String> primaryKey = declaredKey.isEmpty() ? keyOption : declaredKey;
      builder.primaryKey(primaryKey);
      return new KartothekDynamicTableSink(SinkV2Provider.of(builder.build()), "dataset '" + dataset + "'", name,
          !primaryKey.isEmpty());
    }
    if (!config.get(KartothekSinkOptions.INDEX_COLUMNS).isEmpty()) {
      throw new KtkValidationException(subject + "'index-columns' is for plain datasets; a cube's seed is indexed on "
          + "its dimension columns (see 'suppress-index-on')");
    }
    if (!config.get(KartothekSinkOptions.PRIMARY_KEY).isEmpty()) {
      throw new KtkValidationException(subject + "'primary-key' is for plain datasets; a cube dataset's key is its "
          + "cell (its dimension and partition columns): declare PRIMARY KEY (...) NOT ENFORCED on them to write a "
          + "changelog");
    }
    return cubeSink(name, subject, cube, config, table.getOptions(), partitionColumns, rowType, declaredKey);
  }

  private static KartothekDynamicTableSink cubeSink(String name, String subject, String cube, ReadableConfig config,
      Map<String, String> tableOptions, List<String> partitionColumns, RowType rowType, List<String> declaredKey) {
    Map<String, String> storeOptions = new HashMap<>();
    tableOptions.forEach((key, value) -> {
      if (key.startsWith(KartothekSinkOptions.STORE_OPTION_PREFIX)) {
        storeOptions.put(key.substring(KartothekSinkOptions.STORE_OPTION_PREFIX.length()), value);
      }
    });
    Optional<CubeSpec> stored;
    String url = config.get(KartothekSinkOptions.STORE);
    try (ObjectStore store = ObjectStores.open(url, storeOptions)) {
      stored = StoredCubes.spec(store, cube);
    } catch (IOException e) {
      throw new UncheckedIOException(subject + "cannot read the cube in " + url + ": " + e.getMessage(), e);
    }
    List<String> ids = OptionKeys.names(config.get(KartothekSinkOptions.DATASETS));
    if (ids.size() > 1) {
      throw new KtkValidationException(subject + "a table writes one dataset of the cube, but 'datasets' names " + ids);
    }
    String seed = stored.map(CubeSpec::seedDatasetId).orElse(CubeNames.DEFAULT_SEED_DATASET_ID);
    String id = ids.isEmpty() ? seed : ids.get(0);
    List<ConfigOption<?>> accepted = new ArrayList<>(KartothekSinkOptions.all());
    accepted.remove(KartothekSinkOptions.DATASET);
    accepted.remove(KartothekSinkOptions.INDEX_COLUMNS);
    accepted.remove(KartothekSinkOptions.PARTITION_COLUMNS);
    accepted.remove(KartothekSinkOptions.PRIMARY_KEY);
    accepted.addAll(KartothekSinkOptions.cubeOnly());
    KartothekCubeSinkBuilder builder = KartothekCubeSink.forCube(cube).options(builderOptions(tableOptions, accepted));
    if (config.getOptional(KartothekSinkOptions.DIMENSION_COLUMNS).isEmpty()) {
      CubeSpec spec = stored.orElseThrow(() -> new KtkValidationException(subject + "the store holds no cube '" + cube
          + "' yet; give its dimension columns with 'dimension-columns' to create it"));
      builder.dimensionColumns(spec.dimensionColumns().toArray(String[]::new));
      builder.suppressIndexOn(spec.suppressIndexOn().toArray(String[]::new));
    }
    List<String> partitions = partitionColumns.isEmpty() && stored.isPresent()
        ? stored.get().partitionColumns() : partitionColumns;
    builder.partitionColumns(partitions.toArray(String[]::new));
    if (id.equals(seed)) {
      builder.seed(id, rowType);
    } else {
      builder.seedDatasetId(seed).enrichment(id, rowType);
    }
    if (!declaredKey.isEmpty()) {
      builder.changelog();
    }
    KartothekCubeSink sink = builder.build();
    List<String> cellKey = sink.config().datasets().get(0).primaryKey();
    if (!declaredKey.isEmpty() && !new HashSet<>(declaredKey).equals(new HashSet<>(cellKey))) {
      throw new KtkValidationException(subject + "PRIMARY KEY " + declaredKey + " is not the cell of dataset " + id
          + ", " + cellKey + " (its dimension and partition columns), which is the key of a cube dataset");
    }
    return new KartothekDynamicTableSink(new CubeSinkProvider(sink, id), "dataset '"
        + CubeNames.datasetUuid(cube, id) + "' of cube '" + cube + "'", name, !declaredKey.isEmpty());
  }

  /** The options of {@code accepted} and the store's, as text for a builder. */
  private static Map<String, String> builderOptions(Map<String, String> options, List<ConfigOption<?>> accepted) {
    Set<String> keys = new HashSet<>();
    accepted.forEach(option -> keys.add(option.key()));
    Map<String, String> builderOptions = new HashMap<>();
    options.forEach((key, value) -> {
      if (keys.contains(key) || key.startsWith(KartothekSinkOptions.STORE_OPTION_PREFIX)) {
        builderOptions.put(key, value);
      }
    });
    return builderOptions;
  }
}
