package io.ktk.flink.cli;

import io.ktk.flink.sink.compaction.CompactionSettings;
import io.ktk.flink.sink.compaction.ViewFold;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogKeys;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.commit.PlateauPublisher;
import io.ktk.flink.state.dataset.NoSuchDatasetException;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Copies one dataset to another store so that the copy is consistent: it holds exactly one version
 * {@code V} of the source (the latest when the copy starts), whole, and nothing at the target refers
 * to an object that is not there yet.
 *
 * <p>A dataset with a log, in this order:
 * <ol>
 *   <li>the data files of version {@code V} (immutable, so copying them while writers commit is safe;
 *       files of later versions are not copied, nor are files that only older versions referenced);
 *   <li>the log entries {@code V, V-1, ..., 1}, then version 0: until version 0 exists the target has no
 *       dataset for this project's readers and writers (a log without version 0 reads as corrupt);
 *   <li>the log's snapshots up to {@code V} (a cache);
 *   <li>the plateau view, published from the copied log at the target ({@link PlateauPublisher}: index
 *       files, {@code _common_metadata}, the metadata JSON last), so that it shows {@code V} even when
 *       the source's published view lagged behind or ran ahead of the log.
 * </ol>
 * Older versions can be replayed at the target, but only the files of {@code V} are there.
 *
 * <p>A plateau dataset without a log: its data files, index files and {@code _common_metadata}, then its
 * metadata file last (plateau sees the dataset only then).
 *
 * <p>The target must not have the dataset's metadata. An interrupted copy can be run again: files of
 * the right size are not copied twice and log entries already there must be byte-identical.
 */
final class DatasetCopier {
  private final ObjectStore from;
  private final ObjectStore to;

  DatasetCopier(ObjectStore from, ObjectStore to) {
    this.from = from;
    this.to = to;
  }

  /** What was copied. */
  record Copied(long version, int objects, long bytes) {}

  Copied copy(String uuid, Terminal terminal, PrintWriter err) throws IOException {
    return copy(uuid, null, terminal, err);
  }

  /**
   * Copies version {@code pinned.version()} of a dataset with a log (the version a cube reader sees,
   * for {@code ktk copy --cube}), or the latest version when {@code pinned} is null.
   */
  Copied copy(String uuid, DatasetState pinned, Terminal terminal, PrintWriter err) throws IOException {
    for (String key : List.of(DatasetKeys.metadataJsonKey(uuid), DatasetKeys.metadataMsgpackKey(uuid))) {
      if (to.head(key).isPresent()) {
        throw new KtkValidationException("Cannot copy dataset '" + uuid + "' to " + to.url() + ": it exists there ("
            + key + "); delete it there first");
      }
    }
    DatasetState state = pinned != null ? pinned : new LogReader(from, uuid).latest();
    return state.exists() ? copyWithLog(uuid, state, terminal, err) : copyPlateau(uuid, terminal, err);
  }

  private Copied copyWithLog(String uuid, DatasetState state, Terminal terminal, PrintWriter err)
      throws IOException {
    long version = state.version();
    if (to.head(DatasetKeys.logEntryKey(uuid, version + 1)).isPresent()) {
      throw new KtkValidationException("Cannot copy dataset '" + uuid + "' at version " + version + " to " + to.url()
          + ": the log there has version " + (version + 1) + " already; delete the dataset there first");
    }
    List<String> snapshots = new ArrayList<>();
    Iterator<ObjectInfo> listed = from.list(LogKeys.snapshotPrefix(uuid));
    while (listed.hasNext()) {
      String key = listed.next().key();
      OptionalLong snapshot = LogKeys.snapshotVersion(uuid, key);
      if (snapshot.isPresent() && snapshot.getAsLong() <= version) {
        snapshots.add(key);
      }
    }
    long total = state.files().size() + version + 1 + snapshots.size();
    int objects = 0;
    long bytes = 0;
    try (Progress progress = terminal.progress(err, "copying " + uuid, total)) {
      for (DataFile file : state.files().values()) {
        bytes += copyObject(file.key(uuid));
        objects++;
        progress.step();
      }
      for (long v = version; v >= 0; v--) {
        bytes += copyLogObject(uuid, DatasetKeys.logEntryKey(uuid, v));
        objects++;
        progress.step();
      }
      for (String key : snapshots) {
        bytes += copyLogObject(uuid, key);
        objects++;
        progress.step();
      }
    }
    CommitLog copied = CommitLog.open(to, uuid, CommitLogOptions.DEFAULTS);
    if (copied.state().version() != version) {
      throw new KtkValidationException("Cannot copy dataset '" + uuid + "' to " + to.url() + ": its log there reads as"
          + " version " + copied.state().version() + " after copying version " + version);
    }
    ViewFold.publish(copied, CompactionSettings.defaults()); // folded with a primary key
    return new Copied(version, objects, bytes);
  }

  private Copied copyPlateau(String uuid, Terminal terminal, PrintWriter err) throws IOException {
    Optional<DatasetMetadata> view = DatasetMetadata.load(from, uuid);
    if (view.isEmpty()) {
      throw new NoSuchDatasetException("Cannot copy dataset '" + uuid + "' from " + from.url()
          + ": it has neither a commit log nor plateau metadata");
    }
    List<String> keys = new ArrayList<>(view.get().fileKeys().values());
    keys.addAll(view.get().externalIndexKeys().values());
    keys.add(DatasetKeys.commonMetadataKey(uuid));
    for (String metadataKey : List.of(DatasetKeys.metadataMsgpackKey(uuid), DatasetKeys.metadataJsonKey(uuid))) {
      if (from.head(metadataKey).isPresent()) {
        keys.add(metadataKey);
      }
    }
    int objects = 0;
    long bytes = 0;
    try (Progress progress = terminal.progress(err, "copying " + uuid, keys.size())) {
      for (String key : keys) {
        bytes += copyObject(key);
        objects++;
        progress.step();
      }
    }
    return new Copied(0, objects, bytes);
  }

  /** Streams one object across unless the target has it with the same size already; returns the bytes copied. */
  private long copyObject(String key) throws IOException {
    ObjectInfo source = from.head(key).orElseThrow(() -> new NoSuchObjectException(from.url(), key));
    Optional<ObjectInfo> there = to.head(key);
    if (there.isPresent() && there.get().size() == source.size()) {
      return 0;
    }
    ObjectStore.ObjectOutputStream out = to.create(key);
    try (InputStream in = from.open(key)) {
      in.transferTo(out);
    } catch (IOException | RuntimeException e) {
      out.abort();
      throw e;
    }
    out.close();
    return source.size();
  }

  /** Creates a log object at the target; one that exists there must hold the same bytes. */
  private long copyLogObject(String uuid, String key) throws IOException {
    byte[] data = from.get(key);
    if (!to.putIfAbsent(key, data) && !Arrays.equals(to.get(key), data)) {
      throw new KtkValidationException("Cannot copy dataset '" + uuid + "' to " + to.url() + ": " + key
          + " exists there with other content; delete the dataset there first");
    }
    return data.length;
  }
}
