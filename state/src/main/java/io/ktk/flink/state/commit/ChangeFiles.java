package io.ktk.flink.state.commit;

import io.ktk.flink.state.metadata.PrimaryKey;
import java.util.List;

/**
 * The change files of a dataset with a primary key ({@code docs/cdc.md}): files whose rows are
 * changes readers merge by key (they carry {@value PrimaryKey#DELETED_COLUMN}, or their schema is
 * unknown: files another writer added). plateau does not merge, so its view lists none of them:
 * they are folded first.
 */
public final class ChangeFiles {
  private ChangeFiles() {}

  /** Whether {@code file} of a dataset with a primary key holds changes to fold before plateau sees it. */
  public static boolean isChangeFile(DataFile file) {
    return file.physicalSchema() == null || file.physicalSchema().getFields().stream()
        .anyMatch(field -> field.getName().equals(PrimaryKey.DELETED_COLUMN));
  }

  /**
   * Refuses to publish a state of a dataset with a primary key that lists change files: plateau
   * would read a key twice, and deleted rows.
   */
  static void checkNone(DatasetState state) {
    if (PrimaryKey.of(state.uuid(), state.metadata()).isEmpty()) {
      return;
    }
    List<String> changes = state.files().values().stream().filter(ChangeFiles::isChangeFile).map(DataFile::label)
        .limit(3).toList();
    if (!changes.isEmpty()) {
      throw new IllegalStateException("Cannot publish the plateau view of version " + state.version()
          + " of dataset '" + state.uuid() + "': it has a primary key and lists change files (" + changes
          + "...), which plateau would read as rows; fold them first (io.ktk.flink.sink.compaction.ViewFold)");
    }
  }
}
