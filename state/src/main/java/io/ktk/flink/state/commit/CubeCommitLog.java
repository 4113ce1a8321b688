package io.ktk.flink.state.commit;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.metadata.CubeNames;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The log of a cube's transactions: which dataset versions a job committed together for one
 * checkpoint. A job that writes several datasets of a cube commits each dataset's files as one
 * version of that dataset's own log, marked {@code "cube_transaction": "<cube>"} and carrying the
 * job's writer id and checkpoint id; once all of them are committed it records the transaction
 * here. Readers of the cube ({@link CubeVersions}) do not look past a marked entry that no record
 * covers, so they see a checkpoint of all datasets or of none.
 *
 * <p>Records are {@code <cube>++_ktk_cube/_ktk_log/<20-digit version>.json}, created with
 * create-if-absent like dataset log entries, numbered from 0 without gaps:
 *
 * <pre>{@code
 * { "format": "ktk-flink-cube-log", "format_version": 1, "version": 3,
 *   "timestamp": "2026-11-22T10:00:00.123Z", "writer_id": "8c0f...", "checkpoint_id": 7,
 *   "transaction": {"seed": 12, "weather": 5},     // the versions this transaction committed
 *   "datasets": {"seed": 12, "weather": 5, "sales": 3} }
 * }</pre>
 *
 * {@code datasets} is cumulative: per dataset id, the highest version of all transactions recorded
 * so far, so a reader needs the latest record only. Recording the same transaction twice (a replay
 * after a crash between record and acknowledgement) changes nothing. The directory holds no
 * {@code .by-dataset-metadata.*} file, so Kartothek, plateau and this project's dataset discovery do
 * not take it for a dataset; {@code _ktk_cube} is reserved as a dataset id.
 */
public final class CubeCommitLog {
  /** The dataset id under which the cube log lives; no dataset of a cube may have it. */
  public static final String DATASET_ID = "_ktk_cube";

  static final String FORMAT = "ktk-flink-cube-log";
  static final int FORMAT_VERSION = 1;
  private static final int MAX_ATTEMPTS = 1000;
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One record of the cube log.
   *
   * @param transaction the version each dataset got from this transaction, by dataset id
   * @param datasets cumulative: per dataset id, the highest version any recorded transaction gave it
   */
  public record Record(long version, Instant timestamp, String writerId, long checkpointId,
      NavigableMap<String, Long> transaction, NavigableMap<String, Long> datasets) {
    public Record {
      requireNonNull(timestamp, "timestamp is null");
      requireNonNull(writerId, "writerId is null");
      transaction = Collections.unmodifiableNavigableMap(new TreeMap<>(transaction));
      datasets = Collections.unmodifiableNavigableMap(new TreeMap<>(datasets));
    }
  }

  private final ObjectStore store;
  private final String cube;
  /** The highest version known to exist, or -1. */
  private long known = -1;

  private CubeCommitLog(ObjectStore store, String cube) {
    this.store = store;
    this.cube = cube;
  }

  /** The log of cube {@code cube} in {@code store}; reading and writing happen on demand. */
  public static CubeCommitLog of(ObjectStore store, String cube) {
    requireNonNull(store, "store is null");
    CubeNames.checkName("cube name", cube);
    return new CubeCommitLog(store, cube);
  }

  /** {@code <cube>++_ktk_cube/}: every object of the cube log is below it. */
  public static String prefix(String cube) {
    return uuid(cube) + "/";
  }

  private static String uuid(String cube) {
    return CubeNames.uuidPrefix(cube) + DATASET_ID;
  }

  /** The key of record {@code version}. */
  public static String recordKey(String cube, long version) {
    return DatasetKeys.logEntryKey(uuid(cube), version);
  }

  /** The latest record, or empty when the cube has none. */
  public Optional<Record> latest() throws IOException {
    while (true) {
      long version = latestVersion();
      if (version < 0) {
        return Optional.empty();
      }
      try {
        return Optional.of(read(version));
      } catch (NoSuchObjectException e) {
        known = -1; // deleted meanwhile (the cube was deleted): look again from the start
        if (!exists(0)) {
          return Optional.empty();
        }
      }
    }
  }

  /**
   * The latest record written at or before {@code time}, or empty when there was none by then.
   * Records are written in time order (each one's time is taken after the record before it was
   * read), so a binary search over the versions finds it.
   */
  public Optional<Record> asOf(Instant time) throws IOException {
    requireNonNull(time, "time is null");
    long high = latestVersion();
    if (high < 0 || read(0).timestamp().isAfter(time)) {
      return Optional.empty();
    }
    Record found = read(high);
    if (!found.timestamp().isAfter(time)) {
      return Optional.of(found);
    }
    long low = 0; // written at or before time; high: after it
    found = read(0);
    while (high - low > 1) {
      long middle = low + (high - low) / 2;
      Record record = read(middle);
      if (record.timestamp().isAfter(time)) {
        high = middle;
      } else {
        low = middle;
        found = record;
      }
    }
    return Optional.of(found);
  }

