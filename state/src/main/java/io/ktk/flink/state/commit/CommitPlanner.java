package io.ktk.flink.state.commit;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.types.SchemaCompatibility;
import io.ktk.flink.state.types.TypeNormalization;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Turns a {@link DatasetChange} into the log entry of a given version against the state before
 * it, validating the request against that state. Run again for every version tried, so a commit
 * that lost a race is re-validated against what won (the rebase of {@code docs/commit-log.md}, "Claiming a version").
 */
final class CommitPlanner {
  private CommitPlanner() {}

  static LogEntry plan(DatasetState state, DatasetChange request, Instant now) {
    String dataset = state.uuid();
    boolean creates = !state.exists();
    List<String> partitionKeys = creates ? request.partitionKeys() : state.partitionKeys();
    if (!creates && !request.partitionKeys().isEmpty() && !request.partitionKeys().equals(state.partitionKeys())) {
      throw new KtkValidationException("Cannot commit to dataset '" + dataset + "': it is partitioned by "
          + state.partitionKeys() + " but the commit is partitioned by " + request.partitionKeys());
    }

    Schema schemaAfter = state.schema();
    if (request.schema() != null) {
      schemaAfter = state.schema() == null
          ? TypeNormalization.normalize(request.schema())
          : SchemaCompatibility.merge(dataset, state.schema(), request.schema());
    }
    if (creates) {
      if (schemaAfter == null) {
        throw new KtkValidationException("Cannot create dataset '" + dataset + "': its first commit has no schema");
      }
      checkColumnsExist(dataset, schemaAfter, partitionKeys, "partition");
    }

    List<String> newIndexColumns = new ArrayList<>();
    for (String column : request.indexColumns()) {
      if (!state.indexColumns().contains(column)) {
        if (!creates && request.operation() != LogOperation.ADD_INDEX && request.operation() != LogOperation.ADOPT_CHANGES) {
          throw new KtkValidationException("Cannot commit to dataset '" + dataset + "': column '" + column
              + "' is not indexed (indexed: " + state.indexColumns() + "); build the index over the existing "
              + "files first");
        }
        newIndexColumns.add(column);
      }
    }
    Set<String> indexColumnsAfter = new TreeSet<>(state.indexColumns());
    indexColumnsAfter.addAll(newIndexColumns);
    if (schemaAfter != null) {
      checkColumnsExist(dataset, schemaAfter, List.copyOf(indexColumnsAfter), "index");
    }
    for (Map.Entry<String, Map<IndexValue, List<String>>> delta : request.index().entrySet()) {
      if (!indexColumnsAfter.contains(delta.getKey())) {
        throw new KtkValidationException("Cannot commit to dataset '" + dataset + "': the commit carries index "
            + "values for column '" + delta.getKey() + "', which is not an index column " + indexColumnsAfter);
      }
    }

    checkPrimaryKey(state, request, partitionKeys, schemaAfter);

    for (DataFile file : request.files()) {
      checkLabel(dataset, partitionKeys, file.label());
      if (state.files().containsKey(file.label())) {
        throw new KtkValidationException("Cannot commit to dataset '" + dataset + "': file '" + file.label()
            + "' is committed already");
      }
    }

    List<String> removed = new ArrayList<>();
    for (String partition : new TreeSet<>(request.replacedPartitions())) {
      removed.addAll(state.labelsIn(partition));
    }
    if (request.operation() == LogOperation.REWRITE || request.operation() == LogOperation.ADOPT_CHANGES) {
      checkRemovable(state, request);
      removed.addAll(request.removedFiles());
    }
    if (request.operation() == LogOperation.EXPIRE && request.retainFrom() > state.version() + 1) {
      throw new KtkValidationException("Cannot expire versions of dataset '" + dataset + "' before "
          + request.retainFrom() + ": the latest version is " + state.version());
    }

    LogOperation operation = creates ? LogOperation.CREATE : request.operation();
    if (creates && request.operation() != LogOperation.APPEND && request.operation() != LogOperation.REPLACE_PARTITIONS) {
      throw new KtkValidationException("Cannot " + request.operation().jsonName() + " dataset '" + dataset
          + "': it does not exist");
    }
    return new LogEntry(
        state.version() + 1,
        now,
        request.writerId(),
        request.checkpointId(),
        operation,
        creates ? partitionKeys : List.of(),
        creates ? List.copyOf(indexColumnsAfter) : newIndexColumns,
        schemaAfter != null && !schemaAfter.equals(state.schema()) ? schemaAfter : null,
        request.files(),
        removed,
        request.index(),
        request.metadata(),
        request.cubeTransaction(),
        request.sequences(),
        operation == LogOperation.EXPIRE ? Math.max(request.retainFrom(), state.retainedFrom()) : -1);
  }

