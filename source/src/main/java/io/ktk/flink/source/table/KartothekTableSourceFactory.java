package io.ktk.flink.source.table;

import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.store.ConnectorOptionKeys;
import io.ktk.flink.state.config.OptionKeys;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.io.IOException;
import io.ktk.flink.source.table.KartothekTableSourceOptions.ScanMode;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The SQL table source {@code 'connector' = 'kartothek'}: a table that is a Kartothek cube
 * ({@code 'cube'}) or one plain dataset ({@code 'dataset'}), read with filter, projection and
 * partition push-down. The sink module registers a sink factory under
 * the same identifier; Flink looks factories up per kind, so both serve one {@code CREATE TABLE}.
 *
 * <pre>{@code
 * CREATE TABLE sales (day DATE, shop STRING, item BIGINT, price DOUBLE, stock BIGINT)
 *   PARTITIONED BY (day) WITH (
 *   'connector' = 'kartothek', 'store' = 's3://bucket/cubes', 'store.region' = 'eu-central-1',
 *   'cube' = 'sales');
 * SELECT shop, item, stock FROM sales WHERE day >= DATE '2024-01-01' AND stock > 0;
 * }</pre>
 *
 * <p>Planning a query pins the latest version of every dataset of the cube (or of the dataset) and
 * checks the declared columns against it ({@link CubeTable}, {@link DatasetTable}); the scan reads
 * those versions.
 */
@Internal
public final class KartothekTableSourceFactory implements DynamicTableSourceFactory {
  public static final String IDENTIFIER = "kartothek";

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of(KartothekTableSourceOptions.STORE);
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    Set<ConfigOption<?>> optional = new LinkedHashSet<>(KartothekTableSourceOptions.all());
    optional.removeAll(requiredOptions());
    return optional;
  }

  @Override
  public DynamicTableSource createDynamicTableSource(Context context) {
    // The sink's keys are accepted too: one CREATE TABLE serves INSERT and SELECT.
    ConnectorOptionKeys.check("create the source of table " + context.getObjectIdentifier().asSummaryString(),
        context.getCatalogTable().getOptions(), context.getClassLoader(), IDENTIFIER,
        KartothekTableSourceOptions.STORE.key());
    FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
    FactoryUtil.validateFactoryOptions(this, helper.getOptions());
    String storeUrl = helper.getOptions().get(KartothekTableSourceOptions.STORE);
    String cube = helper.getOptions().get(KartothekTableSourceOptions.CUBE);
    String dataset = helper.getOptions().get(KartothekTableSourceOptions.DATASET);
    List<String> datasets = OptionKeys.names(helper.getOptions().get(KartothekTableSourceOptions.DATASETS));
    String name = context.getObjectIdentifier().asSummaryString();
    if ((cube == null) == (dataset == null)) {
      throw new KtkValidationException("Cannot create the source of table " + name + ": give exactly one of the options"
          + " 'cube' and 'dataset' (given: " + (cube == null ? "neither" : "both") + ")");
    }
    if (dataset != null && !datasets.isEmpty()) {
      throw new KtkValidationException("Cannot create the source of table " + name + ": option 'datasets' " + datasets
          + " is for cubes; a table of dataset '" + dataset + "' has no other datasets");
    }
    Map<String, String> storeOptions = new TreeMap<>();
    context.getCatalogTable().getOptions().forEach((key, value) -> {
      if (key.startsWith(KartothekTableSourceOptions.STORE_OPTION_PREFIX)) {
        storeOptions.put(key.substring(KartothekTableSourceOptions.STORE_OPTION_PREFIX.length()), value);
      }
    });
    DataType physical = context.getPhysicalRowDataType();
    RowType declared = (RowType) physical.getLogicalType();
    List<String> partitionKeys = context.getCatalogTable().getPartitionKeys();
    String what = cube != null ? "cube '" + cube + "'" : "dataset '" + dataset + "'";
    ScanMode mode = helper.getOptions().get(KartothekTableSourceOptions.SCAN_MODE);
    Long version = helper.getOptions().get(KartothekTableSourceOptions.SCAN_VERSION);
    String asOfText = helper.getOptions().get(KartothekTableSourceOptions.SCAN_AS_OF_TIMESTAMP);
    if (version != null && asOfText != null) {
      throw new KtkValidationException("Cannot create the source of table " + name + ": give at most one of the options"
          + " 'scan.version' and 'scan.as-of-timestamp'");
    }
    if (cube != null && version != null) {
      throw new KtkValidationException("Cannot create the source of table " + name + ": 'scan.version' = " + version
          + " names a version of one dataset's log, but the datasets of cube '" + cube + "' each have versions of"
          + " their own; read the cube as of a time with 'scan.as-of-timestamp' instead");
    }
    if ((version != null || asOfText != null) && mode == ScanMode.CONTINUOUS) {
      throw new KtkValidationException("Cannot create the source of table " + name + ": time travel and 'scan.mode' ="
          + " 'CONTINUOUS' exclude each other");
    }
    Instant asOf = asOfText == null ? null : KartothekTableSourceOptions.parseInstant(asOfText);
    try (ObjectStore store = ObjectStores.open(storeUrl, storeOptions)) {
      KartothekTable table;
      if (cube != null) {
        table = CubeTable.check(name, storeUrl, storeOptions,
            asOf != null ? CubeSnapshot.asOf(store, cube, asOf) : CubeSnapshot.latest(store, cube), datasets, declared,
            partitionKeys).scanning(mode == ScanMode.CONTINUOUS,
                helper.getOptions().get(KartothekTableSourceOptions.SCAN_DISCOVERY_INTERVAL));
      } else {
        DatasetSnapshot snapshot = version != null ? DatasetSnapshot.at(store, dataset, version)
            : asOf != null ? DatasetSnapshot.asOf(store, dataset, asOf) : DatasetSnapshot.latest(store, dataset);
        List<String> declaredKey = context.getCatalogTable().getResolvedSchema().getPrimaryKey()
            .map(key -> key.getColumns()).orElse(List.of());
        table = DatasetTable.check(name, storeUrl, storeOptions, snapshot, declared, partitionKeys)
            .scanning(mode == ScanMode.CONTINUOUS,
                helper.getOptions().get(KartothekTableSourceOptions.SCAN_DISCOVERY_INTERVAL), declaredKey);
      }
      return table.bounded() ? new PartitionPruningTableSource(table, physical)
          : new KartothekTableSource(table, physical);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create the source of table " + name + ": cannot read " + what + " in "
          + storeUrl + ": " + e.getMessage(), e);
    } catch (KtkValidationException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("Cannot create the source of table")) {
        throw e;
      }
      throw new KtkValidationException("Cannot create the source of table " + name + ": " + e.getMessage(), e);
    }
  }
}
