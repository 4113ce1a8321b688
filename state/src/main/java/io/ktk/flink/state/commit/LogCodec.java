package io.ktk.flink.state.commit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.luben.zstd.Zstd;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.metadata.IndexValue;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * JSON forms of {@link LogEntry} and of state snapshots, as {@code docs/commit-log.md} defines
 * them. Readers refuse what they do not understand with {@link CorruptDatasetException} naming the
 * object.
 */
final class LogCodec {
  static final String ENTRY_FORMAT = "ktk-flink-log";
  static final int FORMAT_VERSION = 1;

  private static final ObjectMapper JSON = new ObjectMapper();

  private LogCodec() {}

  // ---------------------------------------------------------------- entries

  static byte[] writeEntry(LogEntry entry, Schema schemaForIndexValues) {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", ENTRY_FORMAT);
    root.put("format_version", FORMAT_VERSION);
    root.put("version", entry.version());
    root.put("timestamp", entry.timestamp().toString());
    if (entry.writerId() != null) {
      root.put("writer_id", entry.writerId());
    }
    entry.checkpointId().ifPresent(id -> root.put("checkpoint_id", id));
    if (entry.cubeTransaction() != null) {
      root.put("cube_transaction", entry.cubeTransaction());
    }
    root.put("operation", entry.operation().jsonName());
    if (!entry.partitionKeys().isEmpty() || entry.operation() == LogOperation.CREATE
        || entry.operation() == LogOperation.ADOPT) {
      stringArray(root.putArray("partition_keys"), entry.partitionKeys());
    }
    if (!entry.indexColumns().isEmpty()) {
      stringArray(root.putArray("index_columns"), entry.indexColumns());
    }
    if (entry.schema() != null) {
      root.set("schema", schemaJson(entry.schema()));
    }
    writeFiles(root, entry.added(), "add");
    if (!entry.sequences().isEmpty()) {
      for (JsonNode file : root.get("add")) {
        ((ObjectNode) file).put("seq", entry.sequences().get(file.get("label").asText()));
      }
    }
    if (entry.retainFrom() >= 0) {
      root.put("retain_from", entry.retainFrom());
    }
    if (!entry.removed().isEmpty()) {
      stringArray(root.putArray("remove"), entry.removed());
    }
    if (!entry.index().isEmpty()) {
      root.set("index", indicesJson(entry.index(), schemaForIndexValues));
    }
    if (!entry.metadata().isEmpty()) {
      ObjectNode metadata = root.putObject("metadata");
      new java.util.TreeMap<>(entry.metadata()).forEach(metadata::set);
    }
    return bytes(root);
  }

  /**
   * Reads an entry. {@code schemaBefore} is the committed schema before this entry (null for
   * version 0); index values are typed by the entry's own schema when it carries one.
   */
  static LogEntry readEntry(byte[] data, String location, Schema schemaBefore) {
    JsonNode root = parse(data, location);
    checkFormat(root, ENTRY_FORMAT, location);
    long version = requiredLong(root, "version", location);
    LogOperation operation = LogOperation.fromJsonName(requiredText(root, "operation", location));
    if (operation == null) {
      throw corrupt(location, "unknown operation '" + root.get("operation").asText() + "'");
    }
    Schema schema = root.has("schema") ? readSchema(root.get("schema"), location) : null;
    Schema indexSchema = schema != null ? schema : schemaBefore;
    String writerId = root.hasNonNull("writer_id") ? root.get("writer_id").asText() : null;
    OptionalLong checkpointId =
        root.hasNonNull("checkpoint_id")
            ? OptionalLong.of(requiredLong(root, "checkpoint_id", location))
            : OptionalLong.empty();
    Map<String, JsonNode> metadata = new LinkedHashMap<>();
    if (root.has("metadata")) {
      root.get("metadata").fields().forEachRemaining(e -> metadata.put(e.getKey(), e.getValue()));
    }
    Map<String, Long> sequences = new HashMap<>();
    if (root.has("add")) {
      for (JsonNode file : root.get("add")) {
        if (file.has("seq")) {
          sequences.put(file.path("label").asText(), file.get("seq").asLong(-1));
        }
      }
    }
    long retainFrom = root.has("retain_from") ? requiredLong(root, "retain_from", location) : -1;
    try {
      return new LogEntry(
          version,
          timestamp(root, location),
          writerId,
          checkpointId,
          operation,
          strings(root.get("partition_keys"), location),
          strings(root.get("index_columns"), location),
          schema,
          readFiles(root, "add", location),
          strings(root.get("remove"), location),
          readIndices(root.get("index"), indexSchema, location),
          metadata,
          root.hasNonNull("cube_transaction") ? root.get("cube_transaction").asText() : null,
          sequences,
          retainFrom);
    } catch (IllegalArgumentException e) {
      throw corrupt(location, e.getMessage());
    }
  }

