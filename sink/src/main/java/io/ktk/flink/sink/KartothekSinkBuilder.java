package io.ktk.flink.sink;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.ValidationException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
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
 *     .compression(Compression.ZSTD)       // default SNAPPY
 *     .memoryBudget(MemorySize.parse("256mb"))
 *     .validationPolicy(ValidationPolicy.DEAD_LETTER)
 *     .build();
 * DataStream<RejectedRecord> rejected = sink.addTo(records);
 * }</pre>
 */
@PublicEvolving
public final class KartothekSinkBuilder {
  private final RowType rowType;
  private ObjectStoreFactory store;
  private String dataset;
  private List<String> partitionColumns = List.of();
  private List<String> indexColumns = List.of();
  private Compression compression = KartothekSinkOptions.COMPRESSION.defaultValue();
  private MemorySize rowGroupSize = KartothekSinkOptions.ROW_GROUP_SIZE.defaultValue();
  private MemorySize memoryBudget = KartothekSinkOptions.MEMORY_BUDGET.defaultValue();
  private ValidationPolicy validationPolicy = KartothekSinkOptions.VALIDATION_POLICY.defaultValue();
  private WriteMode writeMode = KartothekSinkOptions.WRITE_MODE.defaultValue();
  private Duration verifyFilesOlderThan = KartothekSinkOptions.COMMIT_VERIFY_FILES_OLDER_THAN.defaultValue();
  private Duration publishMinInterval = KartothekSinkOptions.PUBLISH_MIN_INTERVAL.defaultValue();

  KartothekSinkBuilder(RowType rowType) {
    this.rowType = requireNonNull(rowType, "rowType is null");
  }

  /** The store root, {@code file:///absolute/dir} or {@code s3://bucket/prefix}, with default options. */
  public KartothekSinkBuilder store(String url) {
    return store(url, Map.of());
  }

  /** The store root and its options ({@link io.ktk.flink.state.store.StoreOptions}: endpoint, region, ...). */
  public KartothekSinkBuilder store(String url, Map<String, String> options) {
    this.store = ObjectStoreFactory.of(url, options);
    return this;
  }

  /** A store opened by a factory of one's own. */
  public KartothekSinkBuilder store(ObjectStoreFactory factory) {
    this.store = requireNonNull(factory, "factory is null");
    return this;
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

  public KartothekSinkBuilder compression(Compression compression) {
    this.compression = requireNonNull(compression, "compression is null");
    return this;
  }

  public KartothekSinkBuilder rowGroupSize(MemorySize size) {
    this.rowGroupSize = requireNonNull(size, "size is null");
    return this;
  }

  public KartothekSinkBuilder memoryBudget(MemorySize budget) {
    this.memoryBudget = requireNonNull(budget, "budget is null");
    return this;
  }

  public KartothekSinkBuilder validationPolicy(ValidationPolicy policy) {
    this.validationPolicy = requireNonNull(policy, "policy is null");
    return this;
  }

  public KartothekSinkBuilder writeMode(WriteMode mode) {
    this.writeMode = requireNonNull(mode, "mode is null");
    return this;
  }

  /**
   * The committer checks that the files of a checkpoint written longer ago than {@code age} still
   * exist before committing it (default 1 hour; see {@link
   * KartothekSinkOptions#COMMIT_VERIFY_FILES_OLDER_THAN}).
   */
  public KartothekSinkBuilder verifyFilesOlderThan(Duration age) {
    this.verifyFilesOlderThan = requireNonNull(age, "age is null");
    return this;
  }

  /**
   * The least time between two publications of the plateau view ({@link
   * KartothekSinkOptions#PUBLISH_MIN_INTERVAL}; default 0, after every commit).
   */
  public KartothekSinkBuilder publishMinInterval(Duration interval) {
    this.publishMinInterval = requireNonNull(interval, "interval is null");
    return this;
  }

  /**
   * Applies options given as text, as in a SQL {@code WITH} clause: the keys of {@link
   * KartothekSinkOptions}, and store options with the prefix {@value
   * KartothekSinkOptions#STORE_OPTION_PREFIX}. Options not given keep their current value.
   */
  public KartothekSinkBuilder options(Map<String, String> options) {
    Configuration config = Configuration.fromMap(options);
    Map<String, String> storeOptions = new HashMap<>();
    options.forEach((key, value) -> {
      if (key.startsWith(KartothekSinkOptions.STORE_OPTION_PREFIX)) {
        storeOptions.put(key.substring(KartothekSinkOptions.STORE_OPTION_PREFIX.length()), value);
      }
    });
    config.getOptional(KartothekSinkOptions.STORE).ifPresent(url -> store(url, storeOptions));
    config.getOptional(KartothekSinkOptions.DATASET).ifPresent(this::dataset);
    config.getOptional(KartothekSinkOptions.PARTITION_COLUMNS).ifPresent(this::partitionBy);
    config.getOptional(KartothekSinkOptions.INDEX_COLUMNS).ifPresent(this::indexBy);
    config.getOptional(KartothekSinkOptions.COMPRESSION).ifPresent(this::compression);
    config.getOptional(KartothekSinkOptions.ROW_GROUP_SIZE).ifPresent(this::rowGroupSize);
    config.getOptional(KartothekSinkOptions.MEMORY_BUDGET).ifPresent(this::memoryBudget);
    config.getOptional(KartothekSinkOptions.VALIDATION_POLICY).ifPresent(this::validationPolicy);
    config.getOptional(KartothekSinkOptions.WRITE_MODE).ifPresent(this::writeMode);
    config.getOptional(KartothekSinkOptions.COMMIT_VERIFY_FILES_OLDER_THAN).ifPresent(this::verifyFilesOlderThan);
    config.getOptional(KartothekSinkOptions.PUBLISH_MIN_INTERVAL).ifPresent(this::publishMinInterval);
    return this;
  }

  /**
   * Builds the sink, checking the configuration against the row type.
   *
   * @throws ValidationException naming what is missing or wrong
   */
  public KartothekSink build() {
    if (dataset == null) {
      throw new ValidationException("Cannot build the Kartothek sink: no dataset given; call dataset(uuid)");
    }
    if (store == null) {
      throw new ValidationException("Cannot build the sink of dataset '" + dataset + "': no store given; call "
          + "store(url)");
    }
    return new KartothekSink(new KartothekSinkConfig(store, dataset, rowType, partitionColumns, indexColumns,
        compression, rowGroupSize.getBytes(), memoryBudget.getBytes(), validationPolicy, writeMode, List.of(),
        verifyFilesOlderThan, publishMinInterval));
  }
}
