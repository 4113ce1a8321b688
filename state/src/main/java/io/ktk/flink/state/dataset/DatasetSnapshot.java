package io.ktk.flink.state.dataset;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A dataset as it is at one version, immutable: its schema, its physical partitions with typed
 * partition values and files (row counts, sizes, physical schemas), its secondary indices and its
 * metadata. What the source plans queries from and what {@code ktk info} shows.
 *
 * <p>A dataset written by plateau that this project never committed to has no log; it is read
 * from its published view and shown as version 0.
 */
public final class DatasetSnapshot {
  private final ObjectStore store;
  private final DatasetState state;
  private final List<Field> partitionKeys;
  private final List<Partition> partitions;

  private DatasetSnapshot(ObjectStore store, DatasetState state) {
    this.store = store;
    this.state = state;
    Schema schema = state.schema();
    this.partitionKeys = state.partitionKeys().stream().map(schema::findField).toList();
    Map<String, List<DataFile>> byPath = new LinkedHashMap<>();
    Map<String, List<Object>> valuesByPath = new LinkedHashMap<>();
    for (DataFile file : state.files().values()) {
      String path = file.physicalPartition();
      byPath.computeIfAbsent(path, p -> new ArrayList<>()).add(file);
      valuesByPath.computeIfAbsent(path, p -> PartitionLabel.parse(file.label(), partitionKeys).typedValues());
    }
    List<Partition> partitions = new ArrayList<>(byPath.size());
    byPath.forEach((path, files) -> partitions.add(new Partition(path, valuesByPath.get(path), files)));
    this.partitions = List.copyOf(partitions);
  }

  /** The latest version of dataset {@code uuid}. */
  public static DatasetSnapshot latest(ObjectStore store, String uuid) throws IOException {
    DatasetState state = new LogReader(store, uuid).latestOrPublished();
    if (!state.exists()) {
      throw new NoSuchDatasetException("Cannot read dataset '" + uuid + "' in " + store.url()
          + ": it has neither a commit log nor plateau metadata");
    }
    return new DatasetSnapshot(store, state);
  }

  /** The dataset at the version {@code state} is at (a state read or pinned by the caller, e.g. {@code CubeVersions}). */
  public static DatasetSnapshot of(ObjectStore store, DatasetState state) {
    requireNonNull(store, "store is null");
    if (!state.exists()) {
      throw new NoSuchDatasetException("Cannot read dataset '" + state.uuid() + "' in " + store.url()
          + ": the state given has no version");
    }
    return new DatasetSnapshot(store, state.copy());
  }

  /**
   * Version {@code version} of dataset {@code uuid}, which must exist. Version 0 of a dataset
   * without a log (written by plateau alone) is its published view, as {@link #latest} shows it.
   */
  public static DatasetSnapshot at(ObjectStore store, String uuid, long version) throws IOException {
    LogReader reader = new LogReader(store, uuid);
    DatasetState state = reader.at(version);
    if (!state.exists() && version == 0) {
      state = reader.latestOrPublished();
    }
    if (state.version() != version) {
      throw new NoSuchDatasetException("Cannot read version " + version + " of dataset '" + uuid + "' in "
          + store.url() + ": " + (state.exists() ? "the latest version is " + state.version() : "it has no log"));
    }
    return new DatasetSnapshot(store, state);
  }

