package io.ktk.flink.state.commit;

import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.Iterator;

/**
 * The size of a dataset's log as stored: entries and snapshots, and their bytes; with the state,
 * what {@code ktk info} and {@code ktk stats} show of the log's health. One listing of the log.
 *
 * @param entries log entries stored
 * @param entryBytes their bytes together
 * @param snapshots snapshots stored
 * @param snapshotBytes their bytes together
 */
public record LogStats(int entries, long entryBytes, int snapshots, long snapshotBytes) {
  public static LogStats of(ObjectStore store, String uuid) throws IOException {
    int entries = 0;
    int snapshots = 0;
    long entryBytes = 0;
    long snapshotBytes = 0;
    Iterator<ObjectInfo> objects = store.list(LogKeys.logPrefix(uuid));
    while (objects.hasNext()) {
      ObjectInfo object = objects.next();
      if (LogKeys.entryVersion(uuid, object.key()).isPresent()) {
        entries++;
        entryBytes += object.size();
      } else if (LogKeys.snapshotVersion(uuid, object.key()).isPresent()) {
        snapshots++;
        snapshotBytes += object.size();
      }
    }
    return new LogStats(entries, entryBytes, snapshots, snapshotBytes);
  }

  public long bytes() {
    return entryBytes + snapshotBytes;
  }
}
