package io.ktk.flink.sink.table;

import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.sink.KartothekSinkBuilder;
import io.ktk.flink.sink.config.KartothekSinkOptions;
import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.state.KtkValidationException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/**
 * The SQL connector {@code 'connector' = 'kartothek'}: a table that is a Kartothek dataset, to
 * {@code INSERT INTO} in STREAMING and BATCH mode. Options are those of {@link
 * KartothekSinkOptions}, store options with the prefix {@code store.}; {@code PARTITIONED BY}
 * names the partition columns.
 *
 * <pre>{@code
 * CREATE TABLE events (id BIGINT, day DATE, v DOUBLE) PARTITIONED BY (day) WITH (
 *   'connector' = 'kartothek',
 *   'store' = 's3://bucket/datasets', 'store.region' = 'eu-central-1',
 *   'dataset' = 'events', 'index-columns' = 'id');
 * INSERT INTO events SELECT id, day, v FROM source;
 * }</pre>
 *
 * <p>The validation policy DEAD_LETTER is refused: SQL has no side output to send rejected
 * records to, and they may not be dropped silently.
 */
public final class KartothekDynamicTableFactory implements DynamicTableSinkFactory {
  public static final String IDENTIFIER = "kartothek";

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of(KartothekSinkOptions.STORE, KartothekSinkOptions.DATASET);
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    Set<ConfigOption<?>> optional = new LinkedHashSet<>(KartothekSinkOptions.all());
    optional.removeAll(requiredOptions());
    return optional;
  }

  @Override
  public DynamicTableSink createDynamicTableSink(Context context) {
    FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
    helper.validateExcept(KartothekSinkOptions.STORE_OPTION_PREFIX);
    ResolvedCatalogTable table = context.getCatalogTable();
    Map<String, String> options = table.getOptions();
    String dataset = helper.getOptions().get(KartothekSinkOptions.DATASET);
    String name = context.getObjectIdentifier().asSummaryString();
    if (helper.getOptions().get(KartothekSinkOptions.VALIDATION_POLICY) == ValidationPolicy.DEAD_LETTER) {
      throw new KtkValidationException("Cannot create the sink of table " + name + " (dataset '" + dataset + "'): the "
          + "validation policy DEAD_LETTER needs the DataStream API (KartothekSink.addTo), since SQL has no side "
          + "output for rejected records");
    }
    RowType rowType = (RowType) context.getPhysicalRowDataType().getLogicalType();
    KartothekSinkBuilder builder = KartothekSink.forRowData(rowType).options(options);
    List<String> partitionKeys = table.getPartitionKeys();
    List<String> optionKeys = helper.getOptions().get(KartothekSinkOptions.PARTITION_COLUMNS);
    if (!partitionKeys.isEmpty()) {
      if (!optionKeys.isEmpty() && !optionKeys.equals(partitionKeys)) {
        throw new KtkValidationException("Cannot create the sink of table " + name + " (dataset '" + dataset
            + "'): PARTITIONED BY " + partitionKeys + " and '" + KartothekSinkOptions.PARTITION_COLUMNS.key() + "' = "
            + optionKeys + " disagree");
      }
      builder.partitionBy(partitionKeys);
    }
    return new KartothekDynamicTableSink(builder.build(), name);
  }
}
