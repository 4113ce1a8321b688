package io.ktk.flink.source.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.source.enumerator.CubeEnumeratorState;
import io.ktk.flink.source.enumerator.CubeEnumeratorStateSerializer;
import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.PlannedFile;
import io.ktk.flink.source.planner.QueryGroup;
import io.ktk.flink.source.testing.SerializerBytes;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Splits and enumerator state survive serialization, and the bytes written by earlier versions
 * (kept in {@code src/test/resources/serializer/}: split v1, enumerator state v1 and v2) still
 * restore. Write the bytes of a new version once, when it is introduced: {@code
 * -Dktk.writeSerializerBytes=<dir>} writes those of the current versions to that directory.
 */
class CubeSplitSerializerTest {

  static CubeSplit sampleSplit() {
    List<Object> key = Arrays.asList(7L, Double.NaN, "zürich/€", true, new byte[] {0, (byte) 0xff},
        LocalDate.of(2024, 2, 29), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 123_456_789),
        Instant.parse("2024-01-01T00:00:00.000001Z"), LocalTime.of(23, 59, 1, 5), new BigDecimal("-12345.678"), null);
    Map<String, List<PlannedFile>> files = new LinkedHashMap<>();
    files.put("seed", List.of(new PlannedFile("c++seed/table/p=1/a.parquet", "p=1/a", 10, 1234, 3, false)));
    files.put("enrich", List.of(
        new PlannedFile("c++enrich/table/p=1/b.parquet", "p=1/b", -1, -1, -1, false),
        new PlannedFile("c++enrich/table/p=1/c.parquet", "p=1/c", 5, 99, 4, true)));
    files.put("empty", List.of());
    GroupPartition partition = new GroupPartition("p=1", List.of(1L), files);
    GroupPartition other = new GroupPartition("p=2", List.of(2L), Map.of("seed", List.of()));
    return new CubeSplit("group-00003", Map.of("seed", 4L, "enrich", 9L), new QueryGroup(key, List.of(partition, other)),
        17);
  }

  private static void assertSameSplit(CubeSplit actual, CubeSplit expected) throws IOException {
    assertThat(actual.splitId()).isEqualTo(expected.splitId());
    assertThat(actual.versions()).isEqualTo(expected.versions());
    assertThat(actual.emittedRows()).isEqualTo(expected.emittedRows());
    assertThat(actual.group().key()).hasSameSizeAs(expected.group().key());
    for (int i = 0; i < expected.group().key().size(); i++) {
      Object e = expected.group().key().get(i);
      Object a = actual.group().key().get(i);
      if (e instanceof byte[] bytes) {
        assertThat((byte[]) a).isEqualTo(bytes);
      } else {
        assertThat(a).as("key value %d", i).isEqualTo(e);
      }
    }
    assertThat(actual.group().partitions()).isEqualTo(expected.group().partitions());
  }

  @Test
  void aSplitRoundTripsWithEveryValueType() throws IOException {
    CubeSplit split = sampleSplit();
    byte[] bytes = CubeSplitSerializer.INSTANCE.serialize(split);

    assertSameSplit(CubeSplitSerializer.INSTANCE.deserialize(CubeSplitSerializer.VERSION, bytes), split);
  }

  @Test
  void version1BytesStillRestore() throws IOException {
    writeBytesIfAsked();
    CubeSplit restored = CubeSplitSerializer.INSTANCE.deserialize(1, SerializerBytes.resource("cube-split-v1.bin"));
    assertSameSplit(restored, sampleSplit());

    CubeEnumeratorState state = CubeEnumeratorStateSerializer.INSTANCE.deserialize(1, SerializerBytes.resource("cube-enumerator-state-v1.bin"));
    assertThat(state.unassigned()).hasSize(2);
    assertSameSplit(state.unassigned().get(0), sampleSplit());
    assertSameSplit(state.unassigned().get(1), sampleSplit().withEmittedRows(0));
  }

  @Test
  void version1BytesAreStillWrittenWithTheSharedValueCodec() throws IOException {
    assertThat(CubeSplitSerializer.INSTANCE.serialize(sampleSplit()))
        .as("the split format kept its bytes when its values moved to TypedValueCodec")
        .isEqualTo(SerializerBytes.resource("cube-split-v1.bin"));
  }

  @Test
  void theEnumeratorStateOfAContinuousSourceRoundTrips() throws IOException {
    CubeEnumeratorState state = new CubeEnumeratorState(List.of(sampleSplit()), 12, 3);
    byte[] bytes = CubeEnumeratorStateSerializer.INSTANCE.serialize(state);

    CubeEnumeratorState restored = CubeEnumeratorStateSerializer.INSTANCE.deserialize(
        CubeEnumeratorStateSerializer.VERSION, bytes);
    assertThat(restored.servedSeedVersion()).isEqualTo(12);
    assertThat(restored.discoveries()).isEqualTo(3);
    assertSameSplit(restored.unassigned().get(0), sampleSplit());
  }

  @Test
  void version2EnumeratorBytesStillRestore() throws IOException {
    writeBytesIfAsked();
    CubeEnumeratorState state = CubeEnumeratorStateSerializer.INSTANCE.deserialize(2,
        SerializerBytes.resource("cube-enumerator-state-v2.bin"));
    assertThat(state.servedSeedVersion()).isEqualTo(12);
    assertThat(state.discoveries()).isEqualTo(3);
    assertThat(state.unassigned()).hasSize(1);
    assertSameSplit(state.unassigned().get(0), sampleSplit());
  }

  @Test
  void version1EnumeratorStateRestoresAsABoundedState() throws IOException {
    CubeEnumeratorState state = CubeEnumeratorStateSerializer.INSTANCE.deserialize(1,
        SerializerBytes.resource("cube-enumerator-state-v1.bin"));
    assertThat(state.servedSeedVersion()).isEqualTo(-1);
    assertThat(state.discoveries()).isZero();
  }

  @Test
  void unknownVersionsAndCorruptBytesAreRefused() throws IOException {
    byte[] bytes = CubeSplitSerializer.INSTANCE.serialize(sampleSplit());
    assertThatThrownBy(() -> CubeSplitSerializer.INSTANCE.deserialize(2, bytes))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Unrecognized version or corrupt state: cube split version 2 (supported: 1)");
    assertThatThrownBy(() -> CubeSplitSerializer.INSTANCE.deserialize(1, Arrays.copyOf(bytes, bytes.length - 3)))
        .isInstanceOf(IOException.class);
    byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
    assertThatThrownBy(() -> CubeSplitSerializer.INSTANCE.deserialize(1, longer))
        .hasMessageContaining("1 bytes after the cube split");
    assertThatThrownBy(() -> CubeEnumeratorStateSerializer.INSTANCE.deserialize(0, new byte[0]))
        .hasMessageContaining("Unrecognized version or corrupt state: cube enumerator state version 0");
  }

  private static void writeBytesIfAsked() throws IOException {
    // version 1 files are kept as they are: the current serializers cannot write them any more
    SerializerBytes.writeIfAsked(Map.of("cube-enumerator-state-v2.bin", CubeEnumeratorStateSerializer.INSTANCE.serialize(
        new CubeEnumeratorState(List.of(sampleSplit()), 12, 3))));
  }
}
