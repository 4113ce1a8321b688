package io.ktk.flink.state.commit;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.types.SchemaCompatibility;
import io.ktk.flink.state.types.TypeNormalization;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
        if (!creates && request.operation() != LogOperation.ADD_INDEX) {
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

    LogOperation operation = creates ? LogOperation.CREATE : request.operation();
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
        request.cubeTransaction());
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
