package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * {@code <uuid>.by-dataset-metadata.json}: the form plateau writes by default.
 *
 * <p>Written compactly and deterministically with plateau's field names and order (see {@link
 * DatasetMetadata}); like Python's {@code simplejson.dumps} defaults, non-ASCII characters are escaped
 * ({@code "\u00fc"}) and non-finite floats are written as {@code NaN} / {@code Infinity}, which
 * plateau reads back. Unlike simplejson there is no space after {@code :} and {@code ,}.
 *
 * <p>Reading accepts what plateau accepts: indices as file keys or embedded, missing {@code indices}
 * and {@code metadata}, missing {@code partition_keys} (taken from the first partition's file key, as
 * plateau does). Anything else that does not fit throws {@link io.ktk.flink.state.CorruptDatasetException}
 * naming the location and the problem, e.g. "Cannot read dataset metadata
 * s3://b/x.by-dataset-metadata.json: dataset_metadata_version 5 is not supported (supported: 4)".
 */
public final class DatasetMetadataJson {
  private static final ObjectMapper MAPPER =
      JsonMapper.builder(
              JsonFactory.builder()
                  .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
                  .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
                  .disable(JsonWriteFeature.WRITE_NAN_AS_STRINGS)
                  .build())
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private DatasetMetadataJson() {}

  public static byte[] write(DatasetMetadata dataset) {
    requireNonNull(dataset, "dataset is null");
    try {
      return MAPPER.writeValueAsBytes(DatasetMetadataTree.toTree(dataset));
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException("Cannot write dataset metadata of " + dataset.uuid(), e);
    }
  }

