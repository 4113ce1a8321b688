package io.ktk.flink.sink.writer;

/**
 * The memory of all partition buffers of one writer subtask, against a limit. Buffers report
 * every change of the capacity they hold (not of what they use: a grown array costs its whole
 * length), so what is counted is what the heap holds.
 */
final class MemoryBudget {
  private final long limit;
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

  long limit() {
    return limit;
  }

  boolean exceeded() {
    return used > limit;
  }
}
