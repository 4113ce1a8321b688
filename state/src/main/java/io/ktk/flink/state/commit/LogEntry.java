package io.ktk.flink.state.commit;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.ktk.flink.state.metadata.IndexValue;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One version of a dataset: the change it makes to the state before it. See {@code
 * docs/commit-log.md} for the JSON form.
 *
 * @param partitionKeys set by CREATE and ADOPT only, else empty
 * @param indexColumns the secondary index columns, set by CREATE, ADOPT and ADD_INDEX, else empty
 * @param schema the committed schema after this version, when it changed, else null
 * @param index per index column, per value, the labels added
 * @param metadata user or cube metadata keys set by this version
 * @param cubeTransaction the cube whose transaction {@code (writerId, checkpointId)} this entry is
 *     part of, or null: cube readers see the entry only once the cube's log records the transaction
 *     ({@link CubeCommitLog})
 * @param sequences for a REWRITE, per added label the version of the newest rows the file holds
 *     (it orders the file among its partition's files); empty otherwise
 * @param retainFrom for an EXPIRE, the oldest version that stays readable; -1 otherwise
 */
public record LogEntry(
    long version,
    Instant timestamp,
    String writerId,
    OptionalLong checkpointId,
    LogOperation operation,
    List<String> partitionKeys,
    List<String> indexColumns,
    Schema schema,
    List<DataFile> added,
    List<String> removed,
    Map<String, Map<IndexValue, List<String>>> index,
    Map<String, JsonNode> metadata,
    String cubeTransaction,
    Map<String, Long> sequences,
    long retainFrom) {

  public LogEntry {
    if (version < 0) {
      throw new IllegalArgumentException("version is negative: " + version);
    }
    requireNonNull(timestamp, "timestamp is null");
    requireNonNull(checkpointId, "checkpointId is null");
    requireNonNull(operation, "operation is null");
    partitionKeys = List.copyOf(partitionKeys);
    indexColumns = List.copyOf(indexColumns);
    added = List.copyOf(added);
    removed = List.copyOf(removed);
    index = Map.copyOf(index);
    metadata = Map.copyOf(metadata);
    sequences = Map.copyOf(sequences);
    if (operation == LogOperation.REWRITE) {
      for (DataFile file : added) {
        Long sequence = sequences.get(file.label());
        if (sequence == null || sequence < 0 || sequence >= version) {
          throw new IllegalArgumentException("rewritten file " + file.label() + " has sequence " + sequence
              + "; a rewrite's file holds rows of an earlier version");
        }
      }
    } else if (!sequences.isEmpty()) {
      throw new IllegalArgumentException("sequences are given for a " + operation.jsonName());
    }
    if ((operation == LogOperation.EXPIRE) != (retainFrom >= 0) || retainFrom > version) {
      throw new IllegalArgumentException("retain_from " + retainFrom + " for a " + operation.jsonName()
          + " of version " + version);
    }
    if (checkpointId.isPresent() && writerId == null) {
      throw new IllegalArgumentException("a checkpoint id needs a writer id");
    }
    if (cubeTransaction != null && checkpointId.isEmpty()) {
      throw new IllegalArgumentException("a cube transaction needs a writer id and a checkpoint id");
    }
  }

  /** An entry that is no part of a cube transaction. */
  public LogEntry(long version, Instant timestamp, String writerId, OptionalLong checkpointId, LogOperation operation,
      List<String> partitionKeys, List<String> indexColumns, Schema schema, List<DataFile> added,
      List<String> removed, Map<String, Map<IndexValue, List<String>>> index, Map<String, JsonNode> metadata) {
    this(version, timestamp, writerId, checkpointId, operation, partitionKeys, indexColumns, schema, added, removed,
        index, metadata, null, Map.of(), -1);
  }

  /** Whether this entry was written by {@code writerId} for {@code checkpointId}. */
  public boolean isFrom(String writerId, OptionalLong checkpointId) {
    return writerId != null && writerId.equals(this.writerId) && checkpointId.equals(this.checkpointId);
  }
}
