package io.ktk.flink.state.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.metadata.DatasetMetadataJson;
import io.ktk.flink.state.metadata.IndexFile;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A publisher reuses the serialised partitions of its last publication and the pages of its last
 * index files: what it writes after appends, replaces and rewrites must be exactly the metadata
 * JSON of the version, serialised whole, and the index files written afresh.
 */
class IncrementalViewTest {
  private static final Field S = Field.nullable("s", ArrowType.Utf8.INSTANCE);
  private static final Field T = Field.nullable("t", ArrowType.Utf8.INSTANCE);
  private static final Field C = new Field("c", FieldType.nullable(new ArrowType.Int(64, true)), null);
  private static final Schema SCHEMA = new Schema(List.of(S, T, C));
  private static final Schema PHYSICAL = new Schema(List.of(C));
  private static final List<String> KEYS = List.of("s", "t");

  @TempDir Path dir;
  ObjectStore store;
  CommitLog log;
  long nextC;

  @BeforeEach
  void open() throws IOException {
    store = new LocalObjectStore(dir);
    log = CommitLog.open(store, "events", CommitLogOptions.DEFAULTS);
  }

  /**
   * Files in partitions whose labels interleave in tricky ways: {@code s=a-b/} sorts before {@code
   * s=a/} ('-' before '/'), and {@code t=x} shares a prefix with {@code t=xy}.
   */
  private List<DataFile> files(String s, String t, int count) {
    List<DataFile> files = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String label = PartitionLabel.of(List.of(S, T), List.of(s, t), PartitionLabel.newFileId()).toString();
      files.add(new DataFile(label, 1, 100, PHYSICAL));
    }
    return files;
  }

  private Map<String, Map<IndexValue, List<String>>> index(List<DataFile> files) {
    Map<IndexValue, List<String>> values = new HashMap<>();
    for (DataFile file : files) {
      values.put(IndexValue.of(nextC++ % 7), List.of(file.label()));
    }
    return Map.of("c", values);
  }

  private void append(List<DataFile> files) throws IOException {
    log.commit(DatasetChange.append(KEYS, SCHEMA, files).withIndex(List.of("c"), index(files)));
  }

  /** The published JSON is the version's metadata serialised whole, and its digest is the view's. */
  private void assertViewIsTheLatestVersion() throws IOException {
    byte[] published = store.get(DatasetKeys.metadataJsonKey("events"));
    DatasetMetadata view = DatasetMetadataJson.read(published, "events");
    log.refresh();
    DatasetState state = log.state();
    Map<String, String> fileKeys = new HashMap<>();
    state.files().values().forEach(file -> fileKeys.put(file.label(), file.key("events")));
    byte[] whole = DatasetMetadataJson.write(
        DatasetMetadata.of("events", KEYS, fileKeys, view.externalIndexKeys(), view.metadata()));
    assertThat(new String(published, java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(new String(whole, java.nio.charset.StandardCharsets.UTF_8));
    assertThat(view.fileKeys()).hasSize(state.files().size());
    assertThat(view.metadata().get(ViewDigest.METADATA_KEY).asText())
        .isEqualTo(ViewDigest.of(view.fileKeys(), view.externalIndexKeys()));
    assertThat(view.metadata().get(PlateauPublisher.LOG_VERSION_KEY).asLong()).isEqualTo(state.version());
  }

  private int indexFiles() throws IOException {
    int count = 0;
    for (var objects = store.list("events/indices/"); objects.hasNext(); objects.next()) {
      count++;
    }
    return count;
  }

  @Test
  void aPublicationAfterAppendsReplacesAndRewritesIsTheWholeViewOfTheVersion() throws IOException {
    PlateauPublisher publisher = new PlateauPublisher();
    append(files("a", "x", 3));
    append(files("a-b", "x", 2));
    append(files("a", "xy", 2));
    append(files("b", "x", 1));
    publisher.publish(log);
    assertViewIsTheLatestVersion();

    append(files("a", "x", 2));
    publisher.publish(log);
    assertViewIsTheLatestVersion();

    List<DataFile> replacement = files("a-b", "x", 1);
    log.commit(DatasetChange.replacePartitions(KEYS, SCHEMA, replacement, Set.of("s=a-b/t=x"))
        .withIndex(List.of("c"), index(replacement)));
    publisher.publish(log);
    assertViewIsTheLatestVersion();

    List<String> removed = log.state().labelsIn("s=a/t=x");
    List<DataFile> compacted = files("a", "x", 1);
    log.commit(DatasetChange.rewrite(SCHEMA, removed, compacted, Map.of(compacted.get(0).label(), log.state().version()),
        index(compacted)));
    publisher.publish(log);
    assertViewIsTheLatestVersion();

    // Nothing changed: the JSON is written again, no index file. A change of the index: one more.
    int indexFiles = indexFiles();
    publisher.publish(log);
    assertViewIsTheLatestVersion();
    assertThat(indexFiles()).isEqualTo(indexFiles);
    append(files("b", "x", 1));
    publisher.publish(log);
    assertThat(indexFiles()).isEqualTo(indexFiles + 1);

    // A new publisher (a restarted job) starts from nothing and writes the same view.
    append(files("c", "x", 1));
    new PlateauPublisher().publish(log);
    assertViewIsTheLatestVersion();
  }

  /** Per live file, the values of {@code c} it holds: the model of the index the test keeps. */
  private final Map<String, Set<Long>> valuesOfFile = new HashMap<>();
  private final java.util.Random random = new java.util.Random(20_261_126L);

  /** An index of {@code files} with one or two of 40 values each, recorded in the model. */
  private Map<String, Map<IndexValue, List<String>>> randomIndex(List<DataFile> files) {
    return randomIndex(files, 2);
  }

  /** An index of {@code files} with 1 to {@code most} of 40 values each, recorded in the model. */
  private Map<String, Map<IndexValue, List<String>>> randomIndex(List<DataFile> files, int most) {
    Map<IndexValue, List<String>> values = new HashMap<>();
    for (DataFile file : files) {
      Set<Long> held = new java.util.HashSet<>();
      for (int k = 0; k < 1 + random.nextInt(most); k++) {
        held.add((long) random.nextInt(40));
      }
      held.forEach(value -> values.computeIfAbsent(IndexValue.of(value), v -> new ArrayList<>()).add(file.label()));
      valuesOfFile.put(file.label(), held);
    }
    return Map.of("c", values);
  }

  /**
   * The published index file of {@code c} is, byte for byte, the file written afresh from the
   * model, and holds the model.
   */
  private void assertIndexFileIsWrittenAfresh(String step) throws IOException {
    Map<Object, java.util.TreeSet<String>> model = new java.util.TreeMap<>();
    valuesOfFile.forEach((label, values) ->
        values.forEach(value -> model.computeIfAbsent(value, v -> new java.util.TreeSet<>()).add(label)));
    Map<Object, List<String>> expected = new java.util.LinkedHashMap<>();
    model.forEach((value, labels) -> expected.put(value, List.copyOf(labels)));
    DatasetMetadata view = DatasetMetadataJson.read(store.get(DatasetKeys.metadataJsonKey("events")), "events");
    String key = view.externalIndexKeys().get("c");
    byte[] published = store.get(key);
    assertThat(IndexFile.read(published, key, "c", C.getType())).as(step).isEqualTo(expected);
    assertThat(published).as(step).isEqualTo(IndexFile.write("c", C.getType(), expected));
  }

  @Test
  void theIndexFileOfEveryPublicationIsTheOneWrittenAfreshFromTheVersion() throws IOException {
    PlateauPublisher publisher = new PlateauPublisher();
    // Each value in about 200 files: its labels take about a third of a page, so the index file has
    // pages to take over.
    for (String s : List.of("a", "b", "c")) {
      for (String t : List.of("x", "y")) {
        List<DataFile> files = files(s, t, 100);
        log.commit(DatasetChange.append(KEYS, SCHEMA, files).withIndex(List.of("c"), randomIndex(files, 25)));
      }
    }
    publisher.publish(log);
    assertIndexFileIsWrittenAfresh("first");
    for (int round = 0; round < 4; round++) {
      // a few files: some values gain a label, the others stay as they were
      List<DataFile> files = files(round % 2 == 0 ? "a" : "b", "x", 2);
      log.commit(DatasetChange.append(KEYS, SCHEMA, files).withIndex(List.of("c"), randomIndex(files)));
      publisher.publish(log);
      assertIndexFileIsWrittenAfresh("append " + round);
    }
    // values lose labels, some all of theirs
    List<DataFile> replacement = files("c", "y", 2);
    log.state().labelsIn("s=c/t=y").forEach(valuesOfFile::remove);
    log.commit(DatasetChange.replacePartitions(KEYS, SCHEMA, replacement, Set.of("s=c/t=y"))
        .withIndex(List.of("c"), randomIndex(replacement)));
    publisher.publish(log);
    assertIndexFileIsWrittenAfresh("replace");
    List<String> removed = log.state().labelsIn("s=a/t=x");
    removed.forEach(valuesOfFile::remove);
    List<DataFile> compacted = files("a", "x", 1);
    log.commit(DatasetChange.rewrite(SCHEMA, removed, compacted, Map.of(compacted.get(0).label(), log.state().version()),
        randomIndex(compacted)));
    publisher.publish(log);
    assertIndexFileIsWrittenAfresh("rewrite");
    List<DataFile> more = files("b", "y", 3);
    log.commit(DatasetChange.append(KEYS, SCHEMA, more).withIndex(List.of("c"), randomIndex(more)));
    publisher.publish(log);
    assertIndexFileIsWrittenAfresh("append after rewrite");
  }

  @Test
  void onlyThePartitionsWhoseFilesChangedAreSerialisedAgain() throws IOException {
    append(files("a", "x", 3));
    append(files("a-b", "x", 2));
    append(files("b", "x", 1));
    ViewPartitions partitions = new ViewPartitions();
    ViewPartitions.Serialized first = partitions.serialize(log.state());
    assertThat(first.partitionsSerialized()).isEqualTo(3);
    assertThat(first.files()).isEqualTo(6);
    assertThat(partitions.serialize(log.state()).partitionsSerialized()).isZero();

    append(files("a", "x", 1));
    ViewPartitions.Serialized afterAppend = partitions.serialize(log.state());
    assertThat(afterAppend.partitionsSerialized()).isEqualTo(1);
    assertThat(afterAppend.json()).hasSize(3);
    assertThat(afterAppend.json().get(0)).isSameAs(first.json().get(0)); // s=a-b/ comes first, unchanged
    assertThat(afterAppend.json().get(2)).isSameAs(first.json().get(2));

    // A state read from a snapshot holds other instances of the same files: serialised again, same bytes.
    DatasetState copy = new LogReader(store, "events").latest();
    ViewPartitions.Serialized fromSnapshot = partitions.serialize(copy);
    assertThat(fromSnapshot.digest()).isEqualTo(afterAppend.digest());
    for (int i = 0; i < 3; i++) {
      assertThat(fromSnapshot.json().get(i)).isEqualTo(afterAppend.json().get(i));
    }
  }
}
