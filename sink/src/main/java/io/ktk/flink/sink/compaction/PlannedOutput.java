package io.ktk.flink.sink.compaction;

import java.util.List;

/**
 * One file a compaction writes: the rows of {@code inputs}, in their order, which is the order
 * readers give them ({@code addedIn}, then label, then row).
 */
public record PlannedOutput(List<InputFile> inputs) {
  public PlannedOutput {
    inputs = List.copyOf(inputs);
    if (inputs.isEmpty()) {
      throw new IllegalArgumentException("an output needs at least one input file");
    }
  }

  /**
   * The sequence of the written file: the highest {@code addedIn} of its inputs, which orders it
   * among the partition's other files as its newest rows were ordered.
   */
  public long sequence() {
    return inputs.stream().mapToLong(InputFile::addedIn).max().orElseThrow();
  }

  public long inputBytes() {
    return inputs.stream().mapToLong(InputFile::bytes).sum();
  }
}
