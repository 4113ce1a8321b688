package io.ktk.flink.sink.compaction;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * What a compaction of one dataset will rewrite, planned against one version of it.
 *
 * @param uuid the dataset
 * @param version the version planned against; the rewrite commits later, after appends that
 *     commute with it
 * @param rewrites per physical partition, in partition order
 */
public record CompactionPlan(String uuid, long version, List<PartitionRewrite> rewrites) {
  public CompactionPlan {
    requireNonNull(uuid, "uuid is null");
    rewrites = List.copyOf(rewrites);
  }

  public boolean isEmpty() {
    return rewrites.isEmpty();
  }

  /** Files the plan reads. */
  public int inputFiles() {
    return rewrites.stream().mapToInt(PartitionRewrite::inputFiles).sum();
  }

  /** Bytes the plan reads. */
  public long inputBytes() {
    return rewrites.stream().mapToLong(PartitionRewrite::inputBytes).sum();
  }

  /** Files the plan writes. */
  public int outputFiles() {
    return rewrites.stream().mapToInt(rewrite -> rewrite.outputs().size()).sum();
  }

  @Override
  public String toString() {
    return "CompactionPlan{" + uuid + "@" + version + ", partitions=" + rewrites.size() + ", files " + inputFiles()
        + " -> " + outputFiles() + ", bytes in " + inputBytes() + "}";
  }
}
