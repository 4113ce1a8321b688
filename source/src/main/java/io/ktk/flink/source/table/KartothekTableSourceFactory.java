package io.ktk.flink.source.table;

import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
    FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
    helper.validateExcept(KartothekTableSourceOptions.STORE_OPTION_PREFIX);
    String storeUrl = helper.getOptions().get(KartothekTableSourceOptions.STORE);
    String cube = helper.getOptions().get(KartothekTableSourceOptions.CUBE);
    String dataset = helper.getOptions().get(KartothekTableSourceOptions.DATASET);
    List<String> datasets = helper.getOptions().get(KartothekTableSourceOptions.DATASETS);
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
    try (ObjectStore store = ObjectStores.open(storeUrl, storeOptions)) {
      KartothekTable table = cube != null
          ? CubeTable.check(name, storeUrl, storeOptions, CubeSnapshot.latest(store, cube), datasets, declared,
              partitionKeys)
          : DatasetTable.check(name, storeUrl, storeOptions, DatasetSnapshot.latest(store, dataset), declared,
              partitionKeys);
      return new KartothekTableSource(table, physical);
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
