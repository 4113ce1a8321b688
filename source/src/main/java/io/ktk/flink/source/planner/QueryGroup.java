package io.ktk.flink.source.planner;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * A query group: the unit of work and of output. Its rows are those of its partitions, joined
 * partition by partition, and they come in the order of the partitions (by partition values),
 * sorted by the query's dimension columns within each.
 *
 * @param key the values the group is formed by: the {@code partition_by} columns' values in their
 *     order, or, without {@code partition_by}, the partition values of its single partition
 * @param partitions its physical partitions, by partition values
 */
@Internal
public record QueryGroup(List<Object> key, List<GroupPartition> partitions) {
  public QueryGroup {
    key = Collections.unmodifiableList(new ArrayList<>(key));
    partitions = List.copyOf(partitions);
  }

  public int fileCount() {
    return partitions.stream().mapToInt(GroupPartition::fileCount).sum();
  }
}
