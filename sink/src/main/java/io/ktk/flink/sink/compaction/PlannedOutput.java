package io.ktk.flink.sink.compaction;

import java.util.List;

/**
 * One file a compaction writes: the rows of {@code inputs}, in their order, which is the order
 * readers give them ({@code addedIn}, then label, then row).
 *
 * @param fromOldest whether the first input is the partition's oldest file: then no older file can
 *     hold a key its rows delete, and a dataset with a primary key drops its deletes
 *     ({@code docs/cdc.md})
 */
public record PlannedOutput(List<CompactionInput> inputs, boolean fromOldest) {
  public PlannedOutput {
    inputs = List.copyOf(inputs);
    if (inputs.isEmpty()) {
      throw new IllegalArgumentException("an output needs at least one input file");
    }
  }

  /** An output whose first input is not known to be the partition's oldest file. */
  public PlannedOutput(List<CompactionInput> inputs) {
    this(inputs, false);
  }

  /**
   * The sequence of the written file: the highest {@code addedIn} of its inputs, which orders it
   * among the partition's other files as its newest rows were ordered.
   */
  public long sequence() {
    return inputs.stream().mapToLong(CompactionInput::addedIn).max().orElseThrow();
  }

  public long inputBytes() {
    return inputs.stream().mapToLong(CompactionInput::bytes).sum();
  }
}
