package io.ktk.flink.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * Partition and index ids of a string column looked up from Flink's bytes ({@link StringKeyIds}):
 * the same string has the same id however Flink holds it (a Java string, bytes on the heap, off the
 * heap, split over segments), a null has an id of its own, and ids stay dense in order of first
 * appearance, as the row-format ids they replace.
 */
class StringKeyIdsTest {
  private static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("id", DataTypes.BIGINT()),
      DataTypes.FIELD("p", DataTypes.STRING())).getLogicalType();

  @Test
  void stringColumnsGetTheStringLookup() {
    assertThat(RowKeyIds.of(ROW_TYPE, 1)).isInstanceOf(StringKeyIds.class);
    assertThat(RowKeyIds.of(ROW_TYPE, 0)).isInstanceOf(RowFormatKeyIds.class);
    assertThat(RowKeyIds.of(ROW_TYPE, 0, 1)).isInstanceOf(RowFormatKeyIds.class);
  }

  @Test
  void theSameStringHasOneIdWhereverFlinkHoldsIt() {
    RowKeyIds ids = RowKeyIds.of(ROW_TYPE, 1);
    assertThat(ids.idOf(row(StringData.fromString("héllo")))).isEqualTo(0);
    assertThat(ids.idOf(row(StringData.fromString("other")))).isEqualTo(1);

    byte[] utf8 = "héllo".getBytes(StandardCharsets.UTF_8);
    assertThat(ids.idOf(row(StringData.fromBytes(utf8)))).as("bytes on the heap").isEqualTo(0);
    byte[] padded = new byte[utf8.length + 5];
    System.arraycopy(utf8, 0, padded, 3, utf8.length);
    assertThat(ids.idOf(row(StringData.fromBytes(padded, 3, utf8.length)))).as("at an offset").isEqualTo(0);
    MemorySegment offHeap = MemorySegmentFactory.allocateOffHeapUnsafeMemory(16);
    offHeap.put(2, utf8, 0, utf8.length);
    assertThat(ids.idOf(row(BinaryStringData.fromAddress(new MemorySegment[] {offHeap}, 2, utf8.length))))
        .as("off the heap").isEqualTo(0);
    MemorySegment first = MemorySegmentFactory.wrap(new byte[4]);
    MemorySegment second = MemorySegmentFactory.wrap(new byte[4]);
    first.put(2, utf8, 0, 2);
    second.put(0, utf8, 2, utf8.length - 2);
    assertThat(ids.idOf(row(BinaryStringData.fromAddress(new MemorySegment[] {first, second}, 2, utf8.length))))
        .as("over two segments").isEqualTo(0);
    assertThat(ids.idOf(row(StringData.fromString("hello")))).as("another string").isEqualTo(2);
    assertThat(ids.size()).isEqualTo(3);
  }

  @Test
  void aNullHasAnIdOfItsOwnAndIdsStayDense() {
    RowKeyIds ids = RowKeyIds.of(ROW_TYPE, 1);
    assertThat(ids.idOf(row(StringData.fromString("a")))).isEqualTo(0);
    assertThat(ids.idOf(row(null))).isEqualTo(1);
    assertThat(ids.idOf(row(StringData.fromString("")))).as("the empty string is not null").isEqualTo(2);
    assertThat(ids.idOf(row(StringData.fromString("b")))).isEqualTo(3);
    assertThat(ids.idOf(row(null))).isEqualTo(1);
    assertThat(ids.idOf(row(StringData.fromString("a")))).isEqualTo(0);
    assertThat(ids.idOf(row(StringData.fromString("b")))).isEqualTo(3);
    assertThat(ids.size()).isEqualTo(4);

    long retained = ids.retainedBytes();
    ids.clear();
    assertThat(ids.size()).isZero();
    assertThat(ids.retainedBytes()).isLessThan(retained);
    assertThat(ids.idOf(row(StringData.fromString("b")))).as("ids start again").isEqualTo(0);
    assertThat(ids.idOf(row(null))).isEqualTo(1);
  }

  private static GenericRowData row(StringData p) {
    return GenericRowData.of(1L, p);
  }
}
