package io.ktk.flink.source.split;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.source.planner.QueryGroup;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A split of a cube query: one query group, with the dataset versions it was planned at, and how
 * many of its rows a reader has emitted already (so that a restored reader skips them: a group's
 * rows come in a fixed order).
 *
 * @param splitId unique within the query, e.g. {@code group-00012}
 * @param versions the version of every dataset of the cube the group was planned at, by dataset id
 * @param group the group: its key and, per partition, the files of each dataset
 * @param emittedRows rows of the group already emitted (0 for a fresh split)
 */
@Internal
public record CubeSplit(String splitId, Map<String, Long> versions, QueryGroup group, long emittedRows)
    implements SourceSplit {

  public CubeSplit {
    requireNonNull(splitId, "splitId is null");
    versions = Collections.unmodifiableMap(new TreeMap<>(versions));
    requireNonNull(group, "group is null");
    if (emittedRows < 0) {
      throw new IllegalArgumentException("emittedRows is negative: " + emittedRows);
    }
  }

  /** The same split after {@code rows} rows were emitted. */
  public CubeSplit withEmittedRows(long rows) {
    return new CubeSplit(splitId, versions, group, rows);
  }

  @Override
  public String toString() {
    return "CubeSplit{" + splitId + ", key=" + group.key() + ", partitions=" + group.partitions().size() + ", files="
        + group.fileCount() + ", emitted=" + emittedRows + "}";
  }
}
