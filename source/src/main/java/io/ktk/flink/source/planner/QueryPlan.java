package io.ktk.flink.source.planner;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.Internal;

/**
 * A planned cube query (or query of a plain dataset): the checked query and its groups in output
 * order, over pinned versions of the datasets. Reading the groups in order and concatenating their
 * rows gives the query's result.
 *
 * @param query the checked query
 * @param versions the version of every dataset taking part, by dataset id
 * @param groups the groups, in output order (by {@code partition_by} values, else by partition values)
 */
@Internal
public record QueryPlan(ResolvedQuery query, Map<String, Long> versions, List<QueryGroup> groups) {
  public QueryPlan {
    requireNonNull(query, "query is null");
    versions = Collections.unmodifiableMap(new TreeMap<>(versions));
    groups = List.copyOf(groups);
  }

  /**
   * The plan restricted to the seed files added after seed version {@code version} (by {@link
   * PlannedFile#addedIn()}): partitions keep their other datasets' files, and partitions and groups
   * left without seed files are dropped. Since files are ordered by the version that added them, a
   * cell held by such a file has its last-written seed row there, so the restricted plan returns
   * exactly the cells those files wrote (with the other datasets as planned). What continuous
   * reading serves of a later commit.
   */
  public QueryPlan seedFilesAddedAfter(long version) {
    String seed = query.seed().datasetId();
    List<QueryGroup> kept = new ArrayList<>();
    for (QueryGroup group : groups) {
      List<GroupPartition> partitions = new ArrayList<>();
      for (GroupPartition partition : group.partitions()) {
        List<PlannedFile> added = partition.filesOf(seed).stream().filter(f -> f.addedIn() > version).toList();
        if (added.isEmpty()) {
          continue;
        }
        Map<String, List<PlannedFile>> files = new LinkedHashMap<>(partition.files());
        files.put(seed, added);
        partitions.add(new GroupPartition(partition.path(), partition.partitionValues(), files));
      }
      if (!partitions.isEmpty()) {
        kept.add(new QueryGroup(group.key(), partitions));
      }
    }
    return new QueryPlan(query, versions, kept);
  }

  public int fileCount() {
    return groups.stream().mapToInt(QueryGroup::fileCount).sum();
  }

  @Override
  public String toString() {
    return "QueryPlan{" + query.target().describe() + " " + versions + ", groups=" + groups.size() + ", files="
        + fileCount() + "}";
  }
}
