package io.ktk.flink.source.table;

import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.state.ValidationException;
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
 * The SQL table source {@code 'connector' = 'kartothek'}: a table that is a Kartothek cube, read
 * with filter, projection and partition push-down. The sink module registers a sink factory under
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
 * <p>Planning a query pins the latest version of every dataset of the cube and checks the declared
 * columns against it ({@link CubeTable}); the scan reads those versions.
 */
public final class KartothekTableSourceFactory implements DynamicTableSourceFactory {
  public static final String IDENTIFIER = "kartothek";

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of(KartothekTableSourceOptions.STORE, KartothekTableSourceOptions.CUBE);
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
    List<String> datasets = helper.getOptions().get(KartothekTableSourceOptions.DATASETS);
    Map<String, String> storeOptions = new TreeMap<>();
    context.getCatalogTable().getOptions().forEach((key, value) -> {
      if (key.startsWith(KartothekTableSourceOptions.STORE_OPTION_PREFIX)) {
        storeOptions.put(key.substring(KartothekTableSourceOptions.STORE_OPTION_PREFIX.length()), value);
      }
    });
    String name = context.getObjectIdentifier().asSummaryString();
    DataType physical = context.getPhysicalRowDataType();
    CubeSnapshot snapshot;
    try (ObjectStore store = ObjectStores.open(storeUrl, storeOptions)) {
      snapshot = CubeSnapshot.latest(store, cube);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create the source of table " + name + ": cannot read cube '" + cube
          + "' in " + storeUrl + ": " + e.getMessage(), e);
    } catch (ValidationException e) {
      throw new ValidationException("Cannot create the source of table " + name + ": " + e.getMessage(), e);
    }
    CubeTable table = CubeTable.check(name, storeUrl, storeOptions, snapshot, datasets,
        (RowType) physical.getLogicalType(), context.getCatalogTable().getPartitionKeys());
    return new KartothekTableSource(table, physical);
  }
}
