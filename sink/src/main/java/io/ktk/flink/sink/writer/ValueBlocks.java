package io.ktk.flink.sink.writer;

import static io.ktk.flink.sink.writer.BlockPool.BLOCK_BYTES;
import static io.ktk.flink.sink.writer.BlockPool.MASK;
import static io.ktk.flink.sink.writer.BlockPool.SHIFT;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The bytes of one column's values, addressed by offset, in blocks: byte {@code o} is byte {@code
 * o & MASK} of block {@code o >>> SHIFT}. Numbers are stored little-endian, so a run of them is
 * already their PLAIN encoding.
 *
 * <p>Block 0 starts small and doubles up to a full block (a partition with few rows holds little);
 * every further block is a full one from the writer's {@link BlockPool}, so values never move once
 * written. {@link #clear} keeps block 0 and gives the others back to the pool; {@link #release}
 * gives back all. Every change of the bytes held is told to the {@link ColumnBuffer.Account}.
 */
final class ValueBlocks {
  static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int MIN_FIRST_BLOCK = 64;

  private final BlockPool pool;
  private final ColumnBuffer.Account account;
  private byte[][] blocks = new byte[1][];
  private int blockCount;
  /** Bytes the blocks hold: offsets below it can be written. */
  private long capacity;
  /** Bytes used when last released: the size block 0 starts at next time. */
  private int firstHint;

  ValueBlocks(BlockPool pool, ColumnBuffer.Account account) {
    this.pool = pool;
    this.account = account;
  }

  /** Makes bytes up to {@code end} (exclusive) writable. */
  void ensure(long end) {
    while (end > capacity) {
      grow(end);
    }
  }

  private void grow(long end) {
    if (blockCount == 0) {
      int size = (int) Math.min(BLOCK_BYTES,
          Integer.highestOneBit((int) Math.max(MIN_FIRST_BLOCK, Math.min(BLOCK_BYTES, Math.max(end, firstHint)) - 1)) << 1);
      blocks[0] = size == BLOCK_BYTES ? pool.take() : new byte[size];
      blockCount = 1;
      capacity = size;
      account.grew(size);
    } else if (blockCount == 1 && blocks[0].length < BLOCK_BYTES) {
      byte[] first = blocks[0];
      int size = (int) Math.min(BLOCK_BYTES, Math.max(2L * first.length,
          Integer.highestOneBit((int) Math.min(BLOCK_BYTES, end) - 1) << 1));
      byte[] grown = size == BLOCK_BYTES ? pool.take() : new byte[size];
      System.arraycopy(first, 0, grown, 0, first.length);
      blocks[0] = grown;
      capacity = size;
      account.grew(size - first.length);
    } else {
      if (blockCount == blocks.length) {
        blocks = Arrays.copyOf(blocks, blocks.length * 2);
      }
      if ((long) blockCount << SHIFT > Integer.MAX_VALUE) {
        // offsets of values (string ends) are ints
        throw new IllegalStateException("Cannot buffer more than 2 GiB of one column of one partition");
      }
      blocks[blockCount++] = pool.take();
      capacity += BLOCK_BYTES;
      account.grew(BLOCK_BYTES);
    }
  }

  /**
   * The block that will hold the value ending at {@code end} (exclusive), made writable: the
   * block of byte {@code end - 1}, which starts at {@code (end - 1) & ~MASK}. For values of a
   * width that divides the block size, which never span two blocks.
   */
  byte[] tailFor(long end) {
    ensure(end);
    return blocks[(int) ((end - 1) >>> SHIFT)];
  }

  /** Bytes held. */
  long heldBytes() {
    return capacity;
  }

  long getLong(long offset) {
    return (long) LONGS.get(blocks[(int) (offset >>> SHIFT)], (int) offset & MASK);
  }

  int getInt(long offset) {
    return (int) INTS.get(blocks[(int) (offset >>> SHIFT)], (int) offset & MASK);
  }

  byte getByte(long offset) {
    return blocks[(int) (offset >>> SHIFT)][(int) offset & MASK];
  }

  /** Writes {@code length} bytes of {@code source} from {@code from} at {@code offset} (made writable before). */
  void put(long offset, byte[] source, int from, int length) {
    while (length > 0) {
      int within = (int) offset & MASK;
      int n = Math.min(length, BLOCK_BYTES - within);
      System.arraycopy(source, from, blocks[(int) (offset >>> SHIFT)], within, n);
      offset += n;
      from += n;
      length -= n;
    }
  }

  /** Copies {@code length} bytes from {@code offset} into {@code target} at {@code at}. */
  void copyTo(long offset, byte[] target, int at, int length) {
    while (length > 0) {
      int within = (int) offset & MASK;
      int n = Math.min(length, BLOCK_BYTES - within);
      System.arraycopy(blocks[(int) (offset >>> SHIFT)], within, target, at, n);
      offset += n;
      at += n;
      length -= n;
    }
  }

  /** Whether bytes {@code offset .. offset + length} lie in one block, so {@link #blockOf} holds them all. */
  static boolean inOneBlock(long offset, int length) {
    return length == 0 || (offset >>> SHIFT) == ((offset + length - 1) >>> SHIFT);
  }

  /** The block holding byte {@code offset}; its index there is {@code (int) offset & MASK}. */
  byte[] blockOf(long offset) {
    return blocks[(int) (offset >>> SHIFT)];
  }

  static int within(long offset) {
    return (int) offset & MASK;
  }

  /** Keeps block 0 for the next rows and gives the other blocks back to the pool. */
  void clear() {
    for (int b = 1; b < blockCount; b++) {
      account.grew(-BLOCK_BYTES);
      pool.give(blocks[b]);
      blocks[b] = null;
    }
    if (blockCount > 1) {
      blockCount = 1;
      capacity = blocks[0].length;
    }
  }

  /**
   * Gives every block back (full ones to the pool); {@code usedBytes}, what the values took,
   * sizes block 0 next time. Unlike {@link #clear}, tells the account nothing: {@link
   * ColumnBuffer#release} reports all the column held at once.
   */
  void release(long usedBytes) {
    firstHint = (int) Math.min(BLOCK_BYTES, usedBytes);
    for (int b = 0; b < blockCount; b++) {
      if (blocks[b].length == BLOCK_BYTES) {
        pool.give(blocks[b]);
      }
      blocks[b] = null;
    }
    blockCount = 0;
    capacity = 0;
  }
}
