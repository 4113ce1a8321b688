package io.ktk.flink.state.commit;

import java.util.OptionalLong;

/** Where a dataset's log entries and snapshots live in the store. */
final class LogKeys {
  private static final String ENTRY_SUFFIX = ".json";
  private static final String SNAPSHOT_SUFFIX = ".json.zst";

  private LogKeys() {}

  static String logPrefix(String uuid) {
    return uuid + "/_ktk_log/";
  }

  static String entry(String uuid, long version) {
    return logPrefix(uuid) + String.format("%020d", version) + ENTRY_SUFFIX;
  }

  static String snapshotPrefix(String uuid) {
    return logPrefix(uuid) + "snapshots/";
  }

  static String snapshot(String uuid, long version) {
    return snapshotPrefix(uuid) + String.format("%020d", version) + SNAPSHOT_SUFFIX;
  }

  /** The version of an entry key, or empty if the key is not an entry of this dataset. */
  static OptionalLong entryVersion(String uuid, String key) {
    return versionOf(key, logPrefix(uuid), ENTRY_SUFFIX);
  }

  static OptionalLong snapshotVersion(String uuid, String key) {
    return versionOf(key, snapshotPrefix(uuid), SNAPSHOT_SUFFIX);
  }

  private static OptionalLong versionOf(String key, String prefix, String suffix) {
    if (!key.startsWith(prefix) || !key.endsWith(suffix)
        || key.length() != prefix.length() + 20 + suffix.length()) {
      return OptionalLong.empty();
    }
    String digits = key.substring(prefix.length(), prefix.length() + 20);
    for (int i = 0; i < digits.length(); i++) {
      if (!Character.isDigit(digits.charAt(i))) {
        return OptionalLong.empty();
      }
    }
    return OptionalLong.of(Long.parseLong(digits));
  }
}
