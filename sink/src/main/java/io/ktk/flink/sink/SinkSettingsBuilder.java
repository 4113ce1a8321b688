package io.ktk.flink.sink;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.sink.config.Compression;
import io.ktk.flink.sink.config.KartothekSinkOptions;
import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.sink.config.WriteMode;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.config.OptionKeys;
import io.ktk.flink.state.store.ObjectStores;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import io.ktk.flink.sink.maintenance.MaintenanceOptions;
import io.ktk.flink.sink.maintenance.MaintenanceSettings;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;

/**
 * What the dataset sink's and the cube sink's builders share: the store, and the write and commit
 * settings of {@link KartothekSinkOptions}, set one by one or as text options. Every setter returns
 * the concrete builder, so calls chain across both parts.
 *
 * @param <B> the concrete builder
 */
@PublicEvolving
public abstract class SinkSettingsBuilder<B extends SinkSettingsBuilder<B>> {
  ObjectStoreFactory store;
  Compression compression = KartothekSinkOptions.COMPRESSION.defaultValue();
  MemorySize rowGroupSize = KartothekSinkOptions.ROW_GROUP_SIZE.defaultValue();
  MemorySize memoryBudget = KartothekSinkOptions.MEMORY_BUDGET.defaultValue();
  ValidationPolicy validationPolicy = KartothekSinkOptions.VALIDATION_POLICY.defaultValue();
  WriteMode writeMode = KartothekSinkOptions.WRITE_MODE.defaultValue();
  Duration verifyFilesOlderThan = KartothekSinkOptions.COMMIT_VERIFY_FILES_OLDER_THAN.defaultValue();
  Duration publishMinInterval = KartothekSinkOptions.PUBLISH_MIN_INTERVAL.defaultValue();
  String writerIdPrefix = KartothekSinkOptions.WRITER_ID_PREFIX.defaultValue();
  /** The maintenance options given ({@link MaintenanceOptions}); defaults for the others. */
  final Configuration maintenanceOptions = new Configuration();

  SinkSettingsBuilder() {}

  /** This builder as its concrete type. */
  abstract B self();

  /** The options {@link #applySharedOptions} accepts besides store options: the concrete builder's. */
  abstract List<ConfigOption<?>> acceptedOptions();

  /** The store root, {@code file:///absolute/dir} or {@code s3://bucket/prefix}, with default options. */
  public B store(String url) {
    return store(url, Map.of());
  }

  /** The store root and its options ({@link io.ktk.flink.state.store.StoreOptions}: endpoint, region, ...). */
  public B store(String url, Map<String, String> options) {
    this.store = ObjectStoreFactory.of(url, options);
    return self();
  }

  /** A store opened by a factory of one's own. */
  public B store(ObjectStoreFactory factory) {
    this.store = requireNonNull(factory, "factory is null");
    return self();
  }

  /** Parquet compression: {@code SNAPPY} (default) or {@code ZSTD}. */
  public B compression(Compression compression) {
    this.compression = requireNonNull(compression, "compression is null");
    return self();
  }

  /** A row group is cut at this much buffered encoded data (default 128 MB). */
  public B rowGroupSize(MemorySize size) {
    this.rowGroupSize = requireNonNull(size, "size is null");
    return self();
  }

  /** The memory of the partition buffers of one writer subtask, all datasets together (default 128 MB). */
  public B memoryBudget(MemorySize budget) {
    this.memoryBudget = requireNonNull(budget, "budget is null");
    return self();
  }

  /** What a record that breaks a rule does: fail the job (default) or go to the dead-letter stream. */
  public B validationPolicy(ValidationPolicy policy) {
    this.validationPolicy = requireNonNull(policy, "policy is null");
    return self();
  }

  /** Append (default), or replace the partitions a checkpoint writes. */
  public B writeMode(WriteMode mode) {
    this.writeMode = requireNonNull(mode, "mode is null");
    return self();
  }

  /**
   * The committer checks that the files of a checkpoint written longer ago than {@code age} still
   * exist before committing it (default 1 hour; see {@link
   * KartothekSinkOptions#COMMIT_VERIFY_FILES_OLDER_THAN}).
   */
  public B verifyFilesOlderThan(Duration age) {
    this.verifyFilesOlderThan = requireNonNull(age, "age is null");
    return self();
  }

