package io.ktk.flink.source.planner;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.Internal;

/**
 * One physical partition of a query group: the seed's partition and, aligned with it, the
 * partitions of the same partition values in the other datasets.
 *
 * <p>Each dataset's files are in the order they were written: by the version that added them, then
 * by label (files of one commit have no order among themselves; the label makes it deterministic).
 * When a cell appears in several files of a dataset, the row of the file written last wins
 * (Kartothek keeps the last row of a cell), and within a file the last row.
 *
 * @param path the seed's physical partition, e.g. {@code p=1/q=a}
 * @param partitionValues the typed values of the partition columns, in cube order
 * @param files per dataset id of the query, its files in this partition in write order (empty for
 *     an enrichment without this partition)
 */
@Internal
public record GroupPartition(String path, List<Object> partitionValues, Map<String, List<PlannedFile>> files) {
  public GroupPartition {
    requireNonNull(path, "path is null");
    partitionValues = Collections.unmodifiableList(new ArrayList<>(partitionValues));
    Map<String, List<PlannedFile>> copy = new LinkedHashMap<>();
    files.forEach((id, list) -> copy.put(id, List.copyOf(list)));
    files = Collections.unmodifiableMap(copy);
  }

  /** The files of dataset {@code datasetId} (empty when it has none here). */
  public List<PlannedFile> filesOf(String datasetId) {
    return files.getOrDefault(datasetId, List.of());
  }

  public int fileCount() {
    return files.values().stream().mapToInt(List::size).sum();
  }
}
