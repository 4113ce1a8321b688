package io.ktk.flink.state.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A dataset's primary key ({@code docs/cdc.md}): the columns that identify a row, stored in the
 * dataset's metadata under {@value #METADATA_KEY} as a list of names, so that every writer and
 * reader agrees on it. Rows of a dataset with a key are upserted and deleted by it.
 *
 * <p>Also the name of the column that marks a delete in the change files of such a dataset
 * ({@value #DELETED_COLUMN}); it is never part of the dataset's schema.
 */
public final class PrimaryKey {
  /** Metadata key of the primary key's column names. */
  public static final String METADATA_KEY = "ktk_primary_key";
  /** The boolean column of change files that marks a delete of its row's key. */
  public static final String DELETED_COLUMN = "__ktk_deleted";

  private PrimaryKey() {}

  /** The key in a dataset's metadata, empty when it has none. */
  public static Optional<List<String>> of(String dataset, Map<String, JsonNode> metadata) {
    JsonNode node = metadata.get(METADATA_KEY);
    if (node == null || node.isNull()) {
      return Optional.empty();
    }
    if (!node.isArray() || node.isEmpty()) {
      throw new CorruptDatasetException("Cannot read the primary key of dataset '" + dataset + "': "
          + METADATA_KEY + " is " + node + ", expected a non-empty list of column names");
    }
    List<String> columns = new ArrayList<>();
    for (JsonNode column : node) {
      if (!column.isTextual()) {
        throw new CorruptDatasetException("Cannot read the primary key of dataset '" + dataset + "': "
            + METADATA_KEY + " holds " + column + ", expected column names");
      }
      columns.add(column.textValue());
    }
    return Optional.of(List.copyOf(columns));
  }

  /** The metadata value of a key. */
  public static JsonNode toJson(List<String> columns) {
    ArrayNode array = JsonNodeFactory.instance.arrayNode();
    columns.forEach(array::add);
    return array;
  }

  /**
   * Checks a key against the dataset: its columns exist, once each, and include every partition
   * column.
   *
   * @throws KtkValidationException naming the dataset, the key and what is wrong
   */
  public static void check(String dataset, List<String> key, List<String> partitionColumns, Schema schema) {
    if (key.isEmpty()) {
      throw new KtkValidationException("Cannot use an empty primary key for dataset '" + dataset + "'");
    }
    if (key.stream().distinct().count() != key.size()) {
      throw new KtkValidationException("Cannot use the primary key " + key + " for dataset '" + dataset
          + "': it names a column twice");
    }
    for (String column : key) {
      if (schema.getFields().stream().noneMatch(field -> field.getName().equals(column))) {
        throw new KtkValidationException("Cannot use the primary key " + key + " for dataset '" + dataset
            + "': column '" + column + "' is not in its schema " + schema.getFields().stream().map(f -> f.getName())
            .toList());
      }
      if (column.equals(DELETED_COLUMN)) {
        throw new KtkValidationException("Cannot use the primary key " + key + " for dataset '" + dataset + "': '"
            + DELETED_COLUMN + "' is reserved");
      }
    }
    for (String partition : partitionColumns) {
      if (!key.contains(partition)) {
        throw new KtkValidationException("Cannot use the primary key " + key + " for dataset '" + dataset
            + "': it lacks the partition column '" + partition + "'. The key must contain every partition column: "
            + "an update could otherwise move a row to another partition, and its old row would stay in the old "
            + "partition (a checkpoint writes only what changed)");
      }
    }
  }
}
