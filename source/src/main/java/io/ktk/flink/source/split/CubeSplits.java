package io.ktk.flink.source.split;

import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.QueryGroup;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.planner.RowMerge;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * Cuts a planned query into splits: one per query group, or, for a group of more physical
 * partitions than {@code maxPartitionsPerSplit}, several, each a run of consecutive partitions of
 * the group (same key). A group's rows are its partitions' rows in partition order, so reading the
 * splits in the order returned and concatenating their rows gives the query's result.
 *
 * <p>Split ids: {@code <prefix>group-00012} for a whole group, {@code <prefix>group-00012.003} for
 * the fourth part of a cut one; the prefix tells discoveries of a continuous source apart.
 *
 * <p>A plain dataset without a key ({@link RowMerge#NONE}) is planned with each file a partition of
 * its own (its rows need no other file's): it is cut into one split per file, {@code
 * <prefix>file-000012}, in plan order.
 */
@Internal
public final class CubeSplits {
  private CubeSplits() {}

  /** The split id prefix of the {@code n}-th discovery of a continuous source: {@code d00012-}. */
  public static String discoveryPrefix(long n) {
    return String.format("d%05d-", n);
  }

  /**
   * Whether {@code split} was made by a discovery of a continuous source (its id has a {@link
   * #discoveryPrefix}), not from the versions pinned when the source was built.
   */
  public static boolean discovered(CubeSplit split) {
    return split.splitId().matches("d\\d{5,}-.*");
  }

  /**
   * @param plan the planned query; its versions go into every split
   * @param prefix prepended to every split id
   * @param maxPartitionsPerSplit at least 1
   */
  public static List<CubeSplit> of(QueryPlan plan, String prefix, int maxPartitionsPerSplit) {
    if (maxPartitionsPerSplit < 1) {
      throw new IllegalArgumentException("maxPartitionsPerSplit must be at least 1: " + maxPartitionsPerSplit);
    }
    return cut(plan, prefix, maxPartitionsPerSplit);
  }

  /**
   * Like {@link #of(QueryPlan, String, int)}, but cuts groups finer when that gives too few splits
   * for {@code readers} readers: at most {@code ceil(partitions / readers)} partitions per split, so
   * that a query of one group of ten partitions keeps two readers busy, not one.
   */
  public static List<CubeSplit> of(QueryPlan plan, String prefix, int maxPartitionsPerSplit, int readers) {
    if (maxPartitionsPerSplit < 1 || readers < 1) {
      throw new IllegalArgumentException(
          "maxPartitionsPerSplit and readers must be at least 1: " + maxPartitionsPerSplit + ", " + readers);
    }
    long partitions = plan.groups().stream().mapToLong(group -> group.partitions().size()).sum();
    long perReader = Math.max(1, (partitions + readers - 1) / readers);
    return cut(plan, prefix, (int) Math.min(maxPartitionsPerSplit, perReader));
  }

  private static List<CubeSplit> cut(QueryPlan plan, String prefix, int maxPartitionsPerSplit) {
    List<CubeSplit> splits = new ArrayList<>();
    List<QueryGroup> groups = plan.groups();
    if (plan.query().seed().merge() == RowMerge.NONE) {
      for (QueryGroup group : groups) {
        for (GroupPartition file : group.partitions()) {
          splits.add(new CubeSplit(prefix + String.format("file-%06d", splits.size()), plan.versions(),
              new QueryGroup(group.key(), List.of(file)), 0));
        }
      }
      return splits;
    }
    for (int i = 0; i < groups.size(); i++) {
      QueryGroup group = groups.get(i);
      String id = prefix + String.format("group-%05d", i);
      int partitions = group.partitions().size();
      if (partitions <= maxPartitionsPerSplit) {
        splits.add(new CubeSplit(id, plan.versions(), group, 0));
        continue;
      }
      for (int from = 0, part = 0; from < partitions; from += maxPartitionsPerSplit, part++) {
        QueryGroup subset = new QueryGroup(group.key(),
            group.partitions().subList(from, Math.min(partitions, from + maxPartitionsPerSplit)));
        splits.add(new CubeSplit(id + String.format(".%03d", part), plan.versions(), subset, 0));
      }
    }
    return splits;
  }
}
