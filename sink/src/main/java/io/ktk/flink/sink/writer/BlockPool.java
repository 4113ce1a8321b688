package io.ktk.flink.sink.writer;

/**
 * The fixed-size blocks that column buffers keep their values in ({@link ValueBlocks}), shared by
 * all partition buffers of a writer subtask. A buffer written as a file gives its blocks back here
 * and the next rows of any partition take them again: values never move to a larger array, and a
 * steady stream leaves no garbage behind its buffers.
 *
 * <p>Pooled blocks are memory the heap holds, so they count against the {@link MemoryBudget} as
 * the blocks buffers hold do: a block moves between a buffer and the pool without changing what is
 * counted. The pool keeps only what the budget allows ({@link #trim}): when the buffers need the
 * room, pooled blocks go back to the heap first.
 */
final class BlockPool {
  /** Bytes of a block: 32 KiB, 4,096 longs. */
  static final int BLOCK_BYTES = 1 << 15;
  static final int SHIFT = 15;
  static final int MASK = BLOCK_BYTES - 1;

  private final MemoryBudget budget;
  private byte[][] free = new byte[16][];
  private int freeCount;

  BlockPool(MemoryBudget budget) {
    this.budget = budget;
  }

  /** A block for a buffer, pooled or new; its old content is garbage. The caller counts it as its own. */
  byte[] take() {
    if (freeCount == 0) {
      return new byte[BLOCK_BYTES];
    }
    byte[] block = free[--freeCount];
    free[freeCount] = null;
    budget.add(-BLOCK_BYTES);
    return block;
  }

  /** Takes back a block a buffer no longer counts. */
  void give(byte[] block) {
    if (freeCount == free.length) {
      byte[][] grown = new byte[free.length * 2][];
      System.arraycopy(free, 0, grown, 0, freeCount);
      free = grown;
    }
    free[freeCount++] = block;
    budget.add(BLOCK_BYTES);
  }

  /** Gives pooled blocks back to the heap while the budget is exceeded. */
  void trim() {
    while (freeCount > 0 && budget.exceeded()) {
      free[--freeCount] = null;
      budget.add(-BLOCK_BYTES);
    }
  }

  /** Gives every pooled block back to the heap (no rows will come). */
  void clear() {
    budget.add(-(long) BLOCK_BYTES * freeCount);
    java.util.Arrays.fill(free, 0, freeCount, null);
    freeCount = 0;
  }

  /** Bytes the pool holds. */
  long pooledBytes() {
    return (long) BLOCK_BYTES * freeCount;
  }
}
