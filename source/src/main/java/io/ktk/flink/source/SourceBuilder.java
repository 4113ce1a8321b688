package io.ktk.flink.source;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * What the builders of {@link KartothekSource} and {@link KartothekDatasetSource} share: the store,
 * its options, the target's name and the query.
 *
 * @param <B> the concrete builder, which every method returns
 * @param <Q> the query type
 */
abstract class SourceBuilder<B extends SourceBuilder<B, Q>, Q> {
  final String storeUrl;
  final String name;
  Map<String, String> storeOptions = Map.of();
  Q query;

  /**
   * @param what what {@code name} names, for messages ({@code cube}, {@code uuid})
   * @param query the default query: all rows and columns
   */
  SourceBuilder(String storeUrl, String name, String what, Q query) {
    this.storeUrl = requireNonNull(storeUrl, "storeUrl is null");
    this.name = requireNonNull(name, what + " is null");
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
}
