package io.ktk.flink.state.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.state.CorruptDatasetException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The document tree shared by the JSON and the msgpack form: field names, field order and the
 * checks on reading, as plateau's {@code DatasetMetadataBuilder.to_dict} and
 * {@code DatasetMetadata.load_from_dict} have them.
 */
final class DatasetMetadataTree {
  static final String VERSION = "dataset_metadata_version";
  static final String UUID = "dataset_uuid";
  static final String INDICES = "indices";
  static final String METADATA = "metadata";
  static final String PARTITIONS = "partitions";
  static final String FILES = "files";
  static final String PARTITION_KEYS = "partition_keys";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private DatasetMetadataTree() {}

  /** Plateau's field order: version, uuid, indices and metadata when not empty, partitions, partition keys. */
  static ObjectNode toTree(DatasetMetadata dataset) {
    ObjectNode root = NODES.objectNode();
    root.put(VERSION, dataset.metadataVersion());
    root.put(UUID, dataset.uuid());
    if (!dataset.indices().isEmpty()) {
      ObjectNode indices = root.putObject(INDICES);
      dataset.indices().forEach((column, index) -> {
        if (index instanceof IndexReference.External external) {
          indices.put(column, external.key());
        } else {
          ObjectNode values = indices.putObject(column);
          ((IndexReference.Embedded) index).labelsByValue().forEach((value, labels) -> {
            ArrayNode array = values.putArray(value);
            labels.forEach(array::add);
          });
        }
      });
    }
    if (!dataset.metadata().isEmpty()) {
      ObjectNode metadata = root.putObject(METADATA);
      dataset.metadata().forEach(metadata::set);
    }
    ObjectNode partitions = root.putObject(PARTITIONS);
    dataset.partitions().forEach((label, files) -> {
      ObjectNode filesNode = partitions.putObject(label).putObject(FILES);
      files.forEach(filesNode::put);
    });
    ArrayNode keys = root.putArray(PARTITION_KEYS);
    dataset.partitionKeys().forEach(keys::add);
    return root;
  }

  static DatasetMetadata fromTree(JsonNode root, String location) {
    if (root == null || root.isMissingNode()) {
      throw corrupt(location, "the document is empty");
    }
    if (!root.isObject()) {
      throw corrupt(location, "the document is " + describe(root) + ", expected an object");
    }
    JsonNode versionNode = required(root, VERSION, location);
    if (!versionNode.isIntegralNumber()) {
      throw wrongType(location, VERSION, versionNode, "an integer");
    }
    if (!versionNode.canConvertToInt() || versionNode.intValue() != DatasetMetadata.METADATA_VERSION) {
      throw corrupt(location, VERSION + " " + versionNode.asText() + " is not supported (supported: "
          + DatasetMetadata.METADATA_VERSION + ")");
    }
    String uuid = text(required(root, UUID, location), UUID, location);
    if (!DatasetKeys.isValidUuid(uuid)) {
      throw corrupt(location, UUID + " '" + uuid + "' is not a valid uuid (plateau allows [a-zA-Z0-9+-_])");
    }

    JsonNode partitionsNode = root.get(PARTITIONS);
    if (partitionsNode == null) {
      throw corrupt(location, "field " + PARTITIONS + " is missing (datasets without explicit partitions are not"
          + " supported)");
    }
    NavigableMap<String, Map<String, String>> partitions = partitions(partitionsNode, location);

    List<String> partitionKeys;
    JsonNode keysNode = root.get(PARTITION_KEYS);
    if (keysNode == null) {
      partitionKeys = keysFromFirstFile(partitionsNode);
    } else if (keysNode.isNull()) {
      partitionKeys = List.of();
    } else {
      partitionKeys = stringList(keysNode, PARTITION_KEYS, location);
    }
    checkLabels(partitions, partitionKeys, location);

    NavigableMap<String, IndexReference> indices = new TreeMap<>();
    JsonNode indicesNode = root.get(INDICES);
    if (indicesNode != null) {
      if (!indicesNode.isObject()) {
        throw wrongType(location, INDICES, indicesNode, "an object");
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = indicesNode.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        indices.put(e.getKey(), index(e.getKey(), e.getValue(), location));
      }
    }

    NavigableMap<String, JsonNode> metadata = new TreeMap<>();
    JsonNode metadataNode = root.get(METADATA);
    if (metadataNode != null) {
      if (!metadataNode.isObject()) {
        throw wrongType(location, METADATA, metadataNode, "an object");
      }
      metadataNode.fields().forEachRemaining(e -> metadata.put(e.getKey(), e.getValue()));
    }
    try {
      return new DatasetMetadata(uuid, DatasetMetadata.METADATA_VERSION, partitionKeys, partitions, indices, metadata);
    } catch (IllegalArgumentException e) {
      throw corrupt(location, e.getMessage());
    }
  }

