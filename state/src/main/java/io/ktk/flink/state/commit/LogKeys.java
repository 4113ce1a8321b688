package io.ktk.flink.state.commit;

import io.ktk.flink.state.metadata.DatasetKeys;
import java.util.OptionalLong;

/**
 * Where a dataset's log entries ({@link DatasetKeys#logEntryKey}) and snapshots live in the store:
 * {@code <uuid>/_ktk_log/<20-digit version>.json} and {@code
 * <uuid>/_ktk_log/snapshots/<20-digit version>.json.zst}. Public for tools that copy a log.
 */
public final class LogKeys {
  private static final String SNAPSHOT_SUFFIX = ".json.zst";

  private LogKeys() {}

  static String logPrefix(String uuid) {
    return DatasetKeys.logPrefix(uuid);
  }

  static String entry(String uuid, long version) {
    return DatasetKeys.logEntryKey(uuid, version);
  }

  static OptionalLong entryVersion(String uuid, String key) {
    return DatasetKeys.logVersion(uuid, key);
  }

  /**
   * {@code <uuid>/_ktk_log/_hint.json}: the newest snapshot's version, so that opening a log reads
   * that snapshot without listing the others. Advisory: a stale or missing hint costs a listing,
   * never correctness.
   */
  static String hint(String uuid) {
    return logPrefix(uuid) + "_hint.json";
  }

  /** {@code <uuid>/_ktk_log/snapshots/}. */
  public static String snapshotPrefix(String uuid) {
    return logPrefix(uuid) + "snapshots/";
  }

  static String snapshot(String uuid, long version) {
    return snapshotPrefix(uuid) + String.format("%020d", version) + SNAPSHOT_SUFFIX;
  }

  /** The version of a snapshot key of the dataset, or empty for any other key. */
  public static OptionalLong snapshotVersion(String uuid, String key) {
    String prefix = snapshotPrefix(uuid);
    if (!key.startsWith(prefix) || !key.endsWith(SNAPSHOT_SUFFIX)
        || key.length() != prefix.length() + 20 + SNAPSHOT_SUFFIX.length()) {
      return OptionalLong.empty();
    }
    String digits = key.substring(prefix.length(), prefix.length() + 20);
    return digits.chars().allMatch(Character::isDigit) ? OptionalLong.of(Long.parseLong(digits)) : OptionalLong.empty();
  }
}
