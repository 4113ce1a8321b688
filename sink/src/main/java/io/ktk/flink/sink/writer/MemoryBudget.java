package io.ktk.flink.sink.writer;

/**
 * The memory of all partition buffers of one writer subtask, against a limit. Buffers report
 * every change of the capacity they hold (not of what they use: a block or array costs its whole
 * length), and the {@link BlockPool} the blocks it keeps for them, so what is counted is what the
 * heap holds.
 */
final class MemoryBudget {
  private final long limit;
  private final BlockPool blocks = new BlockPool(this);
  private long used;

  MemoryBudget(long limit) {
    this.limit = limit;
  }

  void add(long bytes) {
    used += bytes;
  }

  long used() {
    return used;
  }

  /** Bytes the buffers hold: {@link #used} less the blocks pooled for their next rows. */
  long buffered() {
    return used - blocks.pooledBytes();
  }

  long limit() {
    return limit;
  }

  boolean exceeded() {
    return used > limit;
  }

  /** The blocks the buffers of this budget keep their values in. */
  BlockPool blocks() {
    return blocks;
  }
}
