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
 * Deletes the files of a dataset that nothing references any more: data files replaced by later
 * versions, index files of older published views, files of writers that failed before
 * committing. A file is deleted only when neither the latest version nor the published view
 * references it and it is older than the safety age, so that files a running writer has written
 * but not yet committed, and files a reader pinned to a recent version still reads, are kept.
 *
 * <p>The log itself and {@code _common_metadata} are never deleted.
 */
public final class GarbageCollector {
  /** Files younger than this are never deleted, by default. */
  public static final Duration DEFAULT_SAFETY_AGE = Duration.ofDays(1);

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

  public static Result collect(ObjectStore store, String uuid, Duration safetyAge, Instant now, boolean dryRun)
      throws IOException {
    requireNonNull(safetyAge, "safetyAge is null");
    if (safetyAge.isNegative()) {
      throw new IllegalArgumentException("Cannot collect garbage of dataset '" + uuid + "': the safety age "
          + safetyAge + " is negative");
    }
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
    DatasetMetadata.load(store, uuid).ifPresent(view -> {
      referenced.addAll(view.fileKeys().values());
      referenced.addAll(view.externalIndexKeys().values());
    });
    referenced.add(DatasetKeys.commonMetadataKey(uuid));

    Instant cutoff = now.minus(safetyAge);
    List<String> deleted = new ArrayList<>();
    long deletedBytes = 0;
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
          deleted.add(object.key());
          deletedBytes += object.size();
        }
      }
    }
    if (!dryRun) {
      for (String key : deleted) {
        store.delete(key);
      }
    }
    return new Result(deleted, deletedBytes, kept, tooYoung);
  }
}
