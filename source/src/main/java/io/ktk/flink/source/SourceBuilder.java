package io.ktk.flink.source;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Map;

/**
 * What the builders of {@link KartothekSource} and {@link KartothekDatasetSource} share: the store,
 * its options, the target's name, the query, and whether the read goes on with later commits.
 *
 * @param <B> the concrete builder, which every method returns
 * @param <Q> the query type
 */
abstract class SourceBuilder<B extends SourceBuilder<B, Q>, Q> {
  final String storeUrl;
  final String name;
  /** What {@link #name} names, for messages: {@code cube} or {@code dataset}. */
  final String what;
  Map<String, String> storeOptions = Map.of();
  Q query;
  boolean continuous = KartothekSourceOptions.CONTINUOUS.defaultValue();
  Duration discoveryInterval = KartothekSourceOptions.DISCOVERY_INTERVAL.defaultValue();

  /**
   * @param what what {@code name} names, for messages ({@code cube}, {@code dataset})
   * @param query the default query: all rows and columns
   */
  SourceBuilder(String storeUrl, String name, String what, Q query) {
    this.storeUrl = requireNonNull(storeUrl, "storeUrl is null");
    this.name = requireNonNull(name, what + " is null");
    this.what = what;
    this.query = query;
  }

  abstract B self();

  /** Options of the store (S3 endpoint, region, credentials, ...; see {@code StoreOptions}). */
  public B storeOptions(Map<String, String> options) {
    this.storeOptions = Map.copyOf(options);
    return self();
  }

  /** The query; all rows and columns unless set. */
  public B query(Q query) {
    this.query = requireNonNull(query, "query is null");
    return self();
  }

  /**
   * See {@link KartothekSourceOptions#CONTINUOUS}: after the pinned versions, serve once the rows
   * that later commits add (append-only). A dataset with a primary key is read so only as an upsert
   * changelog ({@link KartothekDatasetSource.Builder#changelog}), else refused at build: its later
   * commits update and delete rows, which an append-only stream cannot retract.
   */
  public B continuous(boolean continuous) {
    this.continuous = continuous;
    return self();
  }

  /** See {@link KartothekSourceOptions#DISCOVERY_INTERVAL}. */
  public B discoveryInterval(Duration interval) {
    requireNonNull(interval, "interval is null");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("Cannot poll " + what + " '" + name + "' every " + interval
          + ": the discovery interval must be positive");
    }
    this.discoveryInterval = interval;
    return self();
  }
}