  /**
   * Records that transaction {@code (writerId, checkpointId)} committed {@code versions} (by dataset
   * id), as the next record.
   */
  public Record record(String writerId, long checkpointId, Map<String, Long> versions) throws IOException {
    requireNonNull(writerId, "writerId is null");
    requireNonNull(versions, "versions is null");
    versions.keySet().forEach(id -> CubeNames.checkName("dataset id", id));
    for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      Optional<Record> latest = latest();
      NavigableMap<String, Long> datasets = new TreeMap<>(latest.map(Record::datasets).orElse(new TreeMap<>()));
      versions.forEach((id, version) -> datasets.merge(id, version, Math::max));
      long version = latest.map(r -> r.version() + 1).orElse(0L);
      Record record = new Record(version, Instant.now(), writerId, checkpointId, new TreeMap<>(versions), datasets);
      if (claim(version, write(record))) {
        known = version;
        return record;
      }
    }
    throw new CommitConflictException("Cannot record checkpoint " + checkpointId + " of writer " + writerId
        + " in the log of cube '" + cube + "' in " + store.url() + ": " + MAX_ATTEMPTS
        + " versions in a row were taken by other writers");
  }

  /** The highest existing version: forward from the last known one, doubling, then bisecting. */
  private long latestVersion() throws IOException {
    long low = known;
    if (low < 0) {
      if (!exists(0)) {
        return -1;
      }
      low = 0;
    }
    long step = 1;
    while (exists(low + step)) {
      low += step;
      step *= 2;
    }
    long high = low + step; // missing
    while (high - low > 1) {
      long middle = low + (high - low) / 2;
      if (exists(middle)) {
        low = middle;
      } else {
        high = middle;
      }
    }
    known = low;
    return low;
  }

  private boolean exists(long version) throws IOException {
    return store.head(recordKey(cube, version)).isPresent();
  }

  private boolean claim(long version, byte[] bytes) throws IOException {
    String key = recordKey(cube, version);
    try {
      return store.putIfAbsent(key, bytes);
    } catch (IOException failure) {
      try {
        return Arrays.equals(store.get(key), bytes);
      } catch (NoSuchObjectException absent) {
        return false;
      } catch (IOException second) {
        second.addSuppressed(failure);
        throw new CommitStateUnknownException("Cannot tell whether version " + version + " of the log of cube '"
            + cube + "' was written: the store failed while creating " + store.url() + key
            + " and again while reading it back", second);
      }
    }
  }

  private Record read(long version) throws IOException {
    String key = recordKey(cube, version);
    String location = store.url() + key;
    JsonNode root;
    try {
      root = JSON.readTree(store.get(key));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new CorruptDatasetException("Cannot read " + location + ": it is not JSON (" + e.getOriginalMessage()
          + ")", e);
    }
    if (root == null || !FORMAT.equals(root.path("format").asText())
        || root.path("format_version").asInt(-1) != FORMAT_VERSION) {
      throw new CorruptDatasetException("Cannot read " + location + ": it is not a record of format " + FORMAT
          + " version " + FORMAT_VERSION);
    }
    try {
      Record record = new Record(root.path("version").asLong(-1), Instant.parse(root.path("timestamp").asText()),
          root.path("writer_id").asText(), root.path("checkpoint_id").asLong(),
          versions(root.get("transaction"), location), versions(root.get("datasets"), location));
      if (record.version() != version) {
        throw new CorruptDatasetException("Cannot read " + location + ": it says it is version " + record.version());
      }
      return record;
    } catch (DateTimeParseException e) {
      throw new CorruptDatasetException("Cannot read " + location + ": bad timestamp (" + e.getMessage() + ")", e);
    }
  }

  private static NavigableMap<String, Long> versions(JsonNode node, String location) {
    if (node == null || !node.isObject()) {
      throw new CorruptDatasetException("Cannot read " + location + ": dataset versions are missing");
    }
    NavigableMap<String, Long> versions = new TreeMap<>();
    node.fields().forEachRemaining(e -> {
      if (!e.getValue().canConvertToLong() || !e.getValue().isIntegralNumber()) {
        throw new CorruptDatasetException("Cannot read " + location + ": version of dataset " + e.getKey() + " is "
            + e.getValue());
      }
      versions.put(e.getKey(), e.getValue().longValue());
    });
    return versions;
  }

  private static byte[] write(Record record) throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("format", FORMAT);
    root.put("format_version", FORMAT_VERSION);
    root.put("version", record.version());
    root.put("timestamp", record.timestamp().toString());
    root.put("writer_id", record.writerId());
    root.put("checkpoint_id", record.checkpointId());
    ObjectNode transaction = root.putObject("transaction");
    record.transaction().forEach(transaction::put);
    ObjectNode datasets = root.putObject("datasets");
    record.datasets().forEach(datasets::put);
    return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
  }
}
