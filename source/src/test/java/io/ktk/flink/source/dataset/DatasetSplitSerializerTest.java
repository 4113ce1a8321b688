package io.ktk.flink.source.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Dataset splits and enumerator state survive serialization, and the bytes of version 1 (kept in
 * {@code src/test/resources/serializer/}) still restore. Write the bytes of a new version once,
 * when it is introduced: {@code -Dktk.writeSerializerBytes=<dir>} writes those of the current
 * versions to that directory.
 */
class DatasetSplitSerializerTest {

  static DatasetSplit sampleSplit() {
    List<Object> values = Arrays.asList(7L, "zürich/€", LocalDate.of(2024, 2, 29),
        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 123_456_789), new BigDecimal("-12345.678"), null);
    return new DatasetSplit("file-000003", 4, values, "events/table/p=7/.../part-1.parquet", "p=7/.../part-1", 1000,
        123_456, 17);
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = DatasetSplitSerializerTest.class.getResourceAsStream("/serializer/" + name)) {
      assertThat(in).as("resource serializer/%s", name).isNotNull();
      return in.readAllBytes();
    }
  }

  @Test
  void aSplitRoundTripsWithItsPartitionValues() throws IOException {
    DatasetSplit split = sampleSplit();

    DatasetSplit restored = DatasetSplitSerializer.INSTANCE.deserialize(DatasetSplitSerializer.VERSION,
        DatasetSplitSerializer.INSTANCE.serialize(split));

    assertThat(restored).isEqualTo(split);
  }

  @Test
  void theFormatStartsAsDocumented() throws IOException {
    DatasetSplit split = new DatasetSplit("file-000001", 3, List.of(1L), "k", "p=1/a", 2, 3, 17);
    byte[] bytes = DatasetSplitSerializer.INSTANCE.serialize(split);

    assertThat(Arrays.copyOf(bytes, 32)).containsExactly(0, 0, 0, 11, 'f', 'i', 'l', 'e', '-', '0', '0', '0', '0',
        '0', '1', 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 1, 1, 0, 0, 0, 0);
    assertThat(Arrays.copyOfRange(bytes, bytes.length - 8, bytes.length)).containsExactly(0, 0, 0, 0, 0, 0, 0, 17);
  }

  @Test
  void version1BytesStillRestore() throws IOException {
    writeBytesIfAsked();
    assertThat(DatasetSplitSerializer.INSTANCE.deserialize(1, resource("dataset-split-v1.bin")))
        .isEqualTo(sampleSplit());

    DatasetEnumeratorState state = DatasetEnumeratorStateSerializer.INSTANCE.deserialize(1,
        resource("dataset-enumerator-state-v1.bin"));
    assertThat(state.unassigned()).containsExactly(sampleSplit(), sampleSplit().withEmittedRows(0));
  }

  @Test
  void unknownVersionsAndCorruptBytesAreRefused() throws IOException {
    byte[] bytes = DatasetSplitSerializer.INSTANCE.serialize(sampleSplit());
    assertThatThrownBy(() -> DatasetSplitSerializer.INSTANCE.deserialize(2, bytes))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Unrecognized version or corrupt state: dataset split version 2 (supported: 1)");
    assertThatThrownBy(() -> DatasetSplitSerializer.INSTANCE.deserialize(1, Arrays.copyOf(bytes, bytes.length - 3)))
        .isInstanceOf(IOException.class);
    assertThatThrownBy(() -> DatasetSplitSerializer.INSTANCE.deserialize(1, Arrays.copyOf(bytes, bytes.length + 1)))
        .hasMessageContaining("1 bytes after the dataset split");
    assertThatThrownBy(() -> DatasetEnumeratorStateSerializer.INSTANCE.deserialize(2, new byte[0]))
        .hasMessageContaining("Unrecognized version or corrupt state: dataset enumerator state version 2");
  }

  private static void writeBytesIfAsked() throws IOException {
    String target = System.getProperty("ktk.writeSerializerBytes");
    if (target == null) {
      return;
    }
    Path dir = Path.of(target);
    Files.createDirectories(dir);
    Files.write(dir.resolve("dataset-split-v1.bin"), DatasetSplitSerializer.INSTANCE.serialize(sampleSplit()));
    Files.write(dir.resolve("dataset-enumerator-state-v1.bin"), DatasetEnumeratorStateSerializer.INSTANCE.serialize(
        new DatasetEnumeratorState(List.of(sampleSplit(), sampleSplit().withEmittedRows(0)))));
  }
}
