package io.ktk.flink.sink;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.sink.config.Compression;
import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.sink.config.KartothekSinkOptions;
import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.sink.writer.DatasetContract;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.config.OptionKeys;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.types.logical.RowType;

/**
 * Builds a {@link KartothekSink}. Store and dataset are required; everything else has the
 * default of {@link KartothekSinkOptions}:
 *
 * <pre>{@code
 * KartothekSink sink = KartothekSink.forRowData(rowType)
 *     .store("s3://bucket/datasets", Map.of("region", "eu-central-1"))
 *     .dataset("events")
 *     .partitionBy("day")
 *     .indexBy("customer")
 *     .primaryKey("id", "day")             // optional: a changelog upserted by key
 *     .compression(Compression.ZSTD)       // default SNAPPY
 *     .memoryBudget(MemorySize.parse("256mb"))
 *     .validationPolicy(ValidationPolicy.DEAD_LETTER)
 *     .build();
 * DataStream<RejectedRecord> rejected = sink.addTo(records);
 * }</pre>
 */
@PublicEvolving
public final class KartothekSinkBuilder extends SinkSettingsBuilder<KartothekSinkBuilder> {
  private final RowType rowType;
  private String dataset;
  private List<String> partitionColumns = List.of();
  private List<String> indexColumns = List.of();
  private List<String> primaryKey = List.of();

  KartothekSinkBuilder(RowType rowType) {
    this.rowType = requireNonNull(rowType, "rowType is null");
  }

  @Override
  KartothekSinkBuilder self() {
    return this;
  }

  @Override
  List<ConfigOption<?>> acceptedOptions() {
    List<ConfigOption<?>> options = new java.util.ArrayList<>(KartothekSinkOptions.all());
    options.addAll(io.ktk.flink.sink.maintenance.MaintenanceOptions.all());
    return options;
  }

  /** The uuid of the dataset; it is created by the first commit if it does not exist. */
  public KartothekSinkBuilder dataset(String uuid) {
    this.dataset = requireNonNull(uuid, "uuid is null");
    return this;
  }

  public KartothekSinkBuilder partitionBy(String... columns) {
    return partitionBy(List.of(columns));
  }

  /** The partition columns, in label order; none by default. */
  public KartothekSinkBuilder partitionBy(List<String> columns) {
    this.partitionColumns = List.copyOf(columns);
    return this;
  }

  public KartothekSinkBuilder indexBy(String... columns) {
    return indexBy(List.of(columns));
  }

  /** Secondary index columns; the dataset's own index columns are maintained in any case. */
  public KartothekSinkBuilder indexBy(List<String> columns) {
    this.indexColumns = List.copyOf(columns);
    return this;
  }

  public KartothekSinkBuilder primaryKey(String... columns) {
    return primaryKey(List.of(columns));
  }

  /**
   * The dataset's primary key ({@code docs/cdc.md}); it must contain every partition column. With
   * a key the sink takes a changelog: {@code +I} and {@code +U} rows upsert their key's row,
   * {@code -D} rows delete it, {@code -U} rows are ignored; a null key column makes a record bad.
   * The stream is keyed by the key in front of the writers (also behind {@code
   * stream.sinkTo(sink)}), so all changes of a key are written in their order.
   */
  public KartothekSinkBuilder primaryKey(List<String> columns) {
    this.primaryKey = List.copyOf(columns);
    return this;
  }

  /**
   * Applies options given as text, as in a SQL {@code WITH} clause: the keys of {@link
   * KartothekSinkOptions}, and store options with the prefix {@value
   * KartothekSinkOptions#STORE_OPTION_PREFIX}. Options not given keep their current value.
   */
  public KartothekSinkBuilder options(Map<String, String> options) {
    Configuration config = applySharedOptions(options);
    config.getOptional(KartothekSinkOptions.DATASET).ifPresent(this::dataset);
    config.getOptional(KartothekSinkOptions.PARTITION_COLUMNS).map(OptionKeys::names).ifPresent(this::partitionBy);
    config.getOptional(KartothekSinkOptions.INDEX_COLUMNS).map(OptionKeys::names).ifPresent(this::indexBy);
    config.getOptional(KartothekSinkOptions.PRIMARY_KEY).map(OptionKeys::names).ifPresent(this::primaryKey);
    return this;
  }

  /**
   * Builds the sink, checking the configuration against the row type and, where the store can be
   * read from here, against the committed dataset (partition columns, schema, index columns; see
   * {@link DatasetContract}). The writers check the dataset again when the job starts.
   *
   * @throws KtkValidationException naming what is missing or wrong
   */
  public KartothekSink build() {
    if (dataset == null) {
      throw new KtkValidationException("Cannot build the Kartothek sink: no dataset given; call dataset(uuid)");
    }
    if (store == null) {
      throw new KtkValidationException("Cannot build the sink of dataset '" + dataset + "': no store given; call "
          + "store(url)");
    }
    KartothekSinkConfig config = new KartothekSinkConfig(store, dataset, rowType, partitionColumns, indexColumns,
        compression, rowGroupSize.getBytes(), memoryBudget.getBytes(), validationPolicy, writeMode, List.of(),
        verifyFilesOlderThan, publishMinInterval, writerIdPrefix, primaryKey);
    StoreChecks.whereReadable(config.store(), "dataset '" + dataset + "'",
        store -> DatasetContract.check(config, new LogReader(store, dataset).latestOrPublished()));
    return new KartothekSink(config, maintenance());
  }
}
