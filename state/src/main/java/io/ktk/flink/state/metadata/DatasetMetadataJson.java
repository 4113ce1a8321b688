package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

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
   * Writes the metadata JSON of a one-table dataset as a stream: the same bytes as {@link
   * #write(DatasetMetadata)} of {@link DatasetMetadata#of} with these arguments, without building
   * the partitions' maps or a JSON tree, so that a view of many files costs one pass over them.
   *
   * @param fileKeys label -> data file key, in label order
   */
  public static byte[] write(String uuid, java.util.List<String> partitionKeys,
      Iterable<? extends java.util.Map.Entry<String, String>> fileKeys, java.util.Map<String, String> indexKeys,
      java.util.Map<String, JsonNode> metadata, int expectedFiles) {
    // The other parts are small: DatasetMetadata validates and canonicalizes them.
    DatasetMetadata head = DatasetMetadata.of(uuid, partitionKeys, java.util.Map.of(), indexKeys, metadata);
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(Math.max(1024, expectedFiles * 160));
    try (com.fasterxml.jackson.core.JsonGenerator out = MAPPER.getFactory().createGenerator(bytes)) {
      out.setCodec(MAPPER);
      out.writeStartObject();
      out.writeNumberField(DatasetMetadataTree.VERSION, head.metadataVersion());
      out.writeStringField(DatasetMetadataTree.UUID, uuid);
      if (!head.indices().isEmpty()) {
        out.writeObjectFieldStart(DatasetMetadataTree.INDICES);
        for (java.util.Map.Entry<String, IndexReference> index : head.indices().entrySet()) {
          out.writeStringField(index.getKey(), ((IndexReference.External) index.getValue()).key());
        }
        out.writeEndObject();
      }
      if (!head.metadata().isEmpty()) {
        out.writeObjectFieldStart(DatasetMetadataTree.METADATA);
        for (java.util.Map.Entry<String, JsonNode> entry : head.metadata().entrySet()) {
          out.writeFieldName(entry.getKey());
          out.writeTree(entry.getValue());
        }
        out.writeEndObject();
      }
      out.writeObjectFieldStart(DatasetMetadataTree.PARTITIONS);
      for (java.util.Map.Entry<String, String> file : fileKeys) {
        out.writeObjectFieldStart(file.getKey());
        out.writeObjectFieldStart(DatasetMetadataTree.FILES);
        out.writeStringField(DatasetKeys.TABLE, file.getValue());
        out.writeEndObject();
        out.writeEndObject();
      }
      out.writeEndObject();
      out.writeArrayFieldStart(DatasetMetadataTree.PARTITION_KEYS);
      for (String key : head.partitionKeys()) {
        out.writeString(key);
      }
      out.writeEndArray();
      out.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write dataset metadata of " + uuid, e);
    }
    return bytes.toByteArray();
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
