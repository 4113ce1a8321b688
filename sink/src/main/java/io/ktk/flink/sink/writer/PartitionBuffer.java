package io.ktk.flink.sink.writer;

import org.apache.flink.table.data.RowData;

/**
 * The buffered rows of one partition: a {@link ColumnBuffer} per data column (partition columns
 * are not stored: their values are the partition's) and the distinct values of each index
 * column. Its memory is what its arrays hold; every change is passed on to the writer's {@link
 * MemoryBudget}.
 */
final class PartitionBuffer implements ColumnBuffer.Account {
  private final PartitionRouter.Partition partition;
  private final ColumnBuffer[] columns;
  private final int[] positions;
  private final IndexValues[] indices;
  private final MemoryBudget budget;
  private long allocated;
  private int rows;

  PartitionBuffer(PartitionRouter.Partition partition, DataColumns layout, MemoryBudget budget) {
    this.partition = partition;
    this.budget = budget;
    this.positions = layout.positions();
    this.columns = new ColumnBuffer[positions.length];
    for (int c = 0; c < columns.length; c++) {
      columns[c] = ColumnBuffer.forType(layout.types().get(c), this, budget.blocks());
    }
    this.indices = new IndexValues[layout.indexPositions().length];
    for (int i = 0; i < indices.length; i++) {
      indices[i] = new IndexValues(layout.dataset(), layout.rowType(), layout.indexPositions()[i]);
    }
  }

  /** Appends a validated record. */
  void append(RowData row) {
    for (int c = 0; c < columns.length; c++) {
      columns[c].append(row, positions[c]);
    }
    for (IndexValues index : indices) {
      long delta = index.add(row);
      if (delta != 0) {
        grew(delta);
      }
    }
    rows++;
  }

  @Override
  public void grew(long bytes) {
    allocated += bytes;
    budget.add(bytes);
  }

  PartitionRouter.Partition partition() {
    return partition;
  }

  int rows() {
    return rows;
  }

  ColumnBuffer column(int c) {
    return columns[c];
  }

  int columnCount() {
    return columns.length;
  }

  IndexValues[] indices() {
    return indices;
  }

  /** Bytes the buffered values take, about their plain encoding. */
  long usedBytes() {
    long used = 0;
    for (ColumnBuffer column : columns) {
      used += column.usedBytes();
    }
    return used;
  }

  /** Bytes the buffer holds. */
  long allocatedBytes() {
    return allocated;
  }

  /**
   * Forgets every row, after they were written; the columns keep their first blocks and their
   * arrays for the next rows, and give their other blocks to the pool.
   */
  void clear() {
    for (ColumnBuffer column : columns) {
      column.clear();
    }
    for (IndexValues index : indices) {
      grew(index.clear());
    }
    rows = 0;
  }

  /** Forgets every row, after they were written; blocks go to the pool, arrays back to the heap. */
  void release() {
    for (ColumnBuffer column : columns) {
      column.release();
    }
    for (IndexValues index : indices) {
      grew(index.clear());
    }
    rows = 0;
  }
}
