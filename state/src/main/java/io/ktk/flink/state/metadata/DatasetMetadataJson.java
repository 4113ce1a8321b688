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