  /** The fields of an entry that say who wrote it, read without decoding the rest. */
  record Header(String writerId, OptionalLong checkpointId, String cubeTransaction) {}

  /**
   * Writer id, checkpoint id and {@code cube_transaction} of an entry: a cube reader looks only at
   * these fields of the entries after the versions the cube log records.
   */
  static Header readHeader(byte[] data, String location) {
    JsonNode root = parse(data, location);
    checkFormat(root, ENTRY_FORMAT, location);
    return new Header(
        root.hasNonNull("writer_id") ? root.get("writer_id").asText() : null,
        root.hasNonNull("checkpoint_id") ? OptionalLong.of(root.get("checkpoint_id").asLong()) : OptionalLong.empty(),
        root.hasNonNull("cube_transaction") ? root.get("cube_transaction").asText() : null);
  }

  // ---------------------------------------------------------------- parts

  private static void writeFiles(ObjectNode root, Iterable<DataFile> files, String field) {
    Map<Schema, Integer> schemaIds = new HashMap<>();
    ArrayNode schemas = JSON.createArrayNode();
    ArrayNode array = JSON.createArrayNode();
    for (DataFile file : files) {
      ObjectNode node = array.addObject();
      node.put("label", file.label());
      node.put("rows", file.rows());
      node.put("bytes", file.bytes());
      if (file.physicalSchema() != null) {
        Integer id = schemaIds.get(file.physicalSchema());
        if (id == null) {
          id = schemas.size();
          schemaIds.put(file.physicalSchema(), id);
          schemas.add(schemaJson(file.physicalSchema()));
        }
        node.put("schema", id);
      }
    }
    if (!array.isEmpty()) {
      root.set("schemas", schemas);
      root.set(field, array);
    }
  }

  private static List<DataFile> readFiles(JsonNode root, String field, String location) {
    JsonNode array = root.get(field);
    if (array == null) {
      return List.of();
    }
    if (!array.isArray()) {
      throw corrupt(location, "'" + field + "' is not an array");
    }
    List<Schema> schemas = new ArrayList<>();
    JsonNode schemaNodes = root.get("schemas");
    if (schemaNodes != null) {
      for (JsonNode node : schemaNodes) {
        schemas.add(readSchema(node, location));
      }
    }
    List<DataFile> files = new ArrayList<>(array.size());
    for (JsonNode node : array) {
      Schema schema = null;
      if (node.hasNonNull("schema")) {
        int id = node.get("schema").asInt(-1);
        if (id < 0 || id >= schemas.size()) {
          throw corrupt(location, "file " + node.get("label") + " names schema " + node.get("schema")
              + " but the entry has " + schemas.size());
        }
        schema = schemas.get(id);
      }
      files.add(new DataFile(
          requiredText(node, "label", location),
          node.path("rows").asLong(-1),
          node.path("bytes").asLong(-1),
          schema));
    }
    return files;
  }

  private static ObjectNode indicesJson(Map<String, Map<IndexValue, List<String>>> indices, Schema schema) {
    ObjectNode node = JSON.createObjectNode();
    indices.forEach((column, values) -> {
      Field field = schema == null ? null : schema.findField(column);
      if (field == null && !values.isEmpty()) {
        throw new IllegalArgumentException("Cannot write the index of column '" + column
            + "': the column is not in the schema");
      }
      ArrayNode array = node.putArray(column);
      values.forEach((value, labels) -> {
        ArrayNode pair = array.addArray();
        pair.add(LogValues.toJson(field.getType(), value.value()));
        stringArray(pair.addArray(), labels);
      });
    });
    return node;
  }

  private static Map<String, Map<IndexValue, List<String>>> readIndices(JsonNode node, Schema schema, String location) {
    if (node == null) {
      return Map.of();
    }
    Map<String, Map<IndexValue, List<String>>> indices = new LinkedHashMap<>();
    node.fields().forEachRemaining(e -> {
      String column = e.getKey();
      Map<IndexValue, List<String>> values = new LinkedHashMap<>();
      if (!e.getValue().isEmpty()) {
        Field field = schema == null ? null : findField(schema, column);
        if (field == null) {
          throw corrupt(location, "index column '" + column + "' is not in the dataset's schema");
        }
        for (JsonNode pair : e.getValue()) {
          if (!pair.isArray() || pair.size() != 2) {
            throw corrupt(location, "index '" + column + "' holds " + pair + " instead of [value, [labels]]");
          }
          IndexValue value = IndexValue.of(LogValues.fromJson(field.getType(), pair.get(0), location));
          values.put(value, strings(pair.get(1), location));
        }
      }
      indices.put(column, values);
    });
    return indices;
  }

