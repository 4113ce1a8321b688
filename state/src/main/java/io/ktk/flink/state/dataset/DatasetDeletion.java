package io.ktk.flink.state.dataset;

import io.ktk.flink.state.commit.CubeCommitLog;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * Deletes a dataset with all its objects in an order that never leaves half a dataset that looks
 * whole: the metadata files first (plateau and discovery stop seeing it), then the log's snapshots
 * and version 0 (this project's readers and writers then fail on the remains instead of writing
 * into them), then everything else under {@code <uuid>/}. Deleting again removes what an
 * interrupted deletion left.
 */
@Internal
public final class DatasetDeletion {
  /** Called after each object deleted, e.g. to show progress. */
  @FunctionalInterface
  public interface Listener {
    void deleted(ObjectInfo object);
  }

  private DatasetDeletion() {}

  /** The dataset's objects: its metadata files and everything under {@code <uuid>/}. */
  public static List<ObjectInfo> objectsOf(ObjectStore store, String uuid) throws IOException {
    List<ObjectInfo> objects = new ArrayList<>();
    for (String key : List.of(DatasetKeys.metadataJsonKey(uuid), DatasetKeys.metadataMsgpackKey(uuid))) {
      store.head(key).ifPresent(objects::add);
    }
    store.list(uuid + "/").forEachRemaining(objects::add);
    return objects;
  }

  /** Deletes every object of dataset {@code uuid} in the safe order; returns how many there were. */
  public static int delete(ObjectStore store, String uuid, Listener listener) throws IOException {
    List<ObjectInfo> objects = objectsOf(store, uuid);
    String snapshots = DatasetKeys.logPrefix(uuid) + "snapshots/";
    String versionZero = DatasetKeys.logEntryKey(uuid, 0);
    objects.sort(Comparator.comparingInt((ObjectInfo object) -> rank(object.key(), uuid, snapshots, versionZero)));
    for (ObjectInfo object : objects) {
      store.delete(object.key());
      listener.deleted(object);
    }
    return objects.size();
  }

  /**
   * Deletes the transaction log of cube {@code cube}, after its datasets: a cube created again
   * under this name starts afresh. Returns how many objects it had.
   */
  public static int deleteCubeLog(ObjectStore store, String cube) throws IOException {
    List<ObjectInfo> log = new ArrayList<>();
    store.list(CubeCommitLog.prefix(cube)).forEachRemaining(log::add);
    for (ObjectInfo object : log) {
      store.delete(object.key());
    }
    return log.size();
  }

  private static int rank(String key, String uuid, String snapshots, String versionZero) {
    if (!key.startsWith(uuid + "/")) {
      return 0; // metadata JSON / msgpack
    }
    if (key.startsWith(snapshots)) {
      return 1;
    }
    return key.equals(versionZero) ? 2 : 3;
  }
}
