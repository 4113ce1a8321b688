package io.ktk.flink.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.Set;

/**
 * The rows one ingest has committed to a dataset: those its log entries add. Its entries are the
 * ones whose writer id starts with the prefix the ingest gave its sink ({@code writer-id-prefix});
 * what other writers commit to the dataset meanwhile (another ingest, a Flink job, plateau) is not
 * counted. Entries are read in version order from the version after the one the dataset had when
 * the ingest first started, each once: {@link #refresh()} reads only what was committed since the
 * last call.
 *
 * <p>Only the entry's {@code writer_id}, {@code operation} and the {@code rows} of its {@code add}
 * list are read ({@code docs/commit-log.md}); {@code adopt} entries, which take over files plateau
 * wrote, are never an ingest's.
 */
public final class CommittedRows {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> WRITING = Set.of("create", "append", "replace-partitions");

  private final ObjectStore store;
  private final String uuid;
  private final String writerIdPrefix;
  private long nextVersion;
  private long rows;
  private long versions;

  /**
   * @param afterVersion the log's latest version before the ingest first started (-1: no log)
   * @param writerIdPrefix the prefix of the ingest's writer ids; not empty
   */
  public CommittedRows(ObjectStore store, String uuid, long afterVersion, String writerIdPrefix) {
    if (writerIdPrefix.isEmpty()) {
      throw new IllegalArgumentException("an empty writer id prefix would match every writer");
    }
    this.store = store;
    this.uuid = uuid;
    this.writerIdPrefix = writerIdPrefix;
    this.nextVersion = afterVersion + 1;
  }

  /** Reads the entries committed since the last call; returns the ingest's rows so far. */
  public synchronized long refresh() throws IOException {
    while (true) {
      String key = DatasetKeys.logEntryKey(uuid, nextVersion);
      byte[] data;
      try {
        data = store.get(key);
      } catch (NoSuchObjectException e) {
        return rows;
      }
      JsonNode entry;
      try {
        entry = JSON.readTree(data);
      } catch (IOException e) {
        throw new CorruptDatasetException("Cannot read " + store.url() + key + ": it is not JSON (" + e.getMessage()
            + ")");
      }
      if (entry.path("writer_id").asText("").startsWith(writerIdPrefix)
          && WRITING.contains(entry.path("operation").asText())) {
        versions++;
        for (JsonNode file : entry.path("add")) {
          rows += Math.max(0, file.path("rows").asLong(0));
        }
      }
      nextVersion++;
    }
  }

  /** How many versions the ingest has committed, as of the last {@link #refresh()}. */
  public synchronized long versions() {
    return versions;
  }
}
