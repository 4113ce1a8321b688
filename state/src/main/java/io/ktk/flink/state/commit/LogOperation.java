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
  SET_METADATA;

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
