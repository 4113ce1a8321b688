package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The plateau view of one dataset version: what {@code <uuid>.by-dataset-metadata.json} holds.
 *
 * <pre>{@code
 * {"dataset_metadata_version":4,"dataset_uuid":"cube++seed",
 *  "indices":{"x":"cube++seed/indices/x/2020-01-02T03%3A04%3A05.123456.by-dataset-index.parquet"},
 *  "metadata":{"creation_time":"2020-01-02T03:04:05.123456","ktk_cube_is_seed":true},
 *  "partitions":{"p=1/0f5e...06":{"files":{"table":"cube++seed/table/p=1/0f5e...06.parquet"}}},
 *  "partition_keys":["p"]}
 * }</pre>
 *
 * <p>Read and written by {@link DatasetMetadataJson} and {@link DatasetMetadataMsgpack}. Collections
 * are sorted (partitions by label, indices by column, metadata by key) so that writing is deterministic.
 * Metadata values are arbitrary JSON; the nodes are copied on construction (numbers in one canonical node
 * type each, so that equal documents compare equal) and must not be mutated.
 *
 * @param uuid dataset uuid, {@code [a-zA-Z0-9+\-_]+}
 * @param metadataVersion {@code dataset_metadata_version}; only 4 exists
 * @param partitionKeys partition columns, in label order
 * @param partitions label -> (table name -> file key); plateau 4 datasets have at most one table
 * @param indices column -> index reference
 * @param metadata user and cube key/values, e.g. {@code creation_time}, {@code ktk_cube_is_seed}
 */
public record DatasetMetadata(
    String uuid,
    int metadataVersion,
    List<String> partitionKeys,
    NavigableMap<String, Map<String, String>> partitions,
    NavigableMap<String, IndexReference> indices,
    NavigableMap<String, JsonNode> metadata) {

  /** The only {@code dataset_metadata_version} of plateau 4 and Kartothek 5. */
  public static final int METADATA_VERSION = 4;

  public DatasetMetadata {
    requireNonNull(uuid, "uuid is null");
    if (!DatasetKeys.isValidUuid(uuid)) {
      throw new IllegalArgumentException("Invalid dataset uuid '" + uuid + "': plateau allows only [a-zA-Z0-9+-_]");
    }
    if (metadataVersion != METADATA_VERSION) {
      throw new IllegalArgumentException("dataset_metadata_version " + metadataVersion + " is not supported");
    }
    partitionKeys = List.copyOf(requireNonNull(partitionKeys, "partitionKeys is null"));
    if (new HashSet<>(partitionKeys).size() != partitionKeys.size()) {
      throw new IllegalArgumentException("Duplicate partition keys: " + partitionKeys);
    }
    requireNonNull(partitions, "partitions is null");
    TreeMap<String, Map<String, String>> partitionsCopy = new TreeMap<>();
    for (Map.Entry<String, Map<String, String>> e : partitions.entrySet()) {
      Map<String, String> files = requireNonNull(e.getValue(), "files of partition " + e.getKey() + " is null");
      if (files.size() > 1) {
        throw new IllegalArgumentException("Partition " + e.getKey() + " has tables " + new TreeMap<>(files).keySet()
            + ": plateau 4 datasets have one table");
      }
      partitionsCopy.put(requireNonNull(e.getKey(), "label is null"), Collections.unmodifiableMap(new TreeMap<>(files)));
    }
    partitions = Collections.unmodifiableNavigableMap(partitionsCopy);
    indices = Collections.unmodifiableNavigableMap(new TreeMap<>(requireNonNull(indices, "indices is null")));
    TreeMap<String, JsonNode> metadataCopy = new TreeMap<>();
    requireNonNull(metadata, "metadata is null").forEach((k, v) -> metadataCopy.put(k, canonical(v)));
    metadata = Collections.unmodifiableNavigableMap(metadataCopy);
  }

  /**
   * A dataset of the single table {@value DatasetKeys#TABLE}.
   *
   * @param fileKeys label -> data file key
   * @param indexKeys column -> index file key
   */
  public static DatasetMetadata of(
      String uuid,
      List<String> partitionKeys,
      Map<String, String> fileKeys,
      Map<String, String> indexKeys,
      Map<String, JsonNode> metadata) {
    NavigableMap<String, Map<String, String>> partitions = new TreeMap<>();
    fileKeys.forEach((label, key) -> partitions.put(label, Map.of(DatasetKeys.TABLE, key)));
    NavigableMap<String, IndexReference> indices = new TreeMap<>();
    indexKeys.forEach((column, key) -> indices.put(column, new IndexReference.External(key)));
    return new DatasetMetadata(uuid, METADATA_VERSION, partitionKeys, partitions, indices, new TreeMap<>(metadata));
  }

  /** Label -> the file key of its single table (partitions without files are left out). */
  public NavigableMap<String, String> fileKeys() {
    TreeMap<String, String> keys = new TreeMap<>();
    partitions.forEach((label, files) -> files.values().stream().findFirst().ifPresent(k -> keys.put(label, k)));
    return Collections.unmodifiableNavigableMap(keys);
  }

  /** Column -> key of the index file, for the indices stored in their own files. */
  public NavigableMap<String, String> externalIndexKeys() {
    TreeMap<String, String> keys = new TreeMap<>();
    indices.forEach((column, index) -> {
      if (index instanceof IndexReference.External external) {
        keys.put(column, external.key());
      }
    });
    return Collections.unmodifiableNavigableMap(keys);
  }

  /**
   * Loads the published metadata of a dataset as plateau does: the JSON file, else the msgpack one.
   *
   * @return empty when neither exists
   * @throws io.ktk.flink.state.CorruptDatasetException when the file cannot be understood
   */
  public static Optional<DatasetMetadata> load(ObjectStore store, String uuid) throws IOException {
    requireNonNull(store, "store is null");
    String jsonKey = DatasetKeys.metadataJsonKey(uuid);
    try {
      return Optional.of(DatasetMetadataJson.read(store.get(jsonKey), location(store, jsonKey)));
    } catch (NoSuchObjectException e) {
      String msgpackKey = DatasetKeys.metadataMsgpackKey(uuid);
      try {
        return Optional.of(DatasetMetadataMsgpack.read(store.get(msgpackKey), location(store, msgpackKey)));
      } catch (NoSuchObjectException e2) {
        return Optional.empty();
      }
    }
  }

  /**
   * A deep copy in which equal numbers have equal node types (int, long, big integer, double), so that
   * metadata read from JSON and from msgpack, or built in code, compare equal.
   */
  private static JsonNode canonical(JsonNode node) {
    requireNonNull(node, "metadata value is null (use a JSON null node)");
    if (node.isObject()) {
      ObjectNode copy = JsonNodeFactory.instance.objectNode();
      node.fields().forEachRemaining(e -> copy.set(e.getKey(), canonical(e.getValue())));
      return copy;
    }
    if (node.isArray()) {
      ArrayNode copy = JsonNodeFactory.instance.arrayNode();
      node.forEach(element -> copy.add(canonical(element)));
      return copy;
    }
    if (node.isIntegralNumber()) {
      if (node.canConvertToInt()) {
        return IntNode.valueOf(node.intValue());
      }
      return node.canConvertToLong() ? LongNode.valueOf(node.longValue()) : BigIntegerNode.valueOf(node.bigIntegerValue());
    }
    if (node.isNumber()) {
      return DoubleNode.valueOf(node.doubleValue());
    }
    return node.deepCopy();
  }

  static String location(ObjectStore store, String key) {
    String url = store.url();
    return url.endsWith("/") ? url + key : url + "/" + key;
  }
}
