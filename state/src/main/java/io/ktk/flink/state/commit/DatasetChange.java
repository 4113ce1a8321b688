package io.ktk.flink.state.commit;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.ktk.flink.state.metadata.IndexValue;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A change to commit to a dataset: files to add (and, for {@link LogOperation#REPLACE_PARTITIONS},
 * the physical partitions whose current files they replace; for {@link LogOperation#REWRITE}, the
 * files they replace), the schema the files were validated against, index additions and metadata.
 * When the dataset does not exist yet, the commit creates it with {@code partitionKeys} and
 * {@code indexColumns}.
 *
 * @param writerId the writer's stable id, or null for a one-off commit
 * @param checkpointId with a writer id: the checkpoint this commit belongs to; makes replays idempotent
 * @param schema the logical schema of the added files (partition columns included), or null when no
 *     files are added
 * @param replacedPartitions physical partitions ({@code p=1/q=a}) whose files are removed; only for
 *     REPLACE_PARTITIONS
 * @param cubeTransaction with a writer id and checkpoint id: the cube whose transaction this commit
 *     is part of ({@link CubeCommitLog}), or null
 * @param removedFiles labels of the files a REWRITE or ADOPT_CHANGES removes; each must exist
 * @param sequences for a REWRITE, per added label the version of the newest rows it holds
 * @param retainFrom for an EXPIRE, the oldest version that stays readable; -1 otherwise
 */
public record DatasetChange(
    LogOperation operation,
    String writerId,
    OptionalLong checkpointId,
    List<String> partitionKeys,
    List<String> indexColumns,
    Schema schema,
    List<DataFile> files,
    Set<String> replacedPartitions,
    Map<String, Map<IndexValue, List<String>>> index,
    Map<String, JsonNode> metadata,
    String cubeTransaction,
    List<String> removedFiles,
    Map<String, Long> sequences,
    long retainFrom) {

  public DatasetChange {
    requireNonNull(operation, "operation is null");
    requireNonNull(checkpointId, "checkpointId is null");
    partitionKeys = List.copyOf(partitionKeys);
    indexColumns = List.copyOf(indexColumns);
    files = List.copyOf(files);
    replacedPartitions = Set.copyOf(replacedPartitions);
    index = Map.copyOf(index);
    metadata = Map.copyOf(metadata);
    removedFiles = List.copyOf(removedFiles);
    sequences = Map.copyOf(sequences);
    if (operation == LogOperation.CREATE || operation == LogOperation.ADOPT) {
      throw new IllegalArgumentException(
          "Cannot request " + operation + ": a dataset is created by its first commit and adopted on open");
    }
    if (checkpointId.isPresent() && writerId == null) {
      throw new IllegalArgumentException("a checkpoint id needs a writer id");
    }
    if (!replacedPartitions.isEmpty() && operation != LogOperation.REPLACE_PARTITIONS) {
      throw new IllegalArgumentException("replaced partitions given for a " + operation.jsonName());
    }
    if (!removedFiles.isEmpty() && operation != LogOperation.REWRITE && operation != LogOperation.ADOPT_CHANGES) {
      throw new IllegalArgumentException("removed files given for a " + operation.jsonName());
    }
    if (!sequences.isEmpty() && operation != LogOperation.REWRITE) {
      throw new IllegalArgumentException("sequences given for a " + operation.jsonName());
    }
    if ((operation == LogOperation.EXPIRE) != (retainFrom >= 0)) {
      throw new IllegalArgumentException("retainFrom " + retainFrom + " given for a " + operation.jsonName());
    }
    if (!files.isEmpty() && schema == null) {
      throw new IllegalArgumentException("files are added without the schema they were validated against");
    }
    if (cubeTransaction != null && checkpointId.isEmpty()) {
      throw new IllegalArgumentException("a cube transaction needs a writer id and a checkpoint id");
    }
  }

  /** A request that is no part of a cube transaction and removes no named files. */
  public DatasetChange(LogOperation operation, String writerId, OptionalLong checkpointId, List<String> partitionKeys,
      List<String> indexColumns, Schema schema, List<DataFile> files, Set<String> replacedPartitions,
      Map<String, Map<IndexValue, List<String>>> index, Map<String, JsonNode> metadata) {
    this(operation, writerId, checkpointId, partitionKeys, indexColumns, schema, files, replacedPartitions, index,
        metadata, null, List.of(), Map.of(), -1);
  }

  /** An append of {@code files}, with the layout used if the dataset does not exist yet. */
  public static DatasetChange append(List<String> partitionKeys, Schema schema, List<DataFile> files) {
    return new DatasetChange(LogOperation.APPEND, null, OptionalLong.empty(), partitionKeys, List.of(),
        schema, files, Set.of(), Map.of(), Map.of());
  }

  /** Replaces the files of {@code partitions} with {@code files}. */
  public static DatasetChange replacePartitions(
      List<String> partitionKeys, Schema schema, List<DataFile> files, Set<String> partitions) {
    return new DatasetChange(LogOperation.REPLACE_PARTITIONS, null, OptionalLong.empty(), partitionKeys,
        List.of(), schema, files, partitions, Map.of(), Map.of());
  }

  /**
   * Replaces the files {@code removed} by {@code added}, which hold the same rows (compaction).
   * {@code sequences} gives, per added label, the version of the newest rows in the file; {@code
   * index} gives the values of every index column of the dataset in the added files.
   */
  public static DatasetChange rewrite(Schema schema, List<String> removed, List<DataFile> added,
      Map<String, Long> sequences, Map<String, Map<IndexValue, List<String>>> index) {
    return new DatasetChange(LogOperation.REWRITE, null, OptionalLong.empty(), List.of(), List.of(), schema, added,
        Set.of(), index, Map.of(), null, removed, sequences, -1);
  }

  /** Marks the versions before {@code retainFrom} as expired ({@link LogExpiry}). */
  public static DatasetChange expire(long retainFrom) {
    if (retainFrom < 0) {
      throw new IllegalArgumentException("retainFrom is negative: " + retainFrom);
    }
    return new DatasetChange(LogOperation.EXPIRE, null, OptionalLong.empty(), List.of(), List.of(), null, List.of(),
        Set.of(), Map.of(), Map.of(), null, List.of(), Map.of(), retainFrom);
  }

  /**
   * Adds a secondary index on {@code column} over the files that exist: {@code values} maps each
   * value of the column (typed by the project's convention) to the labels of the files holding it.
   * When the column is indexed already, the values are added to its index.
   */
  public static DatasetChange addIndex(String column, Map<IndexValue, List<String>> values) {
    requireNonNull(column, "column is null");
    requireNonNull(values, "values is null");
    return new DatasetChange(LogOperation.ADD_INDEX, null, OptionalLong.empty(), List.of(), List.of(column), null,
        List.of(), Set.of(), Map.of(column, values), Map.of());
  }

  public DatasetChange withWriter(String writerId, long checkpointId) {
    return new DatasetChange(operation, requireNonNull(writerId, "writerId is null"), OptionalLong.of(checkpointId),
        partitionKeys, indexColumns, schema, files, replacedPartitions, index, metadata, cubeTransaction,
        removedFiles, sequences, retainFrom);
  }

  /** The same request as part of the transaction {@code (writerId, checkpointId)} of cube {@code cube}. */
  public DatasetChange withCubeTransaction(String cube) {
    return new DatasetChange(operation, writerId, checkpointId, partitionKeys, indexColumns, schema, files,
        replacedPartitions, index, metadata, requireNonNull(cube, "cube is null"), removedFiles, sequences,
        retainFrom);
  }

  public DatasetChange withIndex(List<String> indexColumns, Map<String, Map<IndexValue, List<String>>> index) {
    return new DatasetChange(operation, writerId, checkpointId, partitionKeys, indexColumns, schema, files,
        replacedPartitions, index, metadata, cubeTransaction, removedFiles, sequences, retainFrom);
  }

  public DatasetChange withMetadata(Map<String, JsonNode> metadata) {
    return new DatasetChange(operation, writerId, checkpointId, partitionKeys, indexColumns, schema, files,
        replacedPartitions, index, metadata, cubeTransaction, removedFiles, sequences, retainFrom);
  }

  /** The same request with a writer id but no checkpoint (a one-off writer such as a compactor). */
  public DatasetChange withWriterId(String writerId) {
    return new DatasetChange(operation, requireNonNull(writerId, "writerId is null"), OptionalLong.empty(),
        partitionKeys, indexColumns, schema, files, replacedPartitions, index, metadata, cubeTransaction,
        removedFiles, sequences, retainFrom);
  }
}
