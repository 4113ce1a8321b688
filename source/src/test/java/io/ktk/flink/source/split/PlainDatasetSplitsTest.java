package io.ktk.flink.source.split;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.source.enumerator.CubeEnumeratorState;
import io.ktk.flink.source.enumerator.CubeEnumeratorStateSerializer;
import io.ktk.flink.source.planner.GroupPartition;
import io.ktk.flink.source.planner.PlannedFile;
import io.ktk.flink.source.planner.QueryGroup;
import io.ktk.flink.source.testing.SerializerBytes;
import io.ktk.flink.state.types.TypedValueCodec;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The splits and enumerator state of a plain dataset's source survive serialization, and what that
 * source checkpointed before it read through the cube stack (version 1: a split per file, kept in
 * {@code src/test/resources/serializer/}) restores as the split that reads the same file. Write
 * the bytes of a new version once, when it is introduced: {@code -Dktk.writeSerializerBytes=<dir>}
 * writes those of the current versions to that directory.
 */
class PlainDatasetSplitsTest {
  static final List<Object> VALUES = Arrays.asList(7L, "zürich/€", LocalDate.of(2024, 2, 29),
      LocalDateTime.of(1969, 12, 31, 23, 59, 59, 123_456_789), new BigDecimal("-12345.678"), null);

  /** The split of version 1's sample: file {@code p=7/.../part-1} of dataset {@code events} at version 4, 17 rows emitted. */
  static CubeSplit sampleSplit() {
    PlannedFile file = new PlannedFile("events/table/p=7/.../part-1.parquet", "p=7/.../part-1", 1000, 123_456, -1,
        false);
    GroupPartition partition = new GroupPartition("p=7/...", VALUES, Map.of("events", List.of(file)));
    return new CubeSplit("file-000003", Map.of("events", 4L), new QueryGroup(VALUES, List.of(partition)), 17);
  }

  /** Version 1's bytes of a split, written as its documented format says. */
  private static byte[] version1(String splitId, long version, List<Object> values, String key, String label, long rows,
      long bytes, long emitted) throws IOException {
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(buffer)) {
      TypedValueCodec.writeString(out, splitId);
      out.writeLong(version);
      out.writeInt(values.size());
      for (Object value : values) {
        TypedValueCodec.write(out, value);
      }
      TypedValueCodec.writeString(out, key);
      TypedValueCodec.writeString(out, label);
      out.writeLong(rows);
      out.writeLong(bytes);
      out.writeLong(emitted);
    }
    return buffer.toByteArray();
  }

  @Test
  void aSplitRoundTripsWithItsPartitionValues() throws IOException {
    CubeSplit split = sampleSplit();

    CubeSplit restored = CubeSplitSerializer.PLAIN_DATASETS.deserialize(CubeSplitSerializer.PLAIN_DATASETS.getVersion(),
        CubeSplitSerializer.PLAIN_DATASETS.serialize(split));

    assertThat(restored).isEqualTo(split);
  }

  @Test
  void theDocumentedVersion1FormatReadsAsTheSplitOfItsFile() throws IOException {
    byte[] bytes = version1("file-000001", 3, List.of(1L), "ds/table/p=1/a.parquet", "p=1/a", 2, 3, 17);

    assertThat(Arrays.copyOf(bytes, 32)).containsExactly(0, 0, 0, 11, 'f', 'i', 'l', 'e', '-', '0', '0', '0', '0',
        '0', '1', 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 1, 1, 0, 0, 0, 0);
    CubeSplit split = CubeSplitSerializer.PLAIN_DATASETS.deserialize(1, bytes);
    assertThat(split).isEqualTo(new CubeSplit("file-000001", Map.of("ds", 3L), new QueryGroup(List.of(1L),
        List.of(new GroupPartition("p=1", List.of(1L), Map.of("ds", List.of(new PlannedFile("ds/table/p=1/a.parquet",
            "p=1/a", 2, 3, -1, false)))))), 17));
  }

  @Test
  void version1AndVersion2BytesStillRestore() throws IOException {
    writeBytesIfAsked();
    assertThat(CubeSplitSerializer.PLAIN_DATASETS.deserialize(1, SerializerBytes.resource("dataset-split-v1.bin")))
        .isEqualTo(sampleSplit());
    assertThat(CubeSplitSerializer.PLAIN_DATASETS.deserialize(2, SerializerBytes.resource("dataset-split-v2.bin")))
        .isEqualTo(sampleSplit());

    for (int version = 1; version <= 2; version++) {
      CubeEnumeratorState state = CubeEnumeratorStateSerializer.PLAIN_DATASETS.deserialize(version,
          SerializerBytes.resource("dataset-enumerator-state-v" + version + ".bin"));
      assertThat(state.unassigned()).containsExactly(sampleSplit(), sampleSplit().withEmittedRows(0));
      assertThat(state.servedSeedVersion()).isEqualTo(-1);
    }
  }

  @Test
  void unknownVersionsAndCorruptBytesAreRefused() throws IOException {
    byte[] bytes = version1("file-000003", 4, VALUES, "events/table/p=7/.../part-1.parquet", "p=7/.../part-1", 1000,
        123_456, 17);
    assertThatThrownBy(() -> CubeSplitSerializer.PLAIN_DATASETS.deserialize(3, bytes))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Unrecognized version or corrupt state: dataset split version 3 (supported: 1, 2)");
    assertThatThrownBy(() -> CubeSplitSerializer.PLAIN_DATASETS.deserialize(1, Arrays.copyOf(bytes, bytes.length - 3)))
        .isInstanceOf(IOException.class);
    assertThatThrownBy(() -> CubeSplitSerializer.PLAIN_DATASETS.deserialize(1, Arrays.copyOf(bytes, bytes.length + 1)))
        .hasMessageContaining("1 bytes after the dataset split");
    assertThatThrownBy(() -> CubeSplitSerializer.PLAIN_DATASETS.deserialize(1,
        version1("file-000001", 3, List.of(1L), "elsewhere/p=1/a.parquet", "p=1/a", 2, 3, 0)))
        .hasMessageContaining("has key elsewhere/p=1/a.parquet, which is not <uuid>/table/p=1/a.parquet");
    assertThatThrownBy(() -> CubeEnumeratorStateSerializer.PLAIN_DATASETS.deserialize(3, new byte[0]))
        .hasMessageContaining("Unrecognized version or corrupt state: dataset enumerator state version 3");
  }

  private static void writeBytesIfAsked() throws IOException {
    SerializerBytes.writeIfAsked(Map.of(
        "dataset-split-v" + CubeSplitSerializer.PLAIN_DATASETS.getVersion() + ".bin",
        CubeSplitSerializer.PLAIN_DATASETS.serialize(sampleSplit()),
        "dataset-enumerator-state-v" + CubeEnumeratorStateSerializer.VERSION + ".bin",
        CubeEnumeratorStateSerializer.PLAIN_DATASETS.serialize(
            new CubeEnumeratorState(List.of(sampleSplit(), sampleSplit().withEmittedRows(0))))));
  }
}