  /**
   * The members of the {@code partitions} object for some files, as {@link #write(DatasetMetadata)}
   * writes them ({@code "label":{"files":{"table":"key"}}}, separated by commas, without the
   * braces): a part of the metadata JSON that {@link #write(String, List, List, Map, Map)} joins
   * with the others, so that a publisher can keep it while its files do not change.
   *
   * @param fileKeys label -> data file key, in label order
   */
  public static byte[] partitionMembers(Iterable<? extends Map.Entry<String, String>> fileKeys) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
    try (JsonGenerator out = MAPPER.getFactory().createGenerator(bytes)) {
      out.writeStartObject();
      for (Map.Entry<String, String> file : fileKeys) {
        out.writeObjectFieldStart(file.getKey());
        out.writeObjectFieldStart(DatasetMetadataTree.FILES);
        out.writeStringField(DatasetKeys.TABLE, file.getValue());
        out.writeEndObject();
        out.writeEndObject();
      }
      out.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write the partitions of dataset metadata", e);
    }
    byte[] object = bytes.toByteArray();
    return Arrays.copyOfRange(object, 1, object.length - 1);
  }

  /**
   * Writes the metadata JSON of a one-table dataset from the members of its {@code partitions}
   * ({@link #partitionMembers}, in label order): the same bytes as {@link #write(DatasetMetadata)}
   * of {@link DatasetMetadata#of} with the same content, without a map or a tree of the files.
   * The parts are copied once, into the array returned.
   */
  public static byte[] write(String uuid, List<String> partitionKeys, List<byte[]> partitions,
      Map<String, String> indexKeys, Map<String, JsonNode> metadata) {
    Frame frame = frame(uuid, partitionKeys, indexKeys, metadata);
    long length = frame.length(partitions);
    if (length > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("Cannot write dataset metadata of " + uuid + ": it would take "
          + length + " bytes, more than a Java array holds");
    }
    byte[] json = new byte[(int) length];
    System.arraycopy(frame.before(), 0, json, 0, frame.before().length);
    int at = frame.before().length;
    json[at++] = '{';
    for (int i = 0; i < partitions.size(); i++) {
      if (i > 0) {
        json[at++] = ',';
      }
      byte[] members = partitions.get(i);
      System.arraycopy(members, 0, json, at, members.length);
      at += members.length;
    }
    json[at++] = '}';
    System.arraycopy(frame.after(), 0, json, at, frame.after().length);
    return json;
  }

  /**
   * As {@link #write(String, List, List, Map, Map)}, onto {@code out}: the parts go to the stream
   * as they are, without an array of the whole JSON (tens of MB for a large dataset).
   *
   * @return the number of bytes written
   */
  public static long write(OutputStream out, String uuid, List<String> partitionKeys, List<byte[]> partitions,
      Map<String, String> indexKeys, Map<String, JsonNode> metadata) throws IOException {
    Frame frame = frame(uuid, partitionKeys, indexKeys, metadata);
    out.write(frame.before());
    out.write('{');
    for (int i = 0; i < partitions.size(); i++) {
      if (i > 0) {
        out.write(',');
      }
      out.write(partitions.get(i));
    }
    out.write('}');
    out.write(frame.after());
    return frame.length(partitions);
  }

  /** The JSON before the members of {@code partitions} ({@code ..."partitions":}) and after its object. */
  private record Frame(byte[] before, byte[] after) {
    long length(List<byte[]> partitions) {
      long length = before.length + 2L + Math.max(0, partitions.size() - 1) + after.length;
      for (byte[] members : partitions) {
        length += members.length;
      }
      return length;
    }
  }

  private static Frame frame(
      String uuid, List<String> partitionKeys, Map<String, String> indexKeys, Map<String, JsonNode> metadata) {
    // The other parts are small: DatasetMetadata validates and canonicalizes them.
    DatasetMetadata head = DatasetMetadata.of(uuid, partitionKeys, Map.of(), indexKeys, metadata);
    ByteArrayOutputStream part = new ByteArrayOutputStream(4096);
    byte[] before;
    try (JsonGenerator out = MAPPER.getFactory().createGenerator(part)) {
      out.setCodec(MAPPER);
      out.writeStartObject();
      out.writeNumberField(DatasetMetadataTree.VERSION, head.metadataVersion());
      out.writeStringField(DatasetMetadataTree.UUID, uuid);
      if (!head.indices().isEmpty()) {
        out.writeObjectFieldStart(DatasetMetadataTree.INDICES);
        for (Map.Entry<String, IndexReference> index : head.indices().entrySet()) {
          out.writeStringField(index.getKey(), ((IndexReference.External) index.getValue()).key());
        }
        out.writeEndObject();
      }
      if (!head.metadata().isEmpty()) {
        out.writeObjectFieldStart(DatasetMetadataTree.METADATA);
        for (Map.Entry<String, JsonNode> entry : head.metadata().entrySet()) {
          out.writeFieldName(entry.getKey());
          out.writeTree(entry.getValue());
        }
        out.writeEndObject();
      }
      // "partitions": and its colon; the object itself is spliced in between.
      out.writeFieldName(DatasetMetadataTree.PARTITIONS);
      out.writeRawValue("");
      out.flush();
      before = part.toByteArray();
      part.reset();
      out.writeArrayFieldStart(DatasetMetadataTree.PARTITION_KEYS);
      for (String key : head.partitionKeys()) {
        out.writeString(key);
      }
      out.writeEndArray();
      out.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write dataset metadata of " + uuid, e);
    }
    return new Frame(before, part.toByteArray());
  }

  /**
   * Reads a metadata JSON document.
   *
   * @param location where the bytes come from (store URL and key), for error messages
   * @throws io.ktk.flink.state.CorruptDatasetException when the document is not valid metadata
   */
  public static DatasetMetadata read(byte[] json, String location) {
    requireNonNull(json, "json is null");
    requireNonNull(location, "location is null");
    JsonNode root;
    try {
      root = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw DatasetMetadataTree.corrupt(location, "invalid JSON: " + e.getOriginalMessage()
          + (e.getLocation() == null ? "" : " at byte " + e.getLocation().getByteOffset()), e);
    } catch (IOException e) {
      throw DatasetMetadataTree.corrupt(location, "invalid JSON: " + e.getMessage(), e);
    }
    return DatasetMetadataTree.fromTree(root, location);
  }

  /** Parses a JSON value, e.g. for a metadata entry: {@code json("[\"x\"]")}. */
  public static JsonNode json(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("Invalid JSON: " + e.getOriginalMessage(), e);
    }
  }
}
