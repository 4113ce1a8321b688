package io.ktk.flink.state.commit;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.luben.zstd.ZstdInputStream;
import com.github.luben.zstd.ZstdOutputStream;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.metadata.IndexValue;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The snapshot of a {@link DatasetState}: zstd-compressed JSON ({@code docs/commit-log.md},
 * "State and snapshots"), written and read as a stream, so that a snapshot costs the memory of the
 * state it holds and of its compressed bytes, never a tree or an uncompressed copy of it.
 *
 * <p>Fields are written in the order a reader needs them: the schema before the index values it
 * types, the file schemas before the files that name them.
 */
final class SnapshotCodec {
  static final String FORMAT = "ktk-flink-snapshot";
  /**
   * 2: an index names a file of {@code "files"} by its position there, not by its label (an index
   * holds a label per file and value: in version 1 they were nine tenths of a snapshot's bytes).
   */
  static final int FORMAT_VERSION = 2;
  private static final int FIRST_READABLE_VERSION = 1;
  /**
   * Field names are not canonicalized: "added_in" and "removed" are keyed by file labels, hundreds
   * of thousands of names that each occur once, which interning would only slow down.
   */
  private static final JsonFactory FACTORY = JsonFactory.builder()
      .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
      .build();
  private static final ObjectMapper JSON = new ObjectMapper(FACTORY);
  private static final int ZSTD_LEVEL = 3;

  private SnapshotCodec() {}

