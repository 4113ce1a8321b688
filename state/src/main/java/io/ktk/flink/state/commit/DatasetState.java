package io.ktk.flink.state.commit;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.metadata.IndexValue;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The state of a dataset at one version: the result of applying log entries {@code 0..version}.
 * Only this package moves it forward ({@link #apply}, package-private): a {@link CommitLog} keeps
 * one and moves it entry by entry, so that a commit costs what its entry costs, not what the
 * dataset holds. Everything public only reads it, and collections are handed out unmodifiable or
 * copied; a state obtained from a log changes as the log commits or refreshes ({@link #copy()}
 * keeps one version). Owned by one thread at a time.
 */
public final class DatasetState {
  private final String uuid;
  private long version = -1;
  private Instant lastModified = Instant.EPOCH;
  private List<String> partitionKeys = List.of();
  private final Set<String> indexColumns = new TreeSet<>();
  private Schema schema;
  private final TreeMap<String, DataFile> files = new TreeMap<>();
  /** Per label, the version that added the file; absent when unknown (snapshots written before it was kept). */
  private final Map<String, Long> addedIn = new HashMap<>();
  /** Per index column, per value (binary values as ByteBuffer), the labels holding it; built when read. */
  private IndexLabels indices = new IndexLabels();
  private final Map<String, JsonNode> metadata = new TreeMap<>();
  private final Map<String, Long> checkpoints = new TreeMap<>();
  /**
   * Per writer id, the smallest label its highest committed checkpoint added ("" for none): a
   * replay of that checkpoint adds the same files, so a commit that claims the checkpoint with
   * other files is a collision, not a replay. Absent when unknown (snapshots written before it).
   */
  private final Map<String, String> checkpointFirstFiles = new TreeMap<>();
  /**
   * Per label of a file removed from the dataset, the version that removed it, as long as a
   * retained version still holds the file (removed at a version after {@link #retainedFrom}):
   * garbage collection must keep it for readers of those versions. Kept in the order of the
   * removing versions, so that expiry drops its head instead of scanning every entry (it holds a
   * retention's worth of removed files, hundreds of thousands for a compacted stream), and
   * iterating it does not walk a hash table that never shrinks after a burst.
   */
  private final LinkedHashMap<String, Long> removedIn = new LinkedHashMap<>();
  /** The oldest version that can still be read; versions before it are expired. */
  private long retainedFrom;
  /** The version of the latest {@link LogOperation#REWRITE} (compaction), -1 if none, and its time. */
  private long lastRewriteVersion = -1;
  private Instant lastRewriteTime;
  /** Per index column, the version that last changed it; not persisted (a restored state says its own version). */
  private final Map<String, Long> indexChangedAt = new HashMap<>();

  public DatasetState(String uuid) {
    this.uuid = requireNonNull(uuid, "uuid is null");
  }

  public String uuid() {
    return uuid;
  }

  /** The version this state is at; -1 before version 0 (the dataset does not exist). */
  public long version() {
    return version;
  }

  public boolean exists() {
    return version >= 0;
  }

  /** When the entry of this version was written. */
  public Instant lastModified() {
    return lastModified;
  }

  public List<String> partitionKeys() {
    return partitionKeys;
  }

  public Set<String> indexColumns() {
    return Collections.unmodifiableSet(indexColumns);
  }

  /** The committed schema (normalized types, partition columns included), or null if none yet. */
  public Schema schema() {
    return schema;
  }

  /** The files, by label, in label order. */
  public SortedMap<String, DataFile> files() {
    return Collections.unmodifiableSortedMap(files);
  }

  /**
   * The version whose entry added the file {@code label} (for a file a {@link LogOperation#REWRITE}
   * added: the version of the newest rows it holds), or -1 when unknown (a snapshot written before
   * this was recorded). Orders the files of a partition by when their rows were written: readers
   * that find a cell in several files keep the row of the file written last.
   */
  public long addedIn(String label) {
    return addedIn.getOrDefault(label, -1L);
  }

  /**
   * The oldest version a reader may ask for: {@link LogOperation#EXPIRE} entries move it forward, and
   * the entries and snapshots of earlier versions may be gone. 0 while nothing expired.
   */
  public long retainedFrom() {
    return retainedFrom;
  }

  /** The version of the latest rewrite (compaction), or -1 when none is known. */
  public long lastRewriteVersion() {
    return lastRewriteVersion;
  }

  /** When the latest rewrite was committed, or null when none is known. */
  public Instant lastRewriteTime() {
    return lastRewriteTime;
  }

  /**
   * Labels of files that are no longer part of the dataset but still part of a retained version,
   * each with the version that removed it.
   */
  public Map<String, Long> removedFiles() {
    return Collections.unmodifiableMap(removedIn);
  }

  /** The labels of the files in one physical partition ({@code p=1/q=a}). */
  public List<String> labelsIn(String physicalPartition) {
    String from = physicalPartition.isEmpty() ? "" : physicalPartition + "/";
    List<String> labels = new ArrayList<>();
    for (String label : files.tailMap(from, true).keySet()) {
      if (!label.startsWith(from)) {
        break;
      }
      if (label.indexOf('/', from.length()) < 0) {
        labels.add(label);
      }
    }
    return labels;
  }

  /** One secondary index: value to the labels holding it, sorted. */
  public Map<IndexValue, List<String>> index(String column) {
    Map<IndexValue, SortedLabels> index = indices.built(column);
    if (index == null) {
      return Map.of();
    }
    Map<IndexValue, List<String>> copy = new LinkedHashMap<>();
    index.forEach((value, labels) -> copy.put(value, List.copyOf(labels)));
    return copy;
  }

  /**
   * Calls {@code action} with each value of the index of {@code column} (binary as {@code
   * byte[]}) and its labels, sorted, without copying the index. The label sets are unmodifiable
   * and never change: a value's set is the same instance for as long as its labels stay the same.
   */
  public void forEachIndexValue(String column, java.util.function.BiConsumer<Object, Collection<String>> action) {
    Map<IndexValue, SortedLabels> index = indices.built(column);
    if (index != null) {
      index.forEach((value, labels) -> action.accept(value.value(), labels));
    }
  }

  public Map<String, JsonNode> metadata() {
    return Collections.unmodifiableMap(metadata);
  }

  /** The version that last changed the index of {@code column}: lets a publisher skip unchanged files. */
  public long indexChangedAt(String column) {
    return indexChangedAt.getOrDefault(column, -1L);
  }

  /** Per writer id, the highest checkpoint id committed. */
  public Map<String, Long> checkpoints() {
    return Collections.unmodifiableMap(checkpoints);
  }

  /**
   * The smallest label added by the highest checkpoint {@code writerId} committed, "" when it
   * added none, or null when unknown.
   */
  public String checkpointFirstFile(String writerId) {
    return checkpointFirstFiles.get(writerId);
  }

  /** Per writer id, what {@link #checkpointFirstFile} tells. */
  Map<String, String> checkpointFirstFiles() {
    return Collections.unmodifiableMap(checkpointFirstFiles);
  }

  /** Whether {@code (writerId, checkpointId)} is at or below what that writer has committed. */
  public boolean hasCommitted(String writerId, long checkpointId) {
    Long committed = checkpoints.get(writerId);
    return committed != null && checkpointId <= committed;
  }

  /** Moves this state to the entry's version. Entries must come in order, without gaps. */
  void apply(LogEntry entry) {
    if (entry.version() != version + 1) {
      throw new CorruptDatasetException(
          "Cannot apply version " + entry.version() + " of dataset '" + uuid + "' to its version "
              + version + ": versions must follow each other");
    }
    switch (entry.operation()) {
      case CREATE, ADOPT -> {
        if (exists()) {
          throw new CorruptDatasetException(
              "Cannot apply version " + entry.version() + " of dataset '" + uuid + "': it "
                  + entry.operation().jsonName() + "s a dataset that exists since version 0");
        }
        partitionKeys = entry.partitionKeys();
      }
      default -> {
        if (!exists()) {
          throw new CorruptDatasetException(
              "Cannot apply version " + entry.version() + " of dataset '" + uuid
                  + "': the dataset has no version 0 that creates it");
        }
      }
    }
    indexColumns.addAll(entry.indexColumns());
    if (entry.schema() != null) {
      schema = entry.schema();
    }
    for (String label : entry.removed()) {
      if (files.remove(label) != null) {
        removedIn.put(label, entry.version());
      }
      addedIn.remove(label);
    }
    if (!entry.removed().isEmpty()) {
      indices.remove(Set.copyOf(entry.removed()));
      indices.columns().forEach(column -> indexChangedAt.put(column, entry.version()));
    }
    for (DataFile file : entry.added()) {
      files.put(file.label(), file);
      addedIn.put(file.label(), entry.sequences().getOrDefault(file.label(), entry.version()));
    }
    if (entry.operation() == LogOperation.REWRITE) {
      lastRewriteVersion = entry.version();
      lastRewriteTime = entry.timestamp();
    }
    if (entry.operation() == LogOperation.EXPIRE) {
      retainedFrom = Math.max(retainedFrom, entry.retainFrom());
      dropRemovedUpTo(retainedFrom);
    }
    entry.index().forEach((column, values) -> {
      indexChangedAt.put(column, entry.version());
      indices.add(column, values);
    });
    for (String column : entry.indexColumns()) {
      indices.declare(column);
      indexChangedAt.put(column, entry.version());
    }
    entry.metadata().forEach((key, value) -> {
      if (value == null || value.isNull()) {
        metadata.remove(key);
      } else {
        metadata.put(key, value);
      }
    });
    if (entry.writerId() != null && entry.checkpointId().isPresent()) {
      long checkpoint = entry.checkpointId().getAsLong();
      Long before = checkpoints.get(entry.writerId());
      if (before == null || checkpoint > before) {
        checkpoints.put(entry.writerId(), checkpoint);
        checkpointFirstFiles.put(entry.writerId(), firstLabel(entry.added()));
      }
    }
    version = entry.version();
    lastModified = entry.timestamp();
  }

  /** Forgets the files removed at or before {@code version}: the oldest entries of {@link #removedIn}. */
  private void dropRemovedUpTo(long version) {
    Iterator<Long> removedAt = removedIn.values().iterator();
    while (removedAt.hasNext() && removedAt.next() <= version) {
      removedAt.remove();
    }
  }

  /** The smallest label of {@code files}, "" when there are none. */
  static String firstLabel(List<DataFile> files) {
    String first = null;
    for (DataFile file : files) {
      if (first == null || file.label().compareTo(first) < 0) {
        first = file.label();
      }
    }
    return first == null ? "" : first;
  }

  /** A deep copy, for handing a consistent view to another thread. */
  public DatasetState copy() {
    DatasetState copy = new DatasetState(uuid);
    copy.version = version;
    copy.lastModified = lastModified;
    copy.partitionKeys = partitionKeys;
    copy.indexColumns.addAll(indexColumns);
    copy.schema = schema;
    copy.files.putAll(files);
    copy.addedIn.putAll(addedIn);
    copy.removedIn.putAll(removedIn);
    copy.retainedFrom = retainedFrom;
    copy.lastRewriteVersion = lastRewriteVersion;
    copy.lastRewriteTime = lastRewriteTime;
    copy.indices = indices.copy();
    copy.metadata.putAll(metadata);
    copy.checkpoints.putAll(checkpoints);
    copy.checkpointFirstFiles.putAll(checkpointFirstFiles);
    copy.indexChangedAt.putAll(indexChangedAt);
    return copy;
  }

  /**
   * A copy of this state, at the same version, whose files {@code removed} are replaced by {@code
   * added}, which hold the same rows (with the schema {@code schema} when not null): the state a
   * fold of this version shows plateau ({@code docs/cdc.md}). It is no version of the log: publish
   * it, never commit on it.
   *
   * @param addedIn per added label, the version of the newest rows it holds
   * @param index per index column, per value, the added labels holding it
   */
  public DatasetState withFilesReplaced(Collection<String> removed, Collection<DataFile> added,
      Map<String, Long> addedIn, Map<String, Map<IndexValue, List<String>>> index, Schema schema) {
    DatasetState view = copy();
    for (String label : removed) {
      view.files.remove(label);
      view.addedIn.remove(label);
    }
    view.indices.remove(Set.copyOf(removed));
    for (DataFile file : added) {
      view.files.put(file.label(), file);
      view.addedIn.put(file.label(), addedIn.getOrDefault(file.label(), version));
    }
    index.forEach(view.indices::add);
    if (schema != null) {
      view.schema = schema;
    }
    return view;
  }

  /** Restores a state from a snapshot's parts; used by the snapshot reader. */
  static DatasetState restore(
      String uuid,
      long version,
      Instant lastModified,
      List<String> partitionKeys,
      Set<String> indexColumns,
      Schema schema,
      List<DataFile> files,
      Map<String, Long> addedIn,
      Map<String, Map<IndexValue, List<String>>> indices,
      Map<String, JsonNode> metadata,
      Map<String, Long> checkpoints,
      Map<String, String> checkpointFirstFiles,
      Map<String, Long> removedIn,
      long retainedFrom,
      long lastRewriteVersion,
      Instant lastRewriteTime) {
    DatasetState state = new DatasetState(uuid);
    state.version = version;
    state.lastModified = lastModified;
    state.partitionKeys = List.copyOf(partitionKeys);
    state.indexColumns.addAll(indexColumns);
    state.schema = schema;
    for (DataFile file : files) {
      state.files.put(file.label(), file);
    }
    addedIn.forEach((label, added) -> {
      if (state.files.containsKey(label)) {
        state.addedIn.put(label, added);
      }
    });
    indices.forEach(state.indices::restore);
    state.metadata.putAll(metadata);
    state.checkpoints.putAll(checkpoints);
    state.retainedFrom = retainedFrom;
    state.lastRewriteVersion = lastRewriteVersion;
    state.lastRewriteTime = lastRewriteTime;
    removedIn.entrySet().stream()
        .filter(removed -> removed.getValue() > retainedFrom)
        .sorted(Map.Entry.comparingByValue())
        .forEachOrdered(removed -> state.removedIn.put(removed.getKey(), removed.getValue()));
    checkpointFirstFiles.forEach((writer, label) -> {
      if (checkpoints.containsKey(writer)) {
        state.checkpointFirstFiles.put(writer, label);
      }
    });
    state.indices.columns().forEach(column -> state.indexChangedAt.put(column, version));
    return state;
  }

  @Override
  public String toString() {
    return "DatasetState{" + uuid + "@" + version + ", files=" + files.size() + "}";
  }
}
