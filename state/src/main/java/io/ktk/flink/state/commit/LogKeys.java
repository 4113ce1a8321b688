package io.ktk.flink.state.commit;

import io.ktk.flink.state.metadata.DatasetKeys;
import java.util.OptionalLong;

/** Where a dataset's log entries ({@link DatasetKeys#logEntryKey}) and snapshots live in the store. */
final class LogKeys {
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

  static String snapshotPrefix(String uuid) {
    return logPrefix(uuid) + "snapshots/";
  }

  static String snapshot(String uuid, long version) {
    return snapshotPrefix(uuid) + String.format("%020d", version) + SNAPSHOT_SUFFIX;
  }

  static OptionalLong snapshotVersion(String uuid, String key) {
    String prefix = snapshotPrefix(uuid);
    if (!key.startsWith(prefix) || !key.endsWith(SNAPSHOT_SUFFIX)
        || key.length() != prefix.length() + 20 + SNAPSHOT_SUFFIX.length()) {
      return OptionalLong.empty();
    }
    String digits = key.substring(prefix.length(), prefix.length() + 20);
    return digits.chars().allMatch(Character::isDigit) ? OptionalLong.of(Long.parseLong(digits)) : OptionalLong.empty();
  }
}
