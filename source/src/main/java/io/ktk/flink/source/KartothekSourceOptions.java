package io.ktk.flink.source;

import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * Options of {@link KartothekSource} with their defaults (set through {@link
 * KartothekSource.Builder}; the keys name them in tables and docs).
 */
@PublicEvolving
public final class KartothekSourceOptions {
  private KartothekSourceOptions() {}

  public static final ConfigOption<Boolean> CONTINUOUS = ConfigOptions.key("continuous")
      .booleanType()
      .defaultValue(false)
      .withDescription("Whether the source keeps running after the pinned versions are read and serves what later"
          + " commits add to the seed (append-only; see docs/cube-query.md). Otherwise it is bounded.");

  public static final ConfigOption<Boolean> CHANGELOG = ConfigOptions.key("changelog")
      .booleanType()
      .defaultValue(false)
      .withDescription("Plain datasets with a primary key: the records are an upsert changelog keyed by the primary"
          + " key (Row kinds +I, +U, -D; see docs/cdc.md). The pinned version's rows come as +I; each later commit"
          + " gives per key it changed the key's newest row as +U, or a -D (only the key's columns set) when the key"
          + " is deleted or its row fails the conditions. Needed to read such a dataset continuously.");

  public static final ConfigOption<Duration> DISCOVERY_INTERVAL = ConfigOptions.key("discovery-interval")
      .durationType()
      .defaultValue(Duration.ofSeconds(10))
      .withDescription("How often a continuous source looks for later versions of the cube's datasets.");

  public static final ConfigOption<Integer> SPLIT_MAX_PARTITIONS = ConfigOptions.key("split.max-partitions")
      .intType()
      .defaultValue(16)
      .withDescription("A query group of more physical partitions than this is cut into several splits of"
          + " consecutive partitions, so that several readers share it; its rows keep their order within each split."
          + " Groups are also cut finer when there would be fewer splits than readers.");
}