  static byte[] write(DatasetState state) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream zstd = new ZstdOutputStream(bytes, ZSTD_LEVEL);
        JsonGenerator out = FACTORY.createGenerator(zstd)) {
      out.setCodec(JSON);
      writeState(out, state);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the snapshot of dataset '" + state.uuid() + "'", e);
    }
    return bytes.toByteArray();
  }

  private static void writeState(JsonGenerator out, DatasetState state) throws IOException {
    out.writeStartObject();
    out.writeStringField("format", FORMAT);
    out.writeNumberField("format_version", FORMAT_VERSION);
    out.writeStringField("uuid", state.uuid());
    out.writeNumberField("version", state.version());
    out.writeStringField("timestamp", state.lastModified().toString());
    out.writeNumberField("retained_from", state.retainedFrom());
    if (state.lastRewriteVersion() >= 0) {
      out.writeNumberField("last_rewrite_version", state.lastRewriteVersion());
      out.writeStringField("last_rewrite_time", state.lastRewriteTime().toString());
    }
    writeStrings(out, "partition_keys", state.partitionKeys());
    writeStrings(out, "index_columns", state.indexColumns());
    if (state.schema() != null) {
      out.writeFieldName("schema");
      out.writeRawValue(state.schema().toJson());
    }
    Map<Schema, Integer> schemaIds = new IdentityHashMap<>();
    Map<Schema, Integer> byValue = new HashMap<>();
    out.writeArrayFieldStart("schemas");
    for (DataFile file : state.files().values()) {
      Schema schema = file.physicalSchema();
      if (schema != null && !schemaIds.containsKey(schema)) {
        Integer id = byValue.get(schema);
        if (id == null) {
          id = byValue.size();
          byValue.put(schema, id);
          out.writeRawValue(schema.toJson());
        }
        schemaIds.put(schema, id);
      }
    }
    out.writeEndArray();
    Map<String, Integer> positions = new HashMap<>();
    out.writeArrayFieldStart("files");
    for (DataFile file : state.files().values()) {
      positions.put(file.label(), positions.size());
      out.writeStartObject();
      out.writeStringField("label", file.label());
      out.writeNumberField("rows", file.rows());
      out.writeNumberField("bytes", file.bytes());
      if (file.physicalSchema() != null) {
        out.writeNumberField("schema", schemaIds.get(file.physicalSchema()));
      }
      out.writeEndObject();
    }
    out.writeEndArray();
    out.writeObjectFieldStart("added_in");
    for (String label : state.files().keySet()) {
      long version = state.addedIn(label);
      if (version >= 0) {
        out.writeNumberField(label, version);
      }
    }
    out.writeEndObject();
    out.writeObjectFieldStart("removed");
    for (Map.Entry<String, Long> removed : state.removedFiles().entrySet()) {
      out.writeNumberField(removed.getKey(), removed.getValue());
    }
    out.writeEndObject();
    out.writeObjectFieldStart("indices");
    for (String column : state.indexColumns()) {
      Field field = state.schema().findField(column);
      out.writeArrayFieldStart(column);
      IOException[] failure = new IOException[1];
      state.forEachIndexValue(column, (value, labels) -> {
        if (failure[0] != null) {
          return;
        }
        try {
          out.writeStartArray();
          out.writeTree(LogValues.toJson(field.getType(), value));
          out.writeStartArray();
          for (String label : labels) {
            Integer position = positions.get(label);
            if (position != null) {
              out.writeNumber(position);
            } else {
              out.writeString(label);
            }
          }
          out.writeEndArray();
          out.writeEndArray();
        } catch (IOException e) {
          failure[0] = e;
        }
      });
      if (failure[0] != null) {
        throw failure[0];
      }
      out.writeEndArray();
    }
    out.writeEndObject();
    out.writeObjectFieldStart("metadata");
    for (Map.Entry<String, JsonNode> entry : state.metadata().entrySet()) {
      out.writeFieldName(entry.getKey());
      out.writeTree(entry.getValue());
    }
    out.writeEndObject();
    out.writeObjectFieldStart("checkpoints");
    for (Map.Entry<String, Long> entry : state.checkpoints().entrySet()) {
      out.writeNumberField(entry.getKey(), entry.getValue());
    }
    out.writeEndObject();
    out.writeObjectFieldStart("checkpoint_first_files");
    for (Map.Entry<String, String> entry : state.checkpointFirstFiles().entrySet()) {
      out.writeStringField(entry.getKey(), entry.getValue());
    }
    out.writeEndObject();
    out.writeEndObject();
  }

  private static void writeStrings(JsonGenerator out, String field, Iterable<String> values) throws IOException {
    out.writeArrayFieldStart(field);
    for (String value : values) {
      out.writeString(value);
    }
    out.writeEndArray();
  }

  // ---------------------------------------------------------------- reading

  static DatasetState read(byte[] compressed, String location) {
    try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(compressed));
        JsonParser parser = FACTORY.createParser(in)) {
      parser.setCodec(JSON);
      return new Reader(parser, location).read();
    } catch (CorruptDatasetException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw new CorruptDatasetException("Cannot read snapshot " + location + ": " + e.getMessage(), e);
    }
  }

  /** One pass over the tokens of a snapshot, collecting its parts. */
  private static final class Reader {
    private final JsonParser parser;
    private final String location;
    private String format;
    private int formatVersion = -1;
    private String uuid;
    private Long version;
    private Instant timestamp;
    private long retainedFrom;
    private long lastRewriteVersion = -1;
    private Instant lastRewriteTime;
    private List<String> partitionKeys = List.of();
    private List<String> indexColumns = List.of();
    private Schema schema;
    private final List<Schema> schemas = new ArrayList<>();
    private final List<DataFile> files = new ArrayList<>();
    private final Map<String, Long> addedIn = new HashMap<>();
    /** In the order written, the order of the removing versions. */
    private final Map<String, Long> removed = new LinkedHashMap<>();
    private final Map<String, Map<IndexValue, List<String>>> indices = new LinkedHashMap<>();
    private final Map<String, JsonNode> metadata = new LinkedHashMap<>();
    private final Map<String, Long> checkpoints = new HashMap<>();
    private final Map<String, String> checkpointFirstFiles = new HashMap<>();

    Reader(JsonParser parser, String location) {
      this.parser = parser;
      this.location = location;
    }

    DatasetState read() throws IOException {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw corrupt("not a " + FORMAT + " document");
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        parser.nextToken();
        switch (field) {
          case "format" -> format = parser.getValueAsString();
          case "format_version" -> formatVersion = parser.getValueAsInt(-1);
          case "uuid" -> uuid = parser.getValueAsString();
          case "version" -> version = longValue(field);
          case "timestamp" -> timestamp = instant(parser.getValueAsString());
          case "retained_from" -> retainedFrom = longValue(field);
          case "last_rewrite_version" -> lastRewriteVersion = longValue(field);
          case "last_rewrite_time" -> lastRewriteTime = instant(parser.getValueAsString());
          case "partition_keys" -> partitionKeys = strings(field);
          case "index_columns" -> indexColumns = strings(field);
          case "schema" -> schema = schema(parser.readValueAsTree());
          case "schemas" -> readArray(field, () -> schemas.add(schema(parser.readValueAsTree())));
          case "files" -> readArray(field, () -> files.add(file(parser.readValueAsTree())));
          case "added_in" -> readLongs(field, addedIn);
          case "removed" -> readLongs(field, removed);
          case "indices" -> readIndices();
          case "metadata" -> readObject(field, name -> metadata.put(name, parser.readValueAsTree()));
          case "checkpoints" -> readLongs(field, checkpoints);
          case "checkpoint_first_files" -> readObject(field,
              name -> checkpointFirstFiles.put(name, parser.getValueAsString()));
          default -> parser.skipChildren();
        }
      }
      if (!FORMAT.equals(format)) {
        throw corrupt("not a " + FORMAT + " document");
      }
      if (formatVersion < FIRST_READABLE_VERSION || formatVersion > FORMAT_VERSION) {
        throw corrupt("format_version " + formatVersion + " is not supported (supported: "
            + FIRST_READABLE_VERSION + " to " + FORMAT_VERSION + ")");
      }
      if (uuid == null || version == null || timestamp == null) {
        throw corrupt("'uuid', 'version' or 'timestamp' is missing");
      }
      try {
        return DatasetState.restore(uuid, version, timestamp, partitionKeys, new TreeSet<>(indexColumns), schema,
            files, addedIn, indices, metadata, checkpoints, checkpointFirstFiles, removed, retainedFrom,
            lastRewriteTime == null ? -1 : lastRewriteVersion, lastRewriteTime);
      } catch (IllegalArgumentException e) {
        throw corrupt(e.getMessage());
      }
    }

    private interface Step {
      void run() throws IOException;
    }

    private interface FieldStep {
      void run(String name) throws IOException;
    }

    private void readArray(String field, Step item) throws IOException {
      if (parser.currentToken() != JsonToken.START_ARRAY) {
        throw corrupt("'" + field + "' is not an array");
      }
      while (parser.nextToken() != JsonToken.END_ARRAY) {
        item.run();
      }
    }

    private void readObject(String field, FieldStep value) throws IOException {
      if (parser.currentToken() != JsonToken.START_OBJECT) {
        throw corrupt("'" + field + "' is not an object");
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        parser.nextToken();
        value.run(name);
      }
    }

    private void readLongs(String field, Map<String, Long> into) throws IOException {
      readObject(field, name -> {
        if (parser.currentToken() != JsonToken.VALUE_NUMBER_INT) {
          throw corrupt("'" + field + "' of " + name + " is not an integer");
        }
        into.put(name, parser.getLongValue());
      });
    }

    private List<String> strings(String field) throws IOException {
      List<String> values = new ArrayList<>();
      readArray(field, () -> {
        if (parser.currentToken() != JsonToken.VALUE_STRING) {
          throw corrupt("'" + field + "' holds " + parser.getText() + ", expected strings");
        }
        values.add(parser.getText());
      });
      return values;
    }

    /**
     * Reads each index pair {@code [value, [labels]]} token by token: a snapshot's indices hold a
     * label per file and indexed value (hundreds of thousands), too many to build a tree of first.
     */
    private void readIndices() throws IOException {
      readObject("indices", column -> {
        Map<IndexValue, List<String>> values = new LinkedHashMap<>();
        Field columnField = schema == null ? null : schema.findField(column);
        readArray(column, () -> {
          if (columnField == null) {
            throw corrupt("index column '" + column + "' is not in the dataset's schema");
          }
          if (parser.currentToken() != JsonToken.START_ARRAY || parser.nextToken() == JsonToken.END_ARRAY) {
            throw notAPair(column);
          }
          JsonNode value = parser.readValueAsTree();
          if (parser.nextToken() != JsonToken.START_ARRAY) {
            throw notAPair(column);
          }
          List<String> labels = new ArrayList<>();
          for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            labels.add(label(column, token));
          }
          if (parser.nextToken() != JsonToken.END_ARRAY) {
            throw notAPair(column);
          }
          values.put(IndexValue.of(LogValues.fromJson(columnField.getType(), value, location)), labels);
        });
        indices.put(column, values);
      });
    }

    /** An index's label: a string, or the position of a file in "files". */
    private String label(String column, JsonToken token) throws IOException {
      if (token == JsonToken.VALUE_STRING) {
        return parser.getText();
      }
      if (token != JsonToken.VALUE_NUMBER_INT) {
        throw notAPair(column);
      }
      int position = parser.getIntValue();
      if (position < 0 || position >= files.size()) {
        throw corrupt("index '" + column + "' names file " + position + " of " + files.size());
      }
      return files.get(position).label();
    }

    private CorruptDatasetException notAPair(String column) {
      return corrupt("index '" + column + "' holds an item that is not [value, [labels]] ("
          + parser.currentLocation().offsetDescription() + ")");
    }

    private DataFile file(JsonNode node) {
      if (!node.isObject() || !node.path("label").isTextual()) {
        throw corrupt("file " + node + " has no label");
      }
      Schema fileSchema = null;
      if (node.hasNonNull("schema")) {
        int id = node.get("schema").asInt(-1);
        if (id < 0 || id >= schemas.size()) {
          throw corrupt("file " + node.get("label") + " names schema " + node.get("schema") + " but the snapshot has "
              + schemas.size());
        }
        fileSchema = schemas.get(id);
      }
      return new DataFile(node.get("label").asText(), node.path("rows").asLong(-1), node.path("bytes").asLong(-1),
          fileSchema);
    }

    private Schema schema(JsonNode node) {
      try {
        return Schema.fromJSON(node.toString());
      } catch (IOException | RuntimeException e) {
        throw new CorruptDatasetException("Cannot read snapshot " + location + ": invalid schema " + node, e);
      }
    }

    private long longValue(String field) throws IOException {
      if (parser.currentToken() != JsonToken.VALUE_NUMBER_INT) {
        throw corrupt("'" + field + "' is not an integer");
      }
      return parser.getLongValue();
    }

    private Instant instant(String text) {
      try {
        return Instant.parse(text);
      } catch (DateTimeParseException | NullPointerException e) {
        throw corrupt("timestamp " + text + " is not ISO-8601");
      }
    }

    private CorruptDatasetException corrupt(String reason) {
      return new CorruptDatasetException("Cannot read snapshot " + location + ": " + reason);
    }
  }
}
