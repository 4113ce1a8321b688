package io.ktk.flink.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class WriterIdTest {
  private static String choose(Map<String, Long> committed, List<String> restored, OptionalLong checkpoint) {
    return KartothekWriter.writerId("events", committed, restored.stream().map(WriterState::new).toList(), checkpoint,
        () -> "fresh");
  }

  @Test
  void aFirstStartGetsANewId() {
    assertThat(choose(Map.of("old", 9L), List.of(), OptionalLong.empty())).isEqualTo("fresh");
  }

  @Test
  void aRestoreKeepsTheIdSoThatReplaysAreRecognized() {
    assertThat(choose(Map.of("w1", 7L), List.of("w1"), OptionalLong.of(7))).isEqualTo("w1");
    assertThat(choose(Map.of("w1", 6L), List.of("w1"), OptionalLong.of(7))).isEqualTo("w1");
    assertThat(choose(Map.of(), List.of("w1"), OptionalLong.of(7))).isEqualTo("w1");
  }

  @Test
  void mergedSubtasksKeepTheSmallestId() {
    assertThat(choose(Map.of(), List.of("w2", "w1", "w3"), OptionalLong.of(3))).isEqualTo("w1");
  }

  @Test
  void aRestoreOfAnOlderCheckpointThanCommittedGetsANewId() {
    // The log holds checkpoint 20 of w1, the job restarts from checkpoint 10: its next checkpoints
    // 11..20 would be taken for replays and dropped if it kept the id.
    assertThat(choose(Map.of("w1", 20L), List.of("w1"), OptionalLong.of(10))).isEqualTo("fresh");
  }

  @Test
  void writerStateRoundTripsAndRefusesOtherVersions() throws IOException {
    WriterStateSerializer serializer = new WriterStateSerializer();
    byte[] bytes = serializer.serialize(new WriterState("6f1c2a9e-0000-4000-8000-000000000001"));
    assertThat(bytes).startsWith(0, 0, 0, 36);
    assertThat(serializer.deserialize(1, bytes)).isEqualTo(new WriterState("6f1c2a9e-0000-4000-8000-000000000001"));
    assertThatThrownBy(() -> serializer.deserialize(2, bytes))
        .isInstanceOf(IOException.class).hasMessageContaining("Unrecognized version or corrupt state");
    assertThatThrownBy(() -> serializer.deserialize(1, new byte[] {0, 0, 0, 9, 1}))
        .isInstanceOf(IOException.class).hasMessageContaining("Unrecognized version or corrupt state");
  }
}