  /**
   * The version of dataset {@code uuid} that was the latest at {@code time}: the highest one
   * committed at or before it. Versions are committed in time order (each entry's time is taken
   * when it is written, after the one before it), so a binary search over the log finds it in
   * O(log versions) state reads ({@link LogReader#asOf}).
   *
   * @throws NoSuchDatasetException when the dataset has no log, or no version is that old
   * @throws io.ktk.flink.state.commit.VersionExpiredException when the version of that time expired
   */
  public static DatasetSnapshot asOf(ObjectStore store, String uuid, Instant time) throws IOException {
    LogReader reader = new LogReader(store, uuid);
    DatasetState latest = reader.latest();
    if (!latest.exists()) {
      throw new NoSuchDatasetException("Cannot read dataset '" + uuid + "' in " + store.url() + " as of " + time
          + ": it has no commit log (a plateau dataset has no history to travel in)");
    }
    DatasetState found = reader.asOf(time, latest);
    if (!found.exists()) {
      throw new NoSuchDatasetException("Cannot read dataset '" + uuid + "' in " + store.url() + " as of " + time
          + ": its first version was committed later, at " + reader.at(0).lastModified());
    }
    return new DatasetSnapshot(store, found);
  }

  public ObjectStore store() {
    return store;
  }

  public String uuid() {
    return state.uuid();
  }

  public long version() {
    return state.version();
  }

  /** When the version was committed (adopted plateau datasets: when they were read). */
  public Instant committedAt() {
    return state.lastModified();
  }

  /** The committed schema: normalized types, partition columns included. */
  public Schema schema() {
    return state.schema();
  }

  /** The partition columns, typed, in label order. */
  public List<Field> partitionKeys() {
    return partitionKeys;
  }

  /** The physical partitions in label order. */
  public List<Partition> partitions() {
    return partitions;
  }

  /**
   * The version that added {@code file}: files of a partition written later have higher versions
   * (files of one commit share it). -1 when unknown (state restored from a snapshot written before
   * versions were recorded); adopted plateau datasets have all their files at version 0.
   */
  public long addedIn(DataFile file) {
    requireNonNull(file, "file is null");
    return state.addedIn(file.label());
  }

  /**
   * The version of the latest rewrite (compaction) up to this version, or -1 when there was none.
   * A rewrite's files hold rows of earlier versions; continuous readers use this to avoid serving
   * them again.
   */
  public long lastRewriteVersion() {
    return state.lastRewriteVersion();
  }

  public int fileCount() {
    return state.files().size();
  }

  /** All rows, or -1 when a file's row count is unknown. */
  public long rows() {
    long rows = 0;
    for (Partition partition : partitions) {
      long partitionRows = partition.rows();
      if (partitionRows < 0) {
        return -1;
      }
      rows += partitionRows;
    }
    return rows;
  }

  /** All bytes of data files, or -1 when a file's size is unknown. */
  public long bytes() {
    long bytes = 0;
    for (DataFile file : state.files().values()) {
      if (file.bytes() < 0) {
        return -1;
      }
      bytes += file.bytes();
    }
    return bytes;
  }

  /** The secondary index columns (partition columns are indexed by the partitions themselves). */
  public Set<String> indexColumns() {
    return state.indexColumns();
  }

  /** A secondary index: value to the labels of the files holding it. */
  public Map<IndexValue, List<String>> index(String column) {
    requireNonNull(column, "column is null");
    if (!state.indexColumns().contains(column)) {
      throw new IllegalArgumentException("Column '" + column + "' of dataset '" + uuid() + "' has no index; indexed: "
          + state.indexColumns());
    }
    return state.index(column);
  }

  /**
   * Calls {@code action} with each value of the secondary index of {@code column} (binary as {@code
   * byte[]}) and the labels of the files holding it, sorted, without copying the index.
   */
  public void forEachIndexValue(String column, java.util.function.BiConsumer<Object, java.util.Collection<String>> action) {
    requireNonNull(column, "column is null");
    if (!state.indexColumns().contains(column)) {
      throw new IllegalArgumentException("Column '" + column + "' of dataset '" + uuid() + "' has no index; indexed: "
          + state.indexColumns());
    }
    state.forEachIndexValue(column, action);
  }

  /** User and cube metadata. */
  public Map<String, JsonNode> metadata() {
    return state.metadata();
  }

  @Override
  public String toString() {
    return "DatasetSnapshot{" + uuid() + "@" + version() + ", partitions=" + partitions.size() + ", files="
        + fileCount() + "}";
  }
}