  /**
   * The least time between two publications of the plateau view ({@link
   * KartothekSinkOptions#PUBLISH_MIN_INTERVAL}; default 0, after every commit).
   */
  public B publishMinInterval(Duration interval) {
    this.publishMinInterval = requireNonNull(interval, "interval is null");
    return self();
  }

  /**
   * A prefix of the writer ids the sink generates ({@link KartothekSinkOptions#WRITER_ID_PREFIX}):
   * the log entries of this sink's commits can then be told from other writers'.
   */
  public B writerIdPrefix(String prefix) {
    this.writerIdPrefix = requireNonNull(prefix, "prefix is null");
    return self();
  }

  /**
   * Turns off the maintenance the sink runs while the job runs (compaction, expiry of old log
   * versions, garbage collection; {@link MaintenanceOptions}), e.g. when a separate maintenance job
   * or {@code ktk compact} / {@code expire} / {@code gc} keep the dataset healthy.
   */
  public B withoutMaintenance() {
    maintenanceOptions.set(MaintenanceOptions.ENABLED, false);
    return self();
  }

  /** The maintenance settings of the options given so far (checked). */
  MaintenanceSettings maintenance() {
    return MaintenanceSettings.of(maintenanceOptions);
  }

  /**
   * Applies the shared options given as text (as in a SQL {@code WITH} clause): {@code store} with
   * the store options under the prefix {@value KartothekSinkOptions#STORE_OPTION_PREFIX}, and the
   * write and commit settings. Options not given keep their current value.
   *
   * @return the options parsed, for the concrete builder's own keys
   * @throws io.ktk.flink.state.config.UnknownOptionException for a key no option of the builder has,
   *     naming the closest one
   */
  Configuration applySharedOptions(Map<String, String> options) {
    Configuration config = Configuration.fromMap(options);
    Map<String, String> storeOptions = new HashMap<>();
    options.forEach((key, value) -> {
      if (key.startsWith(KartothekSinkOptions.STORE_OPTION_PREFIX)) {
        storeOptions.put(key.substring(KartothekSinkOptions.STORE_OPTION_PREFIX.length()), value);
      }
    });
    String url = options.get(KartothekSinkOptions.STORE.key());
    Set<String> accepted = new TreeSet<>();
    acceptedOptions().forEach(option -> accepted.add(option.key()));
    if (url != null) {
      ObjectStores.optionKeys(url).forEach(key -> accepted.add(KartothekSinkOptions.STORE_OPTION_PREFIX + key));
    } else if (!storeOptions.isEmpty()) {
      throw new KtkValidationException("Cannot configure the Kartothek sink: store options " + new TreeSet<>(
          storeOptions.keySet()) + " are given without the option '" + KartothekSinkOptions.STORE.key() + "'");
    }
    OptionKeys.check("configure the Kartothek sink", options.keySet(), accepted);
    config.getOptional(KartothekSinkOptions.STORE).ifPresent(u -> store(u, storeOptions));
    config.getOptional(KartothekSinkOptions.COMPRESSION).ifPresent(this::compression);
    config.getOptional(KartothekSinkOptions.ROW_GROUP_SIZE).ifPresent(this::rowGroupSize);
    config.getOptional(KartothekSinkOptions.MEMORY_BUDGET).ifPresent(this::memoryBudget);
    config.getOptional(KartothekSinkOptions.VALIDATION_POLICY).ifPresent(this::validationPolicy);
    config.getOptional(KartothekSinkOptions.WRITE_MODE).ifPresent(this::writeMode);
    config.getOptional(KartothekSinkOptions.COMMIT_VERIFY_FILES_OLDER_THAN).ifPresent(this::verifyFilesOlderThan);
    config.getOptional(KartothekSinkOptions.PUBLISH_MIN_INTERVAL).ifPresent(this::publishMinInterval);
    config.getOptional(KartothekSinkOptions.WRITER_ID_PREFIX).ifPresent(this::writerIdPrefix);
    for (ConfigOption<?> option : MaintenanceOptions.all()) {
      if (options.containsKey(option.key())) {
        maintenanceOptions.setString(option.key(), options.get(option.key()));
      }
    }
    MaintenanceSettings.of(maintenanceOptions); // checks the values now, not in the task
    return config;
  }
}
