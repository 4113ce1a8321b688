package io.ktk.flink.source.split;

import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.PlannedFile;
import io.ktk.flink.source.planner.QueryGroup;
import io.ktk.flink.state.types.TypedValueCodec;
import java.io.DataInput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Version 1 of a plain dataset's splits ({@link CubeSplitSerializer#PLAIN_DATASETS}): what its
 * source checkpointed before it read through the cube stack, one data file per split, big-endian,
 * strings as an int length and UTF-8 bytes, values as {@link TypedValueCodec} writes them:
 *
 * <pre>
 * split := string splitId, long version, int v, value{v} (partition values),
 *          string key, string label, long rows, long bytes, long emittedRows
 * </pre>
 *
 * <p>It restores as the split that reads the same file of the same version, with the same rows
 * emitted (a file's rows come in the same order): the dataset's uuid is the key's part before
 * {@code /table/<label>.parquet}. Read only: splits are written in the current layout.
 */
final class FileSplitFormat {
  private FileSplitFormat() {}

  /** Reads a split of version 1: one file. */
  static CubeSplit read(DataInput in) throws IOException {
    String splitId = TypedValueCodec.readString(in);
    long datasetVersion = in.readLong();
    List<Object> values = new ArrayList<>();
    for (int i = CubeSplitSerializer.count(in); i > 0; i--) {
      values.add(TypedValueCodec.read(in));
    }
    String key = TypedValueCodec.readString(in);
    String label = TypedValueCodec.readString(in);
    PlannedFile file = new PlannedFile(key, label, in.readLong(), in.readLong(), -1, false);
    long emittedRows = in.readLong();
    String suffix = "/table/" + label + ".parquet";
    if (!key.endsWith(suffix) || key.length() == suffix.length()) {
      throw new IOException("Unrecognized version or corrupt state: dataset split " + splitId + " has key " + key
          + ", which is not <uuid>" + suffix);
    }
    String uuid = key.substring(0, key.length() - suffix.length());
    int slash = label.lastIndexOf('/');
    GroupPartition partition = new GroupPartition(slash < 0 ? "" : label.substring(0, slash), values,
        Map.of(uuid, List.of(file)));
    try {
      return new CubeSplit(splitId, Map.of(uuid, datasetVersion), new QueryGroup(values, List.of(partition)),
          emittedRows);
    } catch (IllegalArgumentException e) {
      throw new IOException("Unrecognized version or corrupt state: " + e.getMessage(), e);
    }
  }
}