  /**
   * A rewrite removes files that exist, and covers every index column: otherwise it lost to a
   * concurrent rewrite, replace or index build, and must be planned again.
   */
  private static void checkRemovable(DatasetState state, DatasetChange request) {
    String dataset = state.uuid();
    for (String label : request.removedFiles()) {
      if (!state.files().containsKey(label)) {
        throw new RewriteConflictException("Cannot " + request.operation().jsonName() + " files of dataset '"
            + dataset + "': file '" + label + "' is no longer part of it (version " + state.version()
            + "); another rewrite or a partition replace removed it first");
      }
    }
    if (request.operation() == LogOperation.REWRITE && !request.files().isEmpty()) {
      for (String column : state.indexColumns()) {
        if (!request.index().containsKey(column)) {
          throw new RewriteConflictException("Cannot rewrite files of dataset '" + dataset + "': it is indexed "
              + "on column '" + column + "' (since a version after the rewrite was planned, or the rewrite "
              + "ignored it) and the rewrite carries no index values for it");
        }
      }
    }
  }

  /** A key set by the request must fit the dataset and equal the key it has, if any. */
  private static void checkPrimaryKey(DatasetState state, DatasetChange request, List<String> partitionKeys,
      Schema schema) {
    if (!request.metadata().containsKey(PrimaryKey.METADATA_KEY)) {
      return;
    }
    String dataset = state.uuid();
    Optional<List<String>> requested = PrimaryKey.of(dataset, request.metadata());
    Optional<List<String>> existing = PrimaryKey.of(dataset, state.metadata());
    if (requested.isEmpty()) {
      if (existing.isPresent()) {
        throw new KtkValidationException("Cannot remove the primary key " + existing.get() + " of dataset '" + dataset
            + "': readers merge its rows by it");
      }
      return;
    }
    if (existing.isPresent() && !existing.get().equals(requested.get())) {
      throw new KtkValidationException("Cannot use the primary key " + requested.get() + " for dataset '" + dataset
          + "': it has the primary key " + existing.get());
    }
    if (existing.isEmpty() && state.exists() && !state.files().isEmpty()) {
      throw new KtkValidationException("Cannot give dataset '" + dataset + "' the primary key " + requested.get()
          + ": it holds rows already, which nothing deduplicated by that key; declare the key when the dataset is "
          + "created");
    }
    PrimaryKey.check(dataset, requested.get(), partitionKeys, schema);
  }

  private static void checkColumnsExist(String dataset, Schema schema, List<String> columns, String role) {
    for (String column : columns) {
      if (schema.getFields().stream().noneMatch(f -> f.getName().equals(column))) {
        throw new KtkValidationException("Cannot commit to dataset '" + dataset + "': " + role + " column '"
            + column + "' is not in the schema " + schema.getFields().stream().map(f -> f.getName()).toList());
      }
    }
  }

  /** A label is {@code k1=v1/.../kn=vn/<file id>} for the partition keys k1..kn, in order. */
  private static void checkLabel(String dataset, List<String> partitionKeys, String label) {
    String[] segments = label.split("/", -1);
    boolean ok = segments.length == partitionKeys.size() + 1 && !segments[segments.length - 1].isEmpty();
    for (int i = 0; ok && i < partitionKeys.size(); i++) {
      ok = segments[i].startsWith(partitionKeys.get(i) + "=");
    }
    if (!ok) {
      throw new KtkValidationException("Cannot commit to dataset '" + dataset + "': label '" + label
          + "' does not match the partition keys " + partitionKeys);
    }
  }
}
