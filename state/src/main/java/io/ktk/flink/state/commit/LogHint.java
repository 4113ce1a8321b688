package io.ktk.flink.state.commit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.Optional;

/**
 * The log's hint ({@link LogKeys#hint}): the version of the newest snapshot a writer wrote. It is
 * overwritten without coordination, so it may lag behind (a reader then replays more entries) or
 * name a snapshot that expiry deleted (a reader then lists the snapshots); it is never trusted for
 * anything but where to start reading.
 */
final class LogHint {
  private static final ObjectMapper JSON = new ObjectMapper();

  private LogHint() {}

  /** The hinted snapshot version, or empty when there is no hint or it cannot be read. */
  static Optional<Long> read(ObjectStore store, String uuid) throws IOException {
    byte[] data;
    try {
      data = store.get(LogKeys.hint(uuid));
    } catch (NoSuchObjectException e) {
      return Optional.empty();
    }
    try {
      JsonNode node = JSON.readTree(data);
      JsonNode snapshot = node == null ? null : node.get("snapshot");
      return snapshot != null && snapshot.canConvertToLong() && snapshot.longValue() >= 0
          ? Optional.of(snapshot.longValue())
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty(); // an unreadable hint is as good as none
    }
  }

  static void write(ObjectStore store, String uuid, long snapshotVersion) throws IOException {
    ObjectNode node = JSON.createObjectNode();
    node.put("snapshot", snapshotVersion);
    store.put(LogKeys.hint(uuid), JSON.writeValueAsBytes(node));
  }
}
