package io.ktk.flink.state.commit;

import com.fasterxml.jackson.databind.JsonNode;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.metadata.CommonMetadataFile;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.metadata.IndexFile;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a writer from overwriting what another writer changed in the published plateau view.
 * plateau appends to a dataset by rewriting its metadata JSON with the files it added; a writer
 * that published from the log without looking would drop them from the view, and GC would then
 * delete them. Before a commit and before a publication, the writer calls {@link #check}: when the
 * view was written by someone else since this instance last saw it, the view is read, and
 *
 * <ul>
 *   <li>when it still lists exactly what this project published ({@link ViewDigest}), nothing
 *       happens;
 *   <li>when it lists files the log does not know, or lacks files plateau removed, the change is
 *       returned as an {@link LogOperation#ADOPT_CHANGES} request, which the caller commits as a new
 *       version: the log takes over plateau's files, with plateau's index entries for them;
 *   <li>when it shows a log version the log does not have (entries were deleted), the log cannot be
 *       trusted and {@link CorruptDatasetException} is thrown: committing would reuse versions.
 * </ul>
 *
 * <p>The check costs one HEAD of the view per call while nobody else writes it. Shared by the
 * writers of one process (committer and publisher) so that its own publications are not taken for
 * foreign ones. Thread-safe.
 */
public final class PublishedViewCheck {
  private static final Logger LOG = LoggerFactory.getLogger(PublishedViewCheck.class);
  /** The writer id of entries adopting another writer's changes. */
  public static final String FOREIGN_WRITER = "plateau";

  private final String uuid;
  /** The view object (size, modification time) last known to list what the log holds. */
  private ObjectInfo known;

  public PublishedViewCheck(String uuid) {
    this.uuid = uuid;
  }

  /** A publisher of this process wrote the view, listing what the log held. */
  synchronized void published(ObjectInfo view) {
    known = view;
  }

  /**
   * Checks the published view against the log's {@code latest} state.
   *
   * @return the change to commit that adopts another writer's change to the view, if there is one
   */
  synchronized Optional<DatasetChange> check(ObjectStore store, DatasetState latest, LogReader reader)
      throws IOException {
    Optional<ObjectInfo> head = store.head(DatasetKeys.metadataJsonKey(uuid));
    if (head.isEmpty() || sameObject(head.get(), known)) {
      return Optional.empty();
    }
    Optional<DatasetMetadata> loaded = DatasetMetadata.load(store, uuid);
    if (loaded.isEmpty()) {
      return Optional.empty();
    }
    DatasetMetadata view = loaded.get();
    JsonNode marker = view.metadata().get(PlateauPublisher.LOG_VERSION_KEY);
    long shown = marker != null && marker.canConvertToLong() ? marker.longValue() : -1;
    if (shown > latest.version()) {
      reader.catchUp(latest);
      if (shown > latest.version()) {
        throw new CorruptDatasetException("Cannot write to dataset '" + uuid + "' in " + store.url()
            + ": its published view shows log version " + shown + ", but the log ends at version "
            + latest.version() + ". Log entries were deleted; committing now would reuse their versions and "
            + "lose what they recorded. Restore the missing entries under " + LogKeys.logPrefix(uuid)
            + " (from a backup or the bucket's object versions) before writing again");
      }
    }
    JsonNode digest = view.metadata().get(ViewDigest.METADATA_KEY);
    if (digest != null && digest.asText().equals(ViewDigest.of(view.fileKeys(), view.externalIndexKeys()))) {
      known = head.get();
      return Optional.empty();
    }
    Optional<DatasetChange> adoption = adoption(store, latest, reader, view, Math.max(shown, 0));
    if (adoption.isEmpty()) {
      known = head.get();
    }
    return adoption;
  }

  private static boolean sameObject(ObjectInfo a, ObjectInfo b) {
    return b != null && a.size() == b.size() && a.lastModified().equals(b.lastModified());
  }

  /**
   * What the view changed relative to the log version {@code shown} it was published from: files
   * it lists that version {@code shown} did not (minus those the log took over already or removed
   * since), and files of version {@code shown} it no longer lists that the log still holds.
   */
  private Optional<DatasetChange> adoption(ObjectStore store, DatasetState latest, LogReader reader,
      DatasetMetadata view, long shown) throws IOException {
    if (!view.partitionKeys().equals(latest.partitionKeys())) {
      throw new KtkValidationException("Cannot write to dataset '" + uuid + "' in " + store.url() + ": another writer "
          + "published it partitioned by " + view.partitionKeys() + ", but its log is partitioned by "
          + latest.partitionKeys());
    }
    if (shown < latest.retainedFrom()) {
      throw new KtkValidationException("Cannot write to dataset '" + uuid + "' in " + store.url() + ": another writer "
          + "changed its published view, which shows log version " + shown + "; that version expired (the log "
          + "retains versions from " + latest.retainedFrom() + "), so the change cannot be told apart from "
          + "this project's later commits. Compare the view with 'ktk validate' and repair it first");
    }
    Set<String> addedSince = new HashSet<>();
    Set<String> removedSince = new HashSet<>();
    for (long version = shown + 1; version <= latest.version(); version++) {
      LogEntry entry = reader.readEntryIfPresent(version, latest.schema());
      if (entry == null) {
        throw new CorruptDatasetException("Cannot read version " + version + " of dataset '" + uuid + "' in "
            + store.url() + " to compare it with the published view");
      }
      entry.added().forEach(file -> addedSince.add(file.label()));
      removedSince.addAll(entry.removed());
    }
    // The files of version `shown`: those of the latest version or removed since, unless added since.
    Set<String> atShown = new HashSet<>(latest.files().keySet());
    atShown.addAll(removedSince);
    atShown.removeAll(addedSince);

    Map<String, String> viewFiles = view.fileKeys();
    List<DataFile> added = new ArrayList<>();
    for (Map.Entry<String, String> file : viewFiles.entrySet()) {
      String label = file.getKey();
      if (!atShown.contains(label) && !latest.files().containsKey(label) && !removedSince.contains(label)) {
        DataFile adopted = new DataFile(label, -1, -1, null);
        if (!adopted.key(uuid).equals(file.getValue())) {
          throw new CorruptDatasetException("Cannot adopt the files another writer added to dataset '" + uuid
              + "': partition '" + label + "' has file " + file.getValue() + " where " + adopted.key(uuid)
              + " is expected");
        }
        added.add(adopted);
      }
    }
    List<String> removed = new ArrayList<>();
    for (String label : atShown) {
      if (!viewFiles.containsKey(label) && latest.files().containsKey(label)) {
        removed.add(label);
      }
    }
    Map<String, String> viewIndices = view.externalIndexKeys();
    List<String> newIndexColumns = new ArrayList<>();
    for (String column : viewIndices.keySet()) {
      if (!latest.indexColumns().contains(column) && !latest.partitionKeys().contains(column)) {
        newIndexColumns.add(column);
      }
    }
    if (added.isEmpty() && removed.isEmpty() && newIndexColumns.isEmpty()) {
      return Optional.empty();
    }

    Schema schema = CommonMetadataFile.read(store, DatasetKeys.commonMetadataKey(uuid));
    Set<String> addedLabels = new HashSet<>();
    added.forEach(file -> addedLabels.add(file.label()));
    Map<String, Map<IndexValue, List<String>>> index = new LinkedHashMap<>();
    for (Map.Entry<String, String> viewIndex : viewIndices.entrySet()) {
      String column = viewIndex.getKey();
      boolean isNew = newIndexColumns.contains(column);
      if (!isNew && (!latest.indexColumns().contains(column) || added.isEmpty())) {
        continue;
      }
      Field field = schema.findField(column);
      Map<IndexValue, List<String>> values = new LinkedHashMap<>();
      IndexFile.read(store, viewIndex.getValue(), column, field.getType()).forEach((value, labels) -> {
        List<String> kept = isNew ? labels : labels.stream().filter(addedLabels::contains).toList();
        if (!kept.isEmpty()) {
          values.put(IndexValue.of(value), kept);
        }
      });
      index.put(column, values);
    }
    for (String column : latest.indexColumns()) {
      if (!added.isEmpty() && !index.containsKey(column)) {
        throw new KtkValidationException("Cannot adopt the files another writer added to dataset '" + uuid + "' in "
            + store.url() + ": the dataset is indexed on column '" + column + "', but the published view has no "
            + "index of it for the " + added.size() + " files added (e.g. " + added.get(0).label() + ")");
      }
    }
    LOG.info("Dataset '{}' in {}: another writer changed the published view of version {}: adopting {} files "
        + "added, {} removed{}", uuid, store.url(), shown, added.size(), removed.size(),
        newIndexColumns.isEmpty() ? "" : ", new indices on " + newIndexColumns);
    return Optional.of(new DatasetChange(LogOperation.ADOPT_CHANGES, FOREIGN_WRITER, OptionalLong.empty(), List.of(),
        newIndexColumns, schema, added, Set.of(), index, Map.of(), null, removed, Map.of(), -1));
  }
}
