package io.ktk.flink.source.query;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where a cube query runs and what it asks, as a Flink source ships it to its enumerator and
 * readers (Java-serialized with the source).
 *
 * @param storeUrl {@code file:///dir} or {@code s3://bucket/prefix}
 * @param storeOptions options of {@link ObjectStores#open(String, Map)} (endpoint, credentials, ...)
 * @param cube the cube's name
 * @param query the query
 */
public record QuerySettings(String storeUrl, Map<String, String> storeOptions, String cube, CubeQuery query)
    implements Serializable {
  private static final long serialVersionUID = 1L;

  public QuerySettings {
    requireNonNull(storeUrl, "storeUrl is null");
    storeOptions = new TreeMap<>(storeOptions);
    requireNonNull(cube, "cube is null");
    requireNonNull(query, "query is null");
  }

  public ObjectStore openStore() {
    return ObjectStores.open(storeUrl, storeOptions);
  }

  @Override
  public String toString() {
    // the options may hold credentials
    return "QuerySettings{" + storeUrl + ", cube=" + cube + ", " + query + "}";
  }
}
