package io.ktk.flink.state.commit;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds a dataset's log: versions older than a retention, beyond the last few, expire. Expiry
 * commits an {@link LogOperation#EXPIRE} entry naming the oldest version kept (from then on, readers
 * asking for an older one get {@link VersionExpiredException}, and files only expired versions held
 * become garbage for {@link GarbageCollector}), then deletes the entries and snapshots before it and
 * the index files that superseded views referenced.
 *
 * <p>The oldest version kept is the newest snapshot at or before the first version the retention
 * asks to keep, when one lies after the versions already expired. When none does but a later one
 * exists, nothing more expires this time. So the log keeps up to a snapshot interval of versions
 * more than asked (plus what the writers commit between two expiries), and expiry does not read
 * and write a snapshot of the whole state each time it runs. Only a log with no snapshot after
 * its expired versions (short, or idle) gets one written by expiry.
 *
 * <p>What a restored job needs to recognise its replays survives: each writer's last checkpoint id
 * is part of the state, hence of every snapshot.
 */
public final class LogExpiry {
  private static final Logger LOG = LoggerFactory.getLogger(LogExpiry.class);
  /** Versions younger than this are kept, by default. */
  public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);
  /** The last this many versions are kept whatever their age, by default. */
  public static final int DEFAULT_RETAIN_LAST = 10;

  private LogExpiry() {}

  /**
   * What an expiry did.
   *
   * @param retainedFrom the oldest version readable afterwards
   * @param expireVersion the version of the EXPIRE entry committed, or -1 when nothing new expired
   * @param deleted the keys deleted (or, in a dry run, that would be): entries, snapshots, index files
   */
  public record Result(long retainedFrom, long expireVersion, List<String> deleted) {
    public Result {
      deleted = List.copyOf(deleted);
    }
  }

  /**
   * Expires the versions of {@code log}'s dataset that are older than {@code retention} and not
   * among the last {@code retainLast}.
   */
  public static Result expire(CommitLog log, Duration retention, int retainLast, Instant now, boolean dryRun)
      throws IOException {
    requireNonNull(retention, "retention is null");
    if (retention.isNegative() || retainLast < 1) {
      throw new IllegalArgumentException("Cannot expire versions of dataset '" + log.uuid() + "': retention "
          + retention + " and retain-last " + retainLast + " must be positive");
    }
    ObjectStore store = log.store();
    String uuid = log.uuid();
    DatasetState latest = log.refresh();
    if (!latest.exists()) {
      return new Result(0, -1, List.of());
    }
    Instant cutoff = now.minus(retention);
    List<ObjectInfo> entries = new ArrayList<>();
    long firstYoung = latest.version();
    // Entries list in version order (their keys are zero-padded), so the first young one is the
    // oldest young version, and the listing stops there once past the versions already expired:
    // an expiry reads the entries it expires, not the whole retention.
    Iterator<ObjectInfo> listed = store.list(LogKeys.logPrefix(uuid));
    while (listed.hasNext()) {
      ObjectInfo object = listed.next();
      OptionalLong version = LogKeys.entryVersion(uuid, object.key());
      if (version.isPresent()) {
        entries.add(object);
        if (!object.lastModified().isBefore(cutoff) && version.getAsLong() >= latest.retainedFrom()) {
          firstYoung = version.getAsLong(); // the listing is in version order: the first one is the oldest
          break;
        }
      }
    }
    long asked = Math.max(0, Math.min(latest.version() - retainLast + 1, firstYoung));
    List<Long> snapshotVersions = snapshotVersions(store, uuid);
    long retainFrom = oldestKept(snapshotVersions, latest.retainedFrom(), asked);
    long expireVersion = -1;
    if (retainFrom > latest.retainedFrom() && !dryRun) {
      writeSnapshotIfMissing(log, retainFrom);
      expireVersion = log.commit(DatasetChange.expire(retainFrom)).version();
      LOG.info("Dataset '{}' in {}: versions before {} expired (version {})", uuid, store.url(), retainFrom,
          expireVersion);
    }
    long retained = dryRun ? Math.max(retainFrom, latest.retainedFrom()) : log.state().retainedFrom();

    List<String> deleted = new ArrayList<>();
    for (ObjectInfo entry : entries) {
      if (LogKeys.entryVersion(uuid, entry.key()).getAsLong() < retained) {
        deleted.add(entry.key());
      }
    }
    for (long snapshot : snapshotVersions) {
      if (snapshot < retained) {
        deleted.add(LogKeys.snapshot(uuid, snapshot));
      }
    }
    deleted.addAll(supersededIndexFiles(store, uuid, cutoff));
    if (!dryRun) {
      for (String key : deleted) {
        try {
          store.delete(key);
        } catch (NoSuchObjectException gone) {
          // another expiry deleted it
        }
      }
    }
    return new Result(retained, expireVersion, deleted);
  }

  /** The versions of the dataset's snapshots, ascending. */
  private static List<Long> snapshotVersions(ObjectStore store, String uuid) throws IOException {
    List<Long> versions = new ArrayList<>();
    Iterator<ObjectInfo> snapshots = store.list(LogKeys.snapshotPrefix(uuid));
    while (snapshots.hasNext()) {
      LogKeys.snapshotVersion(uuid, snapshots.next().key()).ifPresent(versions::add);
    }
    versions.sort(null);
    return versions;
  }

  /**
   * The oldest version to keep when the retention asks to keep from {@code asked} and versions
   * before {@code retainedFrom} are expired already: the newest snapshot after {@code retainedFrom}
   * and at or before {@code asked}; else, when a later snapshot exists (the writers keep writing
   * them), {@code retainedFrom}: nothing more expires until a snapshot falls in range; else (a
   * short or idle log) {@code asked}, of which expiry then writes a snapshot.
   */
  private static long oldestKept(List<Long> snapshots, long retainedFrom, long asked) {
    if (asked <= retainedFrom) {
      return retainedFrom;
    }
    long newestInRange = -1;
    boolean laterSnapshot = false;
    for (long snapshot : snapshots) {
      if (snapshot > retainedFrom && snapshot <= asked) {
        newestInRange = Math.max(newestInRange, snapshot);
      } else if (snapshot > asked) {
        laterSnapshot = true;
      }
    }
    if (newestInRange >= 0) {
      return newestInRange;
    }
    return laterSnapshot ? retainedFrom : asked;
  }

  /** The state at {@code version} becomes a snapshot, so that readers start there once older entries are gone. */
  private static void writeSnapshotIfMissing(CommitLog log, long version) throws IOException {
    ObjectStore store = log.store();
    String key = LogKeys.snapshot(log.uuid(), version);
    if (store.head(key).isPresent()) {
      return;
    }
    DatasetState state = new LogReader(store, log.uuid()).at(version);
    store.putIfAbsent(key, SnapshotCodec.write(state));
    Optional<Long> hinted = LogHint.read(store, log.uuid());
    if (hinted.isEmpty() || hinted.get() < version) {
      LogHint.write(store, log.uuid(), version);
    }
  }

  /** Index files the published view does not name, older than {@code cutoff}: earlier views' indices. */
  private static List<String> supersededIndexFiles(ObjectStore store, String uuid, Instant cutoff) throws IOException {
    Optional<DatasetMetadata> view = DatasetMetadata.load(store, uuid);
    if (view.isEmpty()) {
      return List.of();
    }
    Set<String> current = new HashSet<>(view.get().externalIndexKeys().values());
    List<String> superseded = new ArrayList<>();
    Iterator<ObjectInfo> indices = store.list(uuid + "/indices/");
    while (indices.hasNext()) {
      ObjectInfo index = indices.next();
      if (!current.contains(index.key()) && index.lastModified().isBefore(cutoff)) {
        superseded.add(index.key());
      }
    }
    return superseded;
  }
}
