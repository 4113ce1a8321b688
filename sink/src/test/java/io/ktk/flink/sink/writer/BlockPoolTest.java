package io.ktk.flink.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.junit.jupiter.api.Test;

/**
 * Column values in pooled blocks: values read back whole across block boundaries (strings split
 * over two blocks among them), a column written as a file gives its blocks to the pool and
 * another partition's column takes the same blocks instead of new ones, and the pool keeps only
 * what the memory budget allows.
 */
class BlockPoolTest {
  @Test
  void valuesReadBackAcrossBlockBoundaries() {
    MemoryBudget budget = new MemoryBudget(1L << 30);
    ColumnBuffer longs = ColumnBuffer.forType(DataTypes.BIGINT().getLogicalType(), budget::add, budget.blocks());
    ColumnBuffer strings = ColumnBuffer.forType(DataTypes.STRING().getLogicalType(), budget::add, budget.blocks());
    int rows = 20_000; // 160 KB of longs, about 200 KB of strings: several blocks each
    for (int i = 0; i < rows; i++) {
      longs.append(GenericRowData.of(i * 3L - 7), 0);
      strings.append(GenericRowData.of(StringData.fromString("value-" + i + "-" + "x".repeat(i % 7))), 0);
    }
    FlatValues longValues = longs.flatValues();
    FlatValues stringValues = strings.flatValues();
    byte[] plainLongs = longValues.plain(0, rows);
    byte[] plainStrings = stringValues.plain(0, rows);
    java.nio.ByteBuffer expectedLongs = java.nio.ByteBuffer.allocate(8 * rows).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    java.io.ByteArrayOutputStream expectedStrings = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < rows; i++) {
      expectedLongs.putLong(i * 3L - 7);
      byte[] utf8 = ("value-" + i + "-" + "x".repeat(i % 7)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
      expectedStrings.write(utf8.length);
      expectedStrings.write(0);
      expectedStrings.write(0);
      expectedStrings.write(0);
      expectedStrings.writeBytes(utf8);
    }
    assertThat(plainLongs).isEqualTo(expectedLongs.array());
    assertThat(plainStrings).isEqualTo(expectedStrings.toByteArray());
    // every value is the same as itself and no other
    for (int i = 1; i < rows; i++) {
      assertThat(stringValues.same(i, i)).isTrue();
      assertThat(stringValues.same(i - 1, i)).isFalse();
    }
    assertThat(budget.used()).as("the blocks held").isGreaterThanOrEqualTo(longs.allocatedBytes()
        + strings.allocatedBytes()).isGreaterThan(4L * BlockPool.BLOCK_BYTES);
  }

  @Test
  void blocksOfAWrittenColumnServeTheNextColumnWithoutNewOnes() {
    MemoryBudget budget = new MemoryBudget(1L << 30);
    ColumnBuffer first = ColumnBuffer.forType(DataTypes.BIGINT().getLogicalType(), budget::add, budget.blocks());
    ColumnBuffer second = ColumnBuffer.forType(DataTypes.DOUBLE().getLogicalType(), budget::add, budget.blocks());
    for (int i = 0; i < 40_000; i++) {
      first.append(GenericRowData.of((long) i), 0);
    }
    long held = budget.used();
    first.clear(); // written at a checkpoint: keeps its first block, pools the others
    assertThat(budget.blocks().pooledBytes()).isGreaterThanOrEqualTo(9L * BlockPool.BLOCK_BYTES);
    assertThat(budget.used()).as("a pooled block is still held").isEqualTo(held);

    for (int i = 0; i < 30_000; i++) {
      second.append(GenericRowData.of(i * 0.5), 0);
    }
    assertThat(budget.used()).as("the second column took pooled blocks, not new ones").isEqualTo(held);
    assertThat(second.flatValues().plain(29_999, 30_000))
        .isEqualTo(java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putDouble(29_999 * 0.5)
            .array());
  }

  @Test
  void thePoolKeepsOnlyWhatTheBudgetAllows() {
    MemoryBudget budget = new MemoryBudget(4L * BlockPool.BLOCK_BYTES);
    ColumnBuffer column = ColumnBuffer.forType(DataTypes.BIGINT().getLogicalType(), budget::add, budget.blocks());
    for (int i = 0; i < 8 * BlockPool.BLOCK_BYTES / 8; i++) {
      column.append(GenericRowData.of((long) i), 0);
    }
    assertThat(budget.exceeded()).isTrue();
    column.release();
    assertThat(budget.buffered()).isZero();
    budget.blocks().trim();
    assertThat(budget.used()).as("pooled blocks beyond the budget went back to the heap")
        .isLessThanOrEqualTo(budget.limit()).isEqualTo(budget.blocks().pooledBytes());
    budget.blocks().clear();
    assertThat(budget.used()).isZero();
  }
}