  private static NavigableMap<String, Map<String, String>> partitions(JsonNode node, String location) {
    if (!node.isObject()) {
      throw wrongType(location, PARTITIONS, node, "an object");
    }
    NavigableMap<String, Map<String, String>> partitions = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      String label = e.getKey();
      String field = PARTITIONS + "." + label;
      JsonNode partition = e.getValue();
      if (partition.isTextual()) {
        throw corrupt(location, "field " + field + " is a string: plateau's multi-file metadata is not supported");
      }
      if (!partition.isObject()) {
        throw wrongType(location, field, partition, "an object");
      }
      Map<String, String> files = new TreeMap<>();
      JsonNode filesNode = partition.get(FILES);
      if (filesNode != null) {
        if (!filesNode.isObject()) {
          throw wrongType(location, field + "." + FILES, filesNode, "an object");
        }
        for (Iterator<Map.Entry<String, JsonNode>> f = filesNode.fields(); f.hasNext(); ) {
          Map.Entry<String, JsonNode> file = f.next();
          files.put(file.getKey(), text(file.getValue(), field + "." + FILES + "." + file.getKey(), location));
        }
      }
      if (files.size() > 1) {
        throw corrupt(location, "partition " + label + " has tables " + files.keySet()
            + ", plateau 4 datasets have one table");
      }
      partitions.put(label, files);
    }
    return partitions;
  }

  /** plateau derives missing partition keys from the first partition's file key {@code uuid/table/p=1/x.parquet}. */
  private static List<String> keysFromFirstFile(JsonNode partitionsNode) {
    Iterator<JsonNode> it = partitionsNode.elements();
    if (!it.hasNext()) {
      return List.of();
    }
    JsonNode files = it.next().get(FILES);
    if (files == null || !files.elements().hasNext()) {
      return List.of();
    }
    String[] components = files.elements().next().asText().split("/", -1);
    List<String> keys = new ArrayList<>();
    for (int i = 2; i < components.length - 1; i++) {
      String[] pair = components[i].split("=", -1);
      if (pair.length == 2) {
        try {
          keys.add(PercentEncoding.unquote(pair[0]));
        } catch (IllegalArgumentException e) {
          keys.add(pair[0]);
        }
      }
    }
    return keys;
  }

  /** Every label must have the dataset's partition keys, in order: {@code k1=v1/k2=v2/<file id>}. */
  private static void checkLabels(
      NavigableMap<String, Map<String, String>> partitions, List<String> partitionKeys, String location) {
    List<String> encodedKeys = new ArrayList<>();
    for (String key : partitionKeys) {
      try {
        encodedKeys.add(PercentEncoding.quote(key));
      } catch (IllegalArgumentException e) {
        throw corrupt(location, "partition key '" + key + "' cannot be encoded: " + e.getMessage());
      }
    }
    for (String label : partitions.keySet()) {
      String[] segments = label.split("/", -1);
      boolean ok = segments.length == encodedKeys.size() + 1 && !segments[segments.length - 1].isEmpty();
      for (int i = 0; ok && i < encodedKeys.size(); i++) {
        ok = segments[i].startsWith(encodedKeys.get(i) + "=");
      }
      if (!ok) {
        throw corrupt(location, "partition label " + label + " does not have the partition keys " + partitionKeys
            + " in this order followed by a file id");
      }
    }
  }

  private static IndexReference index(String column, JsonNode node, String location) {
    String field = INDICES + "." + column;
    if (node.isTextual()) {
      if (node.asText().isEmpty()) {
        throw corrupt(location, "field " + field + " is an empty string, expected an index file key");
      }
      return new IndexReference.External(node.asText());
    }
    if (!node.isObject()) {
      throw wrongType(location, field, node, "a string (index file key) or an object (embedded index)");
    }
    NavigableMap<String, List<String>> labelsByValue = new TreeMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      labelsByValue.put(e.getKey(), stringList(e.getValue(), field + "." + e.getKey(), location));
    }
    return new IndexReference.Embedded(labelsByValue);
  }

  private static List<String> stringList(JsonNode node, String field, String location) {
    if (!node.isArray()) {
      throw wrongType(location, field, node, "a list of strings");
    }
    List<String> values = new ArrayList<>(node.size());
    for (JsonNode element : node) {
      if (!element.isTextual()) {
        throw wrongType(location, field, node, "a list of strings");
      }
      values.add(element.asText());
    }
    return values;
  }

  private static JsonNode required(JsonNode root, String field, String location) {
    JsonNode node = root.get(field);
    if (node == null) {
      throw corrupt(location, "required field " + field + " is missing");
    }
    return node;
  }

  private static String text(JsonNode node, String field, String location) {
    if (!node.isTextual()) {
      throw wrongType(location, field, node, "a string");
    }
    return node.asText();
  }

  private static String describe(JsonNode node) {
    JsonNodeType type = node.getNodeType();
    switch (type) {
      case NULL:
        return "null";
      case ARRAY:
        return "a list";
      case OBJECT:
        return "an object";
      case BINARY:
        return "binary";
      default:
        return "a " + type.name().toLowerCase(Locale.ROOT) + " (" + abbreviate(node.toString()) + ")";
    }
  }

  private static String abbreviate(String s) {
    return s.length() > 60 ? s.substring(0, 60) + "..." : s;
  }

  private static CorruptDatasetException wrongType(String location, String field, JsonNode node, String expected) {
    return corrupt(location, "field " + field + " is " + describe(node) + ", expected " + expected);
  }

  static CorruptDatasetException corrupt(String location, String reason) {
    return new CorruptDatasetException("Cannot read dataset metadata " + location + ": " + reason);
  }

  static CorruptDatasetException corrupt(String location, String reason, Throwable cause) {
    return new CorruptDatasetException("Cannot read dataset metadata " + location + ": " + reason, cause);
  }
}
