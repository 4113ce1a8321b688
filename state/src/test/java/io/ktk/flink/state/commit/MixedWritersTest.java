package io.ktk.flink.state.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.metadata.DatasetMetadataJson;
import io.ktk.flink.state.metadata.IndexFile;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dataset that plateau writes too: plateau appends by rewriting the published view (keeping its
 * metadata, adding partitions and a new index file), and removes partitions the same way. The log
 * takes such changes over as versions of its own before it commits or publishes; it never drops
 * them from the view, GC never deletes their files, and a log that lost entries is refused.
 */
class MixedWritersTest {
  private static final String UUID = "events";
  private static final Field DAY = field("day", new ArrowType.Date(DateUnit.DAY));
  private static final Field C = field("c", new ArrowType.Int(64, true));
  private static final Field V = field("v", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  private static final Schema SCHEMA = new Schema(List.of(DAY, C, V));
  private static final Schema PHYSICAL = new Schema(List.of(C, V));

  @TempDir Path dir;
  ObjectStore store;

  @BeforeEach
  void openStore() {
    store = new LocalObjectStore(dir);
  }

  private static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }

  private DataFile writeFile(LocalDate day, long... cs) throws IOException {
    PartitionLabel label = PartitionLabel.of(List.of(DAY), List.of(day), PartitionLabel.newFileId());
    String key = UUID + "/table/" + label + ".parquet";
    try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, key, PHYSICAL, Map.of(), ParquetWriteOptions.defaults())) {
      for (long c : cs) {
        writer.write(Arrays.asList(c, c * 0.5));
      }
    }
    return new DataFile(label.toString(), cs.length, store.head(key).orElseThrow().size(), PHYSICAL);
  }

  private CommitResult commit(CommitLog log, LocalDate day, long... cs) throws IOException {
    DataFile file = writeFile(day, cs);
    Map<IndexValue, List<String>> values = new TreeMap<>(java.util.Comparator.comparing(v -> (Long) v.value()));
    for (long c : cs) {
      values.put(IndexValue.of(c), List.of(file.label()));
    }
    return log.commit(DatasetChange.append(List.of("day"), SCHEMA, List.of(file))
        .withIndex(List.of("c"), Map.of("c", values)));
  }

  /**
   * What plateau's {@code update_dataset_from_dataframes} does to the view: the new file under its
   * partition, a new index file of all values, the rest (metadata included) kept.
   */
  private DataFile plateauAppends(LocalDate day, long... cs) throws IOException {
    DataFile file = writeFile(day, cs);
    DatasetMetadata view = DatasetMetadata.load(store, UUID).orElseThrow();
    Map<String, String> files = new TreeMap<>(view.fileKeys());
    files.put(file.label(), file.key(UUID));
    Map<Object, List<String>> index = new TreeMap<>(
        IndexFile.read(store, view.externalIndexKeys().get("c"), "c", C.getType()));
    for (long c : cs) {
      TreeSet<String> labels = new TreeSet<>(index.getOrDefault(c, List.of()));
      labels.add(file.label());
      index.put(c, List.copyOf(labels));
    }
    String indexKey = DatasetKeys.indexFileKey(UUID, "c", Instant.now().plusSeconds(5));
    IndexFile.write(store, indexKey, "c", C.getType(), index);
    writeView(view, files, Map.of("c", indexKey));
    return file;
  }

  /** What plateau's update with a {@code delete_scope} of one partition does to the view. */
  private void plateauDeletesPartition(String partition) throws IOException {
    DatasetMetadata view = DatasetMetadata.load(store, UUID).orElseThrow();
    Map<String, String> files = new TreeMap<>(view.fileKeys());
    files.keySet().removeIf(label -> label.startsWith(partition + "/"));
    writeView(view, files, view.externalIndexKeys());
  }

  private void writeView(DatasetMetadata view, Map<String, String> files, Map<String, String> indices)
      throws IOException {
    DatasetMetadata updated = DatasetMetadata.of(UUID, view.partitionKeys(), files, indices, view.metadata());
    byte[] json = DatasetMetadataJson.write(updated);
    // plateau's JSON differs in layout from ours; a size that changes is what tells another writer
    store.put(DatasetKeys.metadataJsonKey(UUID), Arrays.copyOf(json, json.length));
  }

  @Test
  void aPlateauAppendIsAdoptedBeforeTheNextCommitAndStaysInTheView() throws IOException {
    CommitLog log = CommitLog.open(store, UUID, CommitLogOptions.DEFAULTS);
    DataFile ours = writeFile(LocalDate.of(2024, 1, 1), 1, 2);
    log.commit(DatasetChange.append(List.of("day"), SCHEMA, List.of(ours))
        .withIndex(List.of("c"), Map.of("c", Map.of(IndexValue.of(1L), List.of(ours.label()), IndexValue.of(2L), List.of(ours.label())))));
    log.publish();
    DataFile theirs = plateauAppends(LocalDate.of(2024, 1, 2), 2, 3);

    // The next commit, by another process that never saw the view, adopts plateau's file first.
    CommitLog other = CommitLog.open(store, UUID, CommitLogOptions.DEFAULTS);
    CommitResult next = commit(other, LocalDate.of(2024, 1, 3), 4);
    assertThat(next.version()).isEqualTo(2);
    DatasetState state = CommitLog.open(store, UUID, CommitLogOptions.DEFAULTS).state();
    assertThat(state.files()).containsKey(theirs.label()).hasSize(3);
    assertThat(state.index("c").get(IndexValue.of(2L))).containsExactlyInAnyOrder(ours.label(), theirs.label());
    assertThat(state.index("c").get(IndexValue.of(3L))).containsExactly(theirs.label());
    LogEntry adoption = new LogReader(store, UUID).readEntryIfPresent(1, state);
    assertThat(adoption.operation()).isEqualTo(LogOperation.ADOPT_CHANGES);
    assertThat(adoption.writerId()).isEqualTo(PublishedViewCheck.FOREIGN_WRITER);

    other.publish();
    DatasetMetadata view = DatasetMetadata.load(store, UUID).orElseThrow();
    assertThat(view.fileKeys()).containsKey(theirs.label()).hasSize(3);
    GarbageCollector.Result gc = GarbageCollector.collect(store, UUID, Duration.ZERO, Instant.now().plusSeconds(60),
        false, true);
    assertThat(gc.deleted()).noneMatch(key -> key.contains(theirs.label()) || key.contains(ours.label()));
    assertThat(store.head(theirs.key(UUID))).isPresent();
  }

  @Test
  void aPlateauAppendToAViewThatLagsTheLogKeepsTheLogsLaterVersions() throws IOException {
    CommitLog log = CommitLog.open(store, UUID, CommitLogOptions.DEFAULTS);
    commit(log, LocalDate.of(2024, 1, 1), 1);
    log.publish();
    commit(log, LocalDate.of(2024, 1, 2), 2); // version 1, not published
    DataFile theirs = plateauAppends(LocalDate.of(2024, 1, 3), 3);

    commit(log, LocalDate.of(2024, 1, 4), 4);
    DatasetState state = log.state();
    assertThat(state.version()).isEqualTo(3);
    assertThat(state.files()).hasSize(4).containsKey(theirs.label());
    log.publish();
    assertThat(DatasetMetadata.load(store, UUID).orElseThrow().fileKeys()).hasSize(4);
  }

  @Test
  void aPartitionPlateauDeletedIsRemovedFromTheLog() throws IOException {
    CommitLog log = CommitLog.open(store, UUID, CommitLogOptions.DEFAULTS);
    commit(log, LocalDate.of(2024, 1, 1), 1);
    commit(log, LocalDate.of(2024, 1, 2), 2);
    log.publish();
    plateauDeletesPartition("day=2024-01-02");

    long adopted = log.adoptForeignChanges();
    assertThat(adopted).isEqualTo(2);
    assertThat(log.state().files().keySet()).allMatch(label -> label.startsWith("day=2024-01-01/"));
    assertThat(log.state().index("c")).containsOnlyKeys(IndexValue.of(1L));
    assertThat(log.adoptForeignChanges()).as("nothing more to adopt").isEqualTo(-1);
  }

  @Test
  void ourOwnPublicationsFromAnotherProcessAreNotTakenForForeignChanges() throws IOException {
    CommitLog first = CommitLog.open(store, UUID, CommitLogOptions.DEFAULTS);
    commit(first, LocalDate.of(2024, 1, 1), 1);
    CommitLog second = CommitLog.open(store, UUID, CommitLogOptions.DEFAULTS);
    commit(second, LocalDate.of(2024, 1, 2), 2);
    second.publish();
    commit(first, LocalDate.of(2024, 1, 3), 3);
    first.publish();
    commit(second, LocalDate.of(2024, 1, 4), 4);

    DatasetState state = CommitLog.open(store, UUID, CommitLogOptions.DEFAULTS).state();
    assertThat(state.version()).isEqualTo(3);
    for (long version = 0; version <= 3; version++) {
      assertThat(new LogReader(store, UUID).readEntryIfPresent(version, state).operation())
          .isNotEqualTo(LogOperation.ADOPT_CHANGES);
    }
  }

  @Test
  void aDeletedLatestEntryIsRefusedInsteadOfReused() throws IOException {
    CommitLog log = CommitLog.open(store, UUID, CommitLogOptions.DEFAULTS);
    commit(log, LocalDate.of(2024, 1, 1), 1);
    commit(log, LocalDate.of(2024, 1, 2), 2);
    log.publish();
    store.delete(LogKeys.entry(UUID, 1));

    CommitLog reopened = CommitLog.open(store, UUID, CommitLogOptions.DEFAULTS);
    assertThat(reopened.state().version()).isZero();
    assertThatThrownBy(() -> commit(reopened, LocalDate.of(2024, 1, 3), 3))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("dataset 'events'")
        .hasMessageContaining("shows log version 1, but the log ends at version 0");
    assertThat(store.head(LogKeys.entry(UUID, 1))).as("version 1 not reused").isEmpty();
  }

  @Test
  void aDatasetWhoseLogWasDeletedIsNotAdoptedAfresh() throws IOException {
    CommitLog log = CommitLog.open(store, UUID, CommitLogOptions.DEFAULTS);
    commit(log, LocalDate.of(2024, 1, 1), 1);
    log.publish();
    store.delete(LogKeys.entry(UUID, 0));

    assertThatThrownBy(() -> CommitLog.open(store, UUID, CommitLogOptions.DEFAULTS))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("the log (events/_ktk_log/) is gone");
    assertThat(store.list(LogKeys.logPrefix(UUID)).hasNext()).isFalse();
  }

  @Test
  void plateauRemovingAFileTheLogStillHasBeforeAnyPublicationUsesVersionZero() throws IOException {
    CommitLog log = CommitLog.open(store, UUID, CommitLogOptions.DEFAULTS);
    commit(log, LocalDate.of(2024, 1, 1), 1);
    log.publish();
    Set<String> before = Set.copyOf(log.state().files().keySet());
    DataFile theirs = plateauAppends(LocalDate.of(2024, 1, 1), 5);
    assertThat(log.adoptForeignChanges()).isEqualTo(1);
    assertThat(log.state().files().keySet()).containsAll(before).contains(theirs.label());
  }
}
