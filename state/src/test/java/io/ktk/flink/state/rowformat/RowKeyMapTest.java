package io.ktk.flink.state.rowformat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

class RowKeyMapTest {

  @Test
  void sortsAnySubsetOfIdsByTheirKeysLikeAnUnsignedByteComparison() {
    Random random = new Random(11);
    RowKeyMap map = new RowKeyMap();
    for (int i = 0; i < 50_000; i++) {
      byte[] key = new byte[9]; // encoded keys are prefix-free; keys of one length are
      for (int k = 0; k < key.length; k++) {
        key[k] = (byte) (k < 6 ? random.nextInt(3) : random.nextInt(256));
      }
      map.getOrAdd(key, 0, key.length);
    }
    int[] ids = random.ints(0, map.size()).distinct().limit(map.size() / 2).toArray();
    Integer[] expected = java.util.Arrays.stream(ids).boxed().toArray(Integer[]::new);
    java.util.Arrays.sort(expected, (x, y) -> java.util.Arrays.compareUnsigned(map.key(x).toByteArray(),
        map.key(y).toByteArray()));

    VectorRows.sort(map, ids);

    assertThat(ids).containsExactly(java.util.Arrays.stream(expected).mapToInt(Integer::intValue).toArray());
  }

  @Test
  void assignsDenseIdsInOrderOfFirstAppearanceAndFindsThemAgain() {
    Random random = new Random(3);
    RowKeyMap map = new RowKeyMap(2);
    Map<ByteBuffer, Integer> reference = new HashMap<>();
    for (int i = 0; i < 20_000; i++) {
      byte[] key = new byte[random.nextInt(6)];
      for (int k = 0; k < key.length; k++) {
        key[k] = (byte) random.nextInt(7);
      }
      // the key sits inside a larger array, as in a Rows batch
      byte[] padded = new byte[key.length + 4];
      System.arraycopy(key, 0, padded, 2, key.length);
      int expected = reference.computeIfAbsent(ByteBuffer.wrap(key), k -> reference.size());
      assertThat(map.getOrAdd(padded, 2, 2 + key.length)).isEqualTo(expected);
      assertThat(map.get(key, 0, key.length)).isEqualTo(expected);
    }
    assertThat(map.size()).isEqualTo(reference.size()).isGreaterThan(1000);
    reference.forEach((key, id) -> assertThat(map.key(id).toByteArray()).isEqualTo(key.array()));
    assertThat(map.get(new byte[] {9}, 0, 1)).isEqualTo(-1);
  }

  @Test
  void clearForgetsKeysButNotViewsHandedOutBefore() {
    RowKeyMap map = new RowKeyMap();
    byte[] a = {1, 2, 3};
    assertThat(map.getOrAdd(a, 0, 3)).isZero();
    RowKey view = map.key(0);
    map.clear();
    assertThat(map.size()).isZero();
    assertThat(map.get(a, 0, 3)).isEqualTo(-1);
    assertThat(map.getOrAdd(new byte[] {7, 7, 7}, 0, 3)).isZero();
    assertThat(view.toByteArray()).containsExactly(1, 2, 3);
  }

  @Test
  void routesFlinkRecordsByPartitionKeyWithoutAllocatingKeys() {
    // the sink's path: key columns of a record -> reusable buffer -> id of the partition buffer
    RowType rowType = RowType.of(
        new VarCharType(VarCharType.MAX_LENGTH), new DoubleType(), new BigIntType());
    RowConverter converter = RowConverter.unordered(List.of(
        RandomColumns.scalar("country", ArrowType.Utf8.INSTANCE),
        RandomColumns.scalar("day", new ArrowType.Int(64, true))));
    RowDataEncoder encoder = converter.rowDataEncoder(rowType, 0, 2);
    RowBuffer buffer = new RowBuffer();
    RowKeyMap partitions = new RowKeyMap();
    int[] ids = new int[4];
    Object[][] records = {{"DE", 1.5, 20L}, {"FR", 2.5, 20L}, {"DE", 9.0, 20L}, {"DE", 1.0, 21L}};
    for (int i = 0; i < records.length; i++) {
      GenericRowData row = GenericRowData.of(
          StringData.fromString((String) records[i][0]), records[i][1], records[i][2]);
      encoder.encode(row, buffer);
      ids[i] = partitions.getOrAdd(buffer);
    }
    assertThat(ids).containsExactly(0, 1, 0, 2);
    assertThat(partitions.key(0).toByteArray())
        .containsExactly(0, 0, 0, 2, 'D', 'E', 1, 0x80, 0, 0, 0, 0, 0, 0, 20);
  }

  @Test
  void hashDependsOnEveryByteAndTheLength() {
    byte[] zeros = new byte[16];
    assertThat(RowKey.hash(zeros, 0, 8)).isNotEqualTo(RowKey.hash(zeros, 0, 9));
    byte[] other = zeros.clone();
    other[11] = 1;
    assertThat(RowKey.hash(zeros, 0, 16)).isNotEqualTo(RowKey.hash(other, 0, 16));
    assertThat(RowKey.wrap(new byte[] {1, 2}).hashCode())
        .isEqualTo(new RowKey(new byte[] {0, 1, 2}, 1, 3).hashCode());
  }
}
