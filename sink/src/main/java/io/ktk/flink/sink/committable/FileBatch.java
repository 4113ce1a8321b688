package io.ktk.flink.sink.committable;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.metadata.IndexValue;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The committable of the sink: Parquet files written for one dataset that become visible
 * together, with what their commit needs. A writer subtask emits one per checkpoint (checkpoint
 * id not yet known: -1); the aggregator combines one checkpoint's batches into one and gives it
 * the checkpoint id; the committer commits it as one version.
 *
 * @param dataset the dataset uuid
 * @param writerId the id that makes the commit idempotent: with {@code checkpointId} it is
 *     recorded in the log, and a replay at or below it is acknowledged as committed
 * @param checkpointId the checkpoint the files belong to, or -1 before aggregation
 * @param schema the declared (logical) schema the files were validated against, partition
 *     columns included
 * @param partitionColumns the dataset's partition columns, used when the commit creates it
 * @param indexColumns the index columns the batch carries values for
 * @param files the files, each with its label, row count, size and physical schema
 * @param index per index column, per value, the labels of the files holding it; every label is one
 *     of {@code files}
 * @param writtenAtMillis when the writer began writing the batch's earliest file (epoch millis,
 *     the writer's clock), or {@link #UNKNOWN_WRITE_TIME} for a batch restored from a version 1
 *     checkpoint; the committer checks that the files of an old batch still exist, since garbage
 *     collection deletes uncommitted files older than its safety age
 */
public record FileBatch(
    String dataset,
    String writerId,
    long checkpointId,
    Schema schema,
    List<String> partitionColumns,
    List<String> indexColumns,
    List<DataFile> files,
    Map<String, Map<IndexValue, List<String>>> index,
    long writtenAtMillis) {
  /** The write time of a batch that does not know it (restored from version 1 bytes). */
  public static final long UNKNOWN_WRITE_TIME = -1;

  public FileBatch {
    if (writtenAtMillis < 0 && writtenAtMillis != UNKNOWN_WRITE_TIME) {
      throw new IllegalArgumentException("Cannot make a file batch of dataset '" + dataset + "': write time "
          + writtenAtMillis + " is neither epoch millis nor unknown (" + UNKNOWN_WRITE_TIME + ")");
    }
    requireNonNull(dataset, "dataset is null");
    requireNonNull(writerId, "writerId is null");
    requireNonNull(schema, "schema is null");
    partitionColumns = List.copyOf(partitionColumns);
    indexColumns = List.copyOf(indexColumns);
    files = List.copyOf(files);
    Map<String, Map<IndexValue, List<String>>> copy = new LinkedHashMap<>();
    Set<String> labels = new HashSet<>();
    files.forEach(file -> labels.add(file.label()));
    for (Map.Entry<String, Map<IndexValue, List<String>>> column : index.entrySet()) {
      if (!indexColumns.contains(column.getKey())) {
        throw new IllegalArgumentException("index values for column '" + column.getKey()
            + "', which is not among the index columns " + indexColumns);
      }
      Map<IndexValue, List<String>> values = new LinkedHashMap<>();
      column.getValue().forEach((value, valueLabels) -> {
        for (String label : valueLabels) {
          if (!labels.contains(label)) {
            throw new IllegalArgumentException("index value " + value + " of column '" + column.getKey()
                + "' names label '" + label + "', which is not a file of the batch");
          }
        }
        values.put(requireNonNull(value, "index value is null"), List.copyOf(valueLabels));
      });
      copy.put(column.getKey(), Collections.unmodifiableMap(values));
    }
    index = Collections.unmodifiableMap(copy);
  }

  /** The rows of all files. */
  public long rows() {
    return files.stream().mapToLong(DataFile::rows).sum();
  }

  /** The physical partitions the files are in, e.g. {@code p=1/q=a}. */
  public Set<String> partitions() {
    Set<String> partitions = new LinkedHashSet<>();
    files.forEach(file -> partitions.add(file.physicalPartition()));
    return partitions;
  }

  /** The same batch, assigned to a checkpoint. */
  public FileBatch withCheckpointId(long id) {
    return new FileBatch(dataset, writerId, id, schema, partitionColumns, indexColumns, files, index,
        writtenAtMillis);
  }

  /** The same batch, committed under another writer id (one id for all datasets of a checkpoint). */
  public FileBatch withWriterId(String id) {
    return new FileBatch(dataset, id, checkpointId, schema, partitionColumns, indexColumns, files, index,
        writtenAtMillis);
  }

  /**
   * One batch holding the files and index values of {@code batches} (of one dataset and schema),
   * for checkpoint {@code checkpointId}. Its writer id is the smallest of theirs: any choice that
   * depends only on the batches works, because a replay carries the combined batch itself; the
   * smallest keeps the choice obvious. Its write time is the earliest of theirs, unknown when any
   * is unknown.
   */
  public static FileBatch combine(Collection<FileBatch> batches, long checkpointId) {
    if (batches.isEmpty()) {
      throw new IllegalArgumentException("Cannot combine no batches");
    }
    FileBatch first = batches.iterator().next();
    String writerId = first.writerId();
    long writtenAtMillis = first.writtenAtMillis();
    List<DataFile> files = new ArrayList<>();
    Set<String> indexColumns = new LinkedHashSet<>(first.indexColumns());
    Map<String, Map<IndexValue, Set<String>>> index = new LinkedHashMap<>();
    for (FileBatch batch : batches) {
      if (!batch.dataset().equals(first.dataset()) || !batch.schema().equals(first.schema())
          || !batch.partitionColumns().equals(first.partitionColumns())) {
        throw new IllegalStateException("Cannot combine batches of different datasets or schemas: " + first
            + " and " + batch);
      }
      if (batch.writerId().compareTo(writerId) < 0) {
        writerId = batch.writerId();
      }
      writtenAtMillis = batch.writtenAtMillis() == UNKNOWN_WRITE_TIME || writtenAtMillis == UNKNOWN_WRITE_TIME
          ? UNKNOWN_WRITE_TIME
          : Math.min(writtenAtMillis, batch.writtenAtMillis());
      files.addAll(batch.files());
      indexColumns.addAll(batch.indexColumns());
      batch.index().forEach((column, values) -> {
        Map<IndexValue, Set<String>> merged = index.computeIfAbsent(column, c -> new LinkedHashMap<>());
        values.forEach((value, labels) ->
            merged.computeIfAbsent(value, v -> new LinkedHashSet<>()).addAll(labels));
      });
    }
    Map<String, Map<IndexValue, List<String>>> combined = new LinkedHashMap<>();
    index.forEach((column, values) -> {
      Map<IndexValue, List<String>> labels = new LinkedHashMap<>();
      values.forEach((value, valueLabels) -> labels.put(value, List.copyOf(valueLabels)));
      combined.put(column, labels);
    });
    return new FileBatch(first.dataset(), writerId, checkpointId, first.schema(), first.partitionColumns(),
        List.copyOf(indexColumns), files, combined, writtenAtMillis);
  }

  @Override
  public String toString() {
    return "FileBatch{dataset=" + dataset + ", writer=" + writerId + ", checkpoint=" + checkpointId + ", files="
        + files.size() + ", rows=" + rows() + (writtenAtMillis == UNKNOWN_WRITE_TIME ? ""
        : ", written=" + Instant.ofEpochMilli(writtenAtMillis)) + "}";
  }
}
