package io.ktk.flink.state.commit;

import java.util.Locale;

/** What a log entry does; its name in the entry's {@code operation} field. */
public enum LogOperation {
  /** Creates the dataset: partition keys, index columns, schema, first files. */
  CREATE,
  /** Takes over a dataset written by plateau: version 0 holds its whole state. */
  ADOPT,
  /** Adds files. Commutes with other appends. */
  APPEND,
  /** Replaces every file of the physical partitions it writes (Kartothek's delete_scope). */
  REPLACE_PARTITIONS,
  /** Adds a secondary index over the existing files. */
  ADD_INDEX,
  /** Sets user or cube metadata keys. */
  SET_METADATA,
  /**
   * Removes named files and adds others holding the same rows (compaction, folding of changes):
   * conflicts only when a file it removes is gone already; commutes with appends. Each added file
   * carries a sequence, the version of the newest rows it holds, which orders it among the
   * partition's other files as those rows were ordered.
   */
  REWRITE,
  /**
   * Takes over what another writer (plateau) changed in the published view since this log
   * published it: the files it added and removed, and its index entries for them.
   */
  ADOPT_CHANGES,
  /**
   * Marks every version before {@code retain_from} as expired: their entries and snapshots may be
   * deleted, and files only they referenced become garbage.
   */
  EXPIRE;

  public String jsonName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  static LogOperation fromJsonName(String name) {
    for (LogOperation operation : values()) {
      if (operation.jsonName().equals(name)) {
        return operation;
      }
    }
    return null;
  }
}
