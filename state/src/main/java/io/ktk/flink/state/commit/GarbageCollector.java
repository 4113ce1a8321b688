package io.ktk.flink.state.commit;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * Deletes the files of a dataset that nothing references any more: data files that only expired
 * versions held ({@link LogExpiry}), index files of older published views, files of writers that
 * failed before committing. A file is deleted only when no retained version holds it (the latest
 * state's files and the files it removed since the oldest retained version), the published view
 * does not list it, and it is older than the safety age, so that files a running writer has
 * written but not yet committed are kept.
 *
 * <p>What is referenced is read twice: before listing the candidates and again right before
 * deleting, so that a commit or an adoption that lands while the store is listed keeps its files.
 * The log itself and {@code _common_metadata} are never deleted.
 */
public final class GarbageCollector {
  /** Files younger than this are never deleted, by default. */
  public static final Duration DEFAULT_SAFETY_AGE = Duration.ofDays(1);
  /**
   * The smallest safety age accepted without {@code force}: a running writer's files stay
   * uncommitted for up to a checkpoint interval plus the time to complete the checkpoint, and a
   * younger age would delete them under it.
   */
  public static final Duration MIN_SAFETY_AGE = Duration.ofHours(1);

  private GarbageCollector() {}

  /**
   * What a collection found.
   *
   * @param deleted keys deleted (or, in a dry run, that would be)
   * @param deletedBytes the size of those objects together, as listed
   * @param referenced files still referenced
   * @param tooYoung unreferenced files kept because they are younger than the safety age
   */
  public record Result(List<String> deleted, long deletedBytes, int referenced, int tooYoung) {
    public Result {
      deleted = List.copyOf(deleted);
    }
  }

  /** As {@link #collect(ObjectStore, String, Duration, Instant, boolean, boolean)}, without force. */
  public static Result collect(ObjectStore store, String uuid, Duration safetyAge, Instant now, boolean dryRun)
      throws IOException {
    return collect(store, uuid, safetyAge, now, dryRun, false);
  }

  /**
   * Collects the garbage of dataset {@code uuid}.
   *
   * @param force accept a safety age below {@link #MIN_SAFETY_AGE}
   * @throws KtkValidationException when the safety age is below the floor without {@code force}, or the
   *     dataset has neither a log nor a published view
   */
  public static Result collect(ObjectStore store, String uuid, Duration safetyAge, Instant now, boolean dryRun,
      boolean force) throws IOException {
    requireNonNull(safetyAge, "safetyAge is null");
    if (safetyAge.isNegative()) {
      throw new IllegalArgumentException("Cannot collect garbage of dataset '" + uuid + "': the safety age "
          + safetyAge + " is negative");
    }
    if (safetyAge.compareTo(MIN_SAFETY_AGE) < 0 && !force) {
      throw new KtkValidationException("Cannot collect garbage of dataset '" + uuid + "' in " + store.url()
          + " with a safety age of " + safetyAge + ": it is below the floor of " + MIN_SAFETY_AGE
          + ". Files a running writer wrote but has not committed yet (for up to a checkpoint interval) would "
          + "be deleted, and its next commit would fail for want of them. Use an age longer than the longest "
          + "checkpoint interval of any writer, or force it when no writer runs");
    }
    Set<String> referenced = referenced(store, uuid, now);
    Instant cutoff = now.minus(safetyAge);
    List<ObjectInfo> candidates = new ArrayList<>();
    int kept = 0;
    int tooYoung = 0;
    for (String prefix : List.of(uuid + "/" + DatasetKeys.TABLE + "/", uuid + "/indices/")) {
      Iterator<ObjectInfo> objects = store.list(prefix);
      while (objects.hasNext()) {
        ObjectInfo object = objects.next();
        if (referenced.contains(object.key())) {
          kept++;
        } else if (!object.lastModified().isBefore(cutoff)) {
          tooYoung++;
        } else {
          candidates.add(object);
        }
      }
    }
    // Commits and adoptions may have landed while the store was listed: read what is referenced again.
    Set<String> referencedNow = candidates.isEmpty() ? referenced : referenced(store, uuid, now);
    List<String> deleted = new ArrayList<>();
    long deletedBytes = 0;
    for (ObjectInfo candidate : candidates) {
      if (referencedNow.contains(candidate.key())) {
        kept++;
      } else {
        deleted.add(candidate.key());
        deletedBytes += candidate.size();
      }
    }
    if (!dryRun) {
      for (String key : deleted) {
        store.delete(key);
      }
    }
    return new Result(deleted, deletedBytes, kept, tooYoung);
  }

  /** The keys the retained versions and the published view reference, read now. */
  private static Set<String> referenced(ObjectStore store, String uuid, Instant now) throws IOException {
    Set<String> referenced = new HashSet<>();
    DatasetState state = new LogReader(store, uuid).latest();
    if (!state.exists()) {
      PlateauImport.adoptionEntry(store, uuid, now).ifPresent(state::apply);
    }
    if (!state.exists()) {
      // Without a log or a published view everything would look unreferenced: refuse.
      throw new KtkValidationException("Cannot collect garbage of dataset '" + uuid + "' in " + store.url()
          + ": it has neither a commit log nor plateau metadata");
    }
    for (DataFile file : state.files().values()) {
      referenced.add(file.key(uuid));
    }
    for (String label : state.removedFiles().keySet()) {
      referenced.add(new DataFile(label, -1, -1, null).key(uuid));
    }
    DatasetMetadata.load(store, uuid).ifPresent(view -> {
      referenced.addAll(view.fileKeys().values());
      referenced.addAll(view.externalIndexKeys().values());
    });
    referenced.add(DatasetKeys.commonMetadataKey(uuid));
    return referenced;
  }
}