  private static Field findField(Schema schema, String name) {
    for (Field field : schema.getFields()) {
      if (field.getName().equals(name)) {
        return field;
      }
    }
    return null;
  }

  private static JsonNode schemaJson(Schema schema) {
    try {
      return JSON.readTree(schema.toJson());
    } catch (IOException e) {
      throw new IllegalStateException("Cannot convert schema to JSON: " + schema, e);
    }
  }

  /**
   * Schemas parsed lately, by their JSON: the entries of a log mostly repeat one schema, and Arrow's
   * parser costs more than the rest of an entry. Schemas are immutable; the map is emptied when it
   * grows past a few dozen.
   */
  private static final Map<String, Schema> PARSED_SCHEMAS = new java.util.concurrent.ConcurrentHashMap<>();

  private static Schema readSchema(JsonNode node, String location) {
    String json = node.toString();
    Schema parsed = PARSED_SCHEMAS.get(json);
    if (parsed != null) {
      return parsed;
    }
    try {
      parsed = Schema.fromJSON(json);
    } catch (IOException | RuntimeException e) {
      throw new CorruptDatasetException("Cannot read " + location + ": invalid schema " + node, e);
    }
    if (PARSED_SCHEMAS.size() >= 64) {
      PARSED_SCHEMAS.clear();
    }
    PARSED_SCHEMAS.put(json, parsed);
    return parsed;
  }

  private static void stringArray(ArrayNode array, Iterable<String> values) {
    for (String value : values) {
      array.add(value);
    }
  }

  private static List<String> strings(JsonNode node, String location) {
    if (node == null || node.isNull()) {
      return List.of();
    }
    if (!node.isArray()) {
      throw corrupt(location, "expected a list of strings, found " + node);
    }
    List<String> values = new ArrayList<>(node.size());
    for (JsonNode item : node) {
      if (!item.isTextual()) {
        throw corrupt(location, "expected a string, found " + item);
      }
      values.add(item.textValue());
    }
    return values;
  }

  private static Instant timestamp(JsonNode root, String location) {
    try {
      return Instant.parse(requiredText(root, "timestamp", location));
    } catch (DateTimeParseException e) {
      throw corrupt(location, "timestamp " + root.get("timestamp") + " is not ISO-8601");
    }
  }

  private static void checkFormat(JsonNode root, String format, String location) {
    if (!root.isObject() || !format.equals(root.path("format").asText())) {
      throw corrupt(location, "not a " + format + " document");
    }
    int version = root.path("format_version").asInt(-1);
    if (version != FORMAT_VERSION) {
      throw corrupt(location, "format_version " + root.get("format_version")
          + " is not supported (supported: " + FORMAT_VERSION + ")");
    }
  }

  private static long requiredLong(JsonNode root, String field, String location) {
    JsonNode node = root.get(field);
    if (node == null || !node.isIntegralNumber() || !node.canConvertToLong()) {
      throw corrupt(location, "'" + field + "' is missing or not an integer");
    }
    return node.longValue();
  }

  private static String requiredText(JsonNode root, String field, String location) {
    JsonNode node = root.get(field);
    if (node == null || !node.isTextual()) {
      throw corrupt(location, "'" + field + "' is missing or not a string");
    }
    return node.textValue();
  }

  private static JsonNode parse(byte[] data, String location) {
    try {
      JsonNode node = JSON.readTree(data);
      if (node == null || node.isMissingNode()) {
        throw corrupt(location, "the object is empty");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new CorruptDatasetException(
          "Cannot read " + location + ": not valid JSON (" + e.getOriginalMessage() + ")", e);
    } catch (IOException e) {
      throw new CorruptDatasetException("Cannot read " + location + ": " + e.getMessage(), e);
    }
  }

  private static byte[] bytes(JsonNode node) {
    try {
      return JSON.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot serialize JSON", e);
    }
  }

  private static CorruptDatasetException corrupt(String location, String reason) {
    return new CorruptDatasetException("Cannot read " + location + ": " + reason);
  }
}
