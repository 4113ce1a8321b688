package io.ktk.flink.sink.compaction;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;

/**
 * The planned rewrite of small files of one physical partition into fewer files.
 *
 * @param partition the physical partition, e.g. {@code day=2024-01-01} ("" when unpartitioned)
 * @param trigger why it is compacted
 * @param filesBefore the partition's files when planned
 * @param bytesBefore their bytes
 * @param outputs the files to write, each from a run of the partition's files
 */
public record PartitionRewrite(
    String partition, Trigger trigger, int filesBefore, long bytesBefore, List<PlannedOutput> outputs) {

  /** Why a partition is compacted. */
  public enum Trigger {
    /** It has a run of at least {@code compaction.min-input-files} small files. */
    MIN_INPUT_FILES,
    /** Its newest file is older than {@code compaction.idle-partition-after}. */
    IDLE,
    /**
     * It holds change files of a dataset with a primary key, folded into one file of its rows as of
     * the version planned before the plateau view is published ({@code docs/cdc.md}).
     */
    FOLD
  }

  public PartitionRewrite {
    requireNonNull(partition, "partition is null");
    requireNonNull(trigger, "trigger is null");
    outputs = List.copyOf(outputs);
    if (outputs.isEmpty()) {
      throw new IllegalArgumentException("a rewrite of partition '" + partition + "' needs at least one output");
    }
  }

  /** The files read, in order. */
  public List<CompactionInput> inputs() {
    List<CompactionInput> inputs = new ArrayList<>();
    outputs.forEach(output -> inputs.addAll(output.inputs()));
    return inputs;
  }

  public int inputFiles() {
    return outputs.stream().mapToInt(output -> output.inputs().size()).sum();
  }

  public long inputBytes() {
    return outputs.stream().mapToLong(PlannedOutput::inputBytes).sum();
  }
}
