package io.ktk.flink.state.commit;

import static io.ktk.flink.state.commit.CommitLogTest.append;
import static io.ktk.flink.state.commit.CommitLogTest.file;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdInputStream;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot's indices name files by their position in its file list (format version 2), read
 * back as the labels committed; snapshots of version 1 (labels spelled out) still read, and a
 * position outside the list is refused as corrupt.
 */
class SnapshotFormatTest {
  private static final String DATASET = "sales";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  ObjectStore store;
  /** What the commits put into the index of "c": value to labels. */
  final Map<IndexValue, TreeSet<String>> committed = new HashMap<>();

  @BeforeEach
  void commitIndexedFiles() throws IOException {
    store = new LocalObjectStore(dir);
    CommitLog log = CommitLog.open(store, DATASET, CommitLogOptions.DEFAULTS.withSnapshotInterval(10));
    for (int i = 0; i < 25; i++) {
      DataFile file = file("p" + (i % 4), i + 1);
      Map<IndexValue, List<String>> values = new HashMap<>();
      for (long value : i % 5 == 0 ? new long[] {i % 3, 100} : new long[] {i % 3}) {
        values.put(IndexValue.of(value), List.of(file.label()));
        committed.computeIfAbsent(IndexValue.of(value), v -> new TreeSet<>()).add(file.label());
      }
      log.commit(append(file).withWriter("w", i).withIndex(i == 0 ? List.of("c") : List.of(), Map.of("c", values)));
    }
    // Readers must start from snapshot 20.
    for (int v = 0; v <= 20; v++) {
      store.delete(LogKeys.entry(DATASET, v));
    }
  }

  @Test
  void indicesReadFromASnapshotNameTheFilesCommitted() throws IOException {
    JsonNode snapshot = snapshot();
    assertThat(snapshot.get("format_version").asInt()).isEqualTo(2);
    JsonNode firstPair = snapshot.get("indices").get("c").get(0);
    assertThat(firstPair.get(1).get(0).isInt()).as("a file named by its position").isTrue();

    assertThat(readIndex()).isEqualTo(expected());
  }

  @Test
  void versionOneSnapshotsWithLabelsSpelledOutStillRead() throws IOException {
    rewriteSnapshot(snapshot -> {
      snapshot.put("format_version", 1);
      JsonNode files = snapshot.get("files");
      for (JsonNode pair : snapshot.get("indices").get("c")) {
        ArrayNode labels = (ArrayNode) pair.get(1);
        for (int i = 0; i < labels.size(); i++) {
          labels.set(i, TextNode.valueOf(files.get(labels.get(i).asInt()).get("label").asText()));
        }
      }
    });

    assertThat(readIndex()).isEqualTo(expected());
  }

  @Test
  void aSnapshotNamingAFilePastItsListIsCorrupt() throws IOException {
    rewriteSnapshot(snapshot -> ((ArrayNode) snapshot.get("indices").get("c").get(0).get(1)).set(0, IntNode.valueOf(25)));

    assertThatThrownBy(() -> new LogReader(store, DATASET).latest())
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining(LogKeys.snapshot(DATASET, 20))
        .hasMessageContaining("index 'c' names file 25 of 21");
  }

  private Map<IndexValue, List<String>> expected() {
    Map<IndexValue, List<String>> expected = new HashMap<>();
    committed.forEach((value, labels) -> expected.put(value, List.copyOf(labels)));
    return expected;
  }

  private Map<IndexValue, List<String>> readIndex() throws IOException {
    DatasetState state = new LogReader(store, DATASET).latest();
    assertThat(state.version()).isEqualTo(24);
    return new HashMap<>(state.index("c"));
  }

  private JsonNode snapshot() throws IOException {
    try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(store.get(LogKeys.snapshot(DATASET, 20))))) {
      return JSON.readTree(in);
    }
  }

  private void rewriteSnapshot(Consumer<ObjectNode> change) throws IOException {
    ObjectNode snapshot = (ObjectNode) snapshot();
    change.accept(snapshot);
    store.put(LogKeys.snapshot(DATASET, 20), Zstd.compress(JSON.writeValueAsBytes(snapshot)));
  }
}
