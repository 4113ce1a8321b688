package io.ktk.flink.source.query;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a query runs and what it asks, as a Flink source ships it to its enumerator and readers
 * (Java-serialized with the source).
 *
 * @param storeUrl {@code file:///dir} or {@code s3://bucket/prefix}
 * @param storeOptions options of {@link ObjectStores#open(String, Map)} (endpoint, credentials, ...)
 * @param target the cube or plain dataset the query reads
 * @param query the query
 */
public record QuerySettings(String storeUrl, Map<String, String> storeOptions, QueryTarget target, CubeQuery query)
    implements Serializable {
  private static final long serialVersionUID = 2L;

  public QuerySettings {
    requireNonNull(storeUrl, "storeUrl is null");
    storeOptions = new TreeMap<>(storeOptions);
    requireNonNull(target, "target is null");
    requireNonNull(query, "query is null");
  }

  /** A query of cube {@code cube}. */
  public QuerySettings(String storeUrl, Map<String, String> storeOptions, String cube, CubeQuery query) {
    this(storeUrl, storeOptions, QueryTarget.cube(cube), query);
  }

  public ObjectStore openStore() {
    return ObjectStores.open(storeUrl, storeOptions);
  }

  @Override
  public String toString() {
    // the options may hold credentials
    return "QuerySettings{" + storeUrl + ", " + target.describe() + ", " + query + "}";
  }
}
