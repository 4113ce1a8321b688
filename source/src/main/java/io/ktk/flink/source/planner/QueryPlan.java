package io.ktk.flink.source.planner;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A planned cube query: the checked query and its groups in output order, over pinned versions of
 * the datasets. Reading the groups in order and concatenating their rows gives the query's result.
 *
 * @param query the checked query
 * @param versions the version of every dataset taking part, by dataset id
 * @param groups the groups, in output order (by {@code partition_by} values, else by partition values)
 */
public record QueryPlan(ResolvedQuery query, Map<String, Long> versions, List<QueryGroup> groups) {
  public QueryPlan {
    requireNonNull(query, "query is null");
    versions = Collections.unmodifiableMap(new TreeMap<>(versions));
    groups = List.copyOf(groups);
  }

  public int fileCount() {
    return groups.stream().mapToInt(QueryGroup::fileCount).sum();
  }

  @Override
  public String toString() {
    return "QueryPlan{" + query.cube().name() + " " + versions + ", groups=" + groups.size() + ", files="
        + fileCount() + "}";
  }
}
