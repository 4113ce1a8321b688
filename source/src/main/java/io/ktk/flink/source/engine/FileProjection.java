package io.ktk.flink.source.engine;

import io.ktk.flink.source.planner.DatasetRead;
import io.ktk.flink.source.planner.PlannedFile;
import io.ktk.flink.source.planner.RowMerge;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.metadata.PrimaryKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The columns to read from one data file of a dataset and where they go: {@code readable} are the
 * file's columns to read, in order; {@code slots[i]} is the position among them of the i-th wanted
 * column, or -1 when the file lacks it (it then reads as null, in a cube dataset); {@code deleted}
 * is the position of {@value PrimaryKey#DELETED_COLUMN} among them (a dataset with a primary key,
 * or a cube dataset written from a changelog, whose key is its cell), or -1.
 *
 * <p>A file that lacks a key column does not belong to the dataset; a plain dataset's file that
 * lacks any wanted column is corrupt (a plain dataset's schema cannot gain columns): {@link
 * CorruptDatasetException}.
 */
record FileProjection(List<String> readable, int[] slots, int deleted) {

  /**
   * @param wanted the columns wanted, key columns first
   * @param present the file's columns
   * @param withDeletes whether the deleted column is read too, when the dataset has a key and the file the column
   */
  static FileProjection of(DatasetRead dataset, PlannedFile file, List<Field> wanted, Set<String> present,
      boolean withDeletes) {
    List<String> readable = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    int[] slots = new int[wanted.size()];
    for (int i = 0; i < wanted.size(); i++) {
      String name = wanted.get(i).getName();
      if (present.contains(name)) {
        slots[i] = readable.size();
        readable.add(name);
      } else if (i < dataset.keyColumns().size()) {
        throw new CorruptDatasetException("Cannot read data file " + file.key() + " of dataset '" + dataset.uuid()
            + "': it lacks the dimension column '" + name + "'");
      } else {
        slots[i] = -1;
        missing.add(name);
      }
    }
    if (!missing.isEmpty() && dataset.merge() != RowMerge.CELLS) {
      throw new CorruptDatasetException("Cannot read data file " + file.key() + " of dataset '" + dataset.uuid()
          + "': it lacks columns " + missing + " of the committed schema");
    }
    int deleted = -1;
    // a cube dataset written from a changelog has change files too: its deletes remove cells
    if (withDeletes && dataset.merge() != RowMerge.NONE && present.contains(PrimaryKey.DELETED_COLUMN)) {
      deleted = readable.size();
      readable.add(PrimaryKey.DELETED_COLUMN);
    }
    return new FileProjection(readable, slots, deleted);
  }
}
