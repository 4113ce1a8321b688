package io.ktk.flink.source.dataset;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.annotation.Internal;

/**
 * Where a dataset source reads and what it asks, as the source ships it to its enumerator and
 * readers (Java-serialized with the source): the store, the dataset, the query, and the pinned
 * version's schema (as Arrow JSON) and partition columns, so that readers check the query without
 * reading the dataset's log again.
 *
 * @param storeUrl {@code file:///dir} or {@code s3://bucket/prefix}
 * @param storeOptions options of {@link ObjectStores#open(String, Map)}
 * @param dataset the dataset's uuid
 * @param version the pinned version
 * @param schemaJson the committed schema of that version, {@link Schema#toJson()}
 * @param partitionKeys the partition columns, in label order
 * @param query the query
 */
@Internal
public record DatasetSourceSettings(String storeUrl, Map<String, String> storeOptions, String dataset, long version,
    String schemaJson, List<String> partitionKeys, DatasetQuery query) implements Serializable {
  private static final long serialVersionUID = 1L;

  public DatasetSourceSettings {
    requireNonNull(storeUrl, "storeUrl is null");
    storeOptions = new TreeMap<>(storeOptions);
    requireNonNull(dataset, "dataset is null");
    requireNonNull(schemaJson, "schemaJson is null");
    partitionKeys = List.copyOf(partitionKeys);
    requireNonNull(query, "query is null");
  }

  public ObjectStore openStore() {
    return ObjectStores.open(storeUrl, storeOptions);
  }

  /** The query checked against the pinned schema. */
  public ResolvedDatasetQuery resolve() {
    Schema schema;
    try {
      schema = Schema.fromJSON(schemaJson);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read the schema of dataset '" + dataset + "': " + e.getMessage(), e);
    }
    List<Field> keys = partitionKeys.stream().map(schema::findField).toList();
    return ResolvedDatasetQuery.resolve(dataset, schema, keys, query);
  }

  @Override
  public String toString() {
    // the options may hold credentials
    return "DatasetSourceSettings{" + storeUrl + ", dataset=" + dataset + "@" + version + ", " + query + "}";
  }
}
