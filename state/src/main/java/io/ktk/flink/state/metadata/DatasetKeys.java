package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.NavigableSet;
import java.util.OptionalLong;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The object keys of a dataset below a store root ({@code docs/design.md}, section 4), for dataset {@code <uuid>}:
 *
 * <pre>
 * &lt;uuid&gt;.by-dataset-metadata.json                         the published plateau view
 * &lt;uuid&gt;.by-dataset-metadata.msgpack.zstd                 the same, as plateau's msgpack variant
 * &lt;uuid&gt;/table/_common_metadata                           the schema
 * &lt;uuid&gt;/table/p=1/q=a/&lt;file id&gt;.parquet                   the data file of label p=1/q=a/&lt;file id&gt;
 * &lt;uuid&gt;/indices/&lt;col&gt;/2020-01-02T03%3A04%3A05.123456.by-dataset-index.parquet
 * &lt;uuid&gt;/_ktk_log/00000000000000000042.json               commit log entry of version 42
 * </pre>
 *
 * <p>Index file names are plateau's: the column and the creation time (naive UTC, Python's
 * {@code datetime.isoformat()}: microseconds, and no fraction when they are zero) percent-encoded.
 * Dataset uuids consist of {@code A-Z a-z 0-9 + - _}, as plateau requires.
 */
public final class DatasetKeys {
  /** The only table name of plateau 4 datasets and Kartothek cubes. */
  public static final String TABLE = "table";

  public static final String METADATA_JSON_SUFFIX = ".by-dataset-metadata.json";
  public static final String METADATA_MSGPACK_SUFFIX = ".by-dataset-metadata.msgpack.zstd";
  public static final String INDEX_SUFFIX = ".by-dataset-index.parquet";
  public static final String PARQUET_SUFFIX = ".parquet";
  public static final String COMMON_METADATA = "_common_metadata";
  public static final String LOG_DIRECTORY = "_ktk_log";

  private static final Pattern UUID = Pattern.compile("[a-zA-Z0-9+\\-_]+");
  private static final Pattern LOG_FILE = Pattern.compile("[0-9]{20}\\.json");
  // One past '/' in key order: every "<uuid>/..." key sorts below "<uuid>0".
  private static final char AFTER_SLASH = '/' + 1;

  private DatasetKeys() {}

  /** Whether a string is a valid plateau dataset uuid ({@code [a-zA-Z0-9+\-_]+}). */
  public static boolean isValidUuid(String uuid) {
    return uuid != null && UUID.matcher(uuid).matches();
  }

  public static String metadataJsonKey(String uuid) {
    return checkUuid(uuid) + METADATA_JSON_SUFFIX;
  }

  public static String metadataMsgpackKey(String uuid) {
    return checkUuid(uuid) + METADATA_MSGPACK_SUFFIX;
  }

  public static String commonMetadataKey(String uuid) {
    return checkUuid(uuid) + "/" + TABLE + "/" + COMMON_METADATA;
  }

  /** {@code <uuid>/table/<label>.parquet}. */
  public static String dataFileKey(String uuid, PartitionLabel label) {
    requireNonNull(label, "label is null");
    return checkUuid(uuid) + "/" + TABLE + "/" + label + PARQUET_SUFFIX;
  }

  /**
   * {@code <uuid>/indices/<col>/<timestamp>.by-dataset-index.parquet} with the creation time as
   * plateau names it, e.g. {@code 2020-01-02T03%3A04%3A05.123456}; the time is truncated to
   * microseconds, as Python's datetime.
   */
  public static String indexFileKey(String uuid, String column, Instant creationTime) {
    requireNonNull(column, "column is null");
    requireNonNull(creationTime, "creationTime is null");
    LocalDateTime utc = LocalDateTime.ofInstant(creationTime.truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC);
    String iso = utc.toLocalDate() + "T" + String.format("%02d:%02d:%02d", utc.getHour(), utc.getMinute(), utc.getSecond())
        + (utc.getNano() == 0 ? "" : String.format(".%06d", utc.getNano() / 1000));
    return checkUuid(uuid) + "/indices/" + PartitionValues.encodeColumnName(column) + "/"
        + PercentEncoding.quote(iso) + INDEX_SUFFIX;
  }

  /** {@code <uuid>/_ktk_log/}: the prefix of all commit log entries. */
  public static String logPrefix(String uuid) {
    return checkUuid(uuid) + "/" + LOG_DIRECTORY + "/";
  }

  /** {@code <uuid>/_ktk_log/<version, 20 digits>.json}: keys sort like versions. */
  public static String logEntryKey(String uuid, long version) {
    if (version < 0) {
      throw new IllegalArgumentException("version is negative: " + version);
    }
    return logPrefix(uuid) + String.format("%020d", version) + ".json";
  }

  /** The version of a commit log entry key of the dataset, or empty for any other key. */
  public static OptionalLong logVersion(String uuid, String key) {
    String prefix = logPrefix(uuid);
    if (key == null || !key.startsWith(prefix) || !LOG_FILE.matcher(key.substring(prefix.length())).matches()) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(Long.parseLong(key.substring(prefix.length(), prefix.length() + 20)));
  }

  /** The uuids of all datasets in the store: every root key ending in a metadata suffix (JSON or msgpack). */
  public static NavigableSet<String> discoverDatasetUuids(ObjectStore store) throws IOException {
    return discoverDatasetUuids(store, "");
  }

  /**
   * The uuids starting with {@code uuidPrefix} (e.g. {@code cube++}) of all datasets in the store.
   *
   * <p>The store lists recursively, so below each {@code <uuid>/} directory the listing restarts
   * after it instead of reading every data file: one listing per dataset, not per file.
   */
  public static NavigableSet<String> discoverDatasetUuids(ObjectStore store, String uuidPrefix) throws IOException {
    requireNonNull(store, "store is null");
    requireNonNull(uuidPrefix, "uuidPrefix is null");
    if (uuidPrefix.indexOf('/') >= 0) {
      throw new IllegalArgumentException("uuidPrefix contains '/': " + uuidPrefix);
    }
    NavigableSet<String> uuids = new TreeSet<>();
    Iterator<ObjectInfo> it = store.list(uuidPrefix);
    while (it.hasNext()) {
      String key = it.next().key();
      int slash = key.indexOf('/');
      if (slash >= 0) {
        // Skips the whole directory: the key "<dir>0" (never a metadata key) bounds all "<dir>/..." keys.
        it = store.list(uuidPrefix, key.substring(0, slash) + AFTER_SLASH);
      } else {
        addIfMetadata(uuids, key);
      }
    }
    return uuids;
  }

  private static void addIfMetadata(NavigableSet<String> uuids, String key) {
    for (String suffix : new String[] {METADATA_JSON_SUFFIX, METADATA_MSGPACK_SUFFIX}) {
      if (key.endsWith(suffix)) {
        String uuid = key.substring(0, key.length() - suffix.length());
        if (isValidUuid(uuid)) {
          uuids.add(uuid);
        }
      }
    }
  }

  private static String checkUuid(String uuid) {
    requireNonNull(uuid, "uuid is null");
    if (!isValidUuid(uuid)) {
      throw new IllegalArgumentException("Invalid dataset uuid '" + uuid + "': plateau allows only [a-zA-Z0-9+-_]");
    }
    return uuid;
  }
}
