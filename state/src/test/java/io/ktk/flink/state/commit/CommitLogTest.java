package io.ktk.flink.state.commit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.FaultyObjectStore;
import io.ktk.flink.state.types.IncompatibleSchemaException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommitLogTest {
  private static final String DATASET = "sales";
  static final Schema SCHEMA = new Schema(List.of(
      field("p", new ArrowType.Utf8()),
      field("c", new ArrowType.Int(64, true)),
      field("v", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));
  private static final Schema PHYSICAL = new Schema(List.of(
      field("c", new ArrowType.Int(64, true)),
      field("v", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));
  private static final CommitLogOptions OPTIONS = CommitLogOptions.DEFAULTS;

  @TempDir Path dir;
  ObjectStore store;

  @BeforeEach
  void openStore() {
    store = new LocalObjectStore(dir);
  }

  static Field field(String name, ArrowType type) {
    return new Field(name, FieldType.nullable(type), null);
  }

  static DataFile file(String partition, long rows) {
    return new DataFile("p=" + partition + "/" + UUID.randomUUID().toString().replace("-", ""), rows, rows * 10, PHYSICAL);
  }

  static DatasetChange append(DataFile... files) {
    return DatasetChange.append(List.of("p"), SCHEMA, List.of(files));
  }

  @Test
  void firstCommitCreatesTheDatasetAndAReopenedLogSeesEveryVersion() throws IOException {
    CommitLog log = CommitLog.open(store, DATASET, OPTIONS);
    assertThat(log.state().exists()).isFalse();
    DataFile a = file("x", 3);
    DataFile b = file("y", 4);
    assertThat(log.commit(append(a).withIndex(List.of("c"), Map.of("c", Map.of(IndexValue.of(7L), List.of(a.label())))))
        .version()).isZero();
    assertThat(log.commit(append(b).withIndex(List.of(), Map.of("c", Map.of(IndexValue.of(7L), List.of(b.label())))))
        .version()).isEqualTo(1);

    DatasetState reopened = CommitLog.open(store, DATASET, OPTIONS).state();
    assertThat(reopened.version()).isEqualTo(1);
    assertThat(reopened.partitionKeys()).containsExactly("p");
    assertThat(reopened.files()).containsOnlyKeys(a.label(), b.label());
    assertThat(reopened.files().get(a.label())).isEqualTo(a);
    assertThat(reopened.schema()).isEqualTo(SCHEMA);
    assertThat(reopened.indexColumns()).containsExactly("c");
    assertThat(reopened.index("c")).containsOnlyKeys(IndexValue.of(7L));
    assertThat(reopened.index("c").get(IndexValue.of(7L))).containsExactlyInAnyOrder(a.label(), b.label());
  }

  @Test
  void replayedCheckpointIsAcknowledgedAndWritesNothing() throws IOException {
    CommitLog log = CommitLog.open(store, DATASET, OPTIONS);
    DataFile committed = file("x", 1);
    log.commit(append(committed).withWriter("w1", 5));
    CommitResult replay = log.commit(append(committed).withWriter("w1", 5));
    CommitResult older = CommitLog.open(store, DATASET, OPTIONS).commit(append(file("x", 1)).withWriter("w1", 4));
    CommitResult otherWriter = log.commit(append(file("x", 1)).withWriter("w2", 5));

    assertThat(replay.alreadyCommitted()).isTrue();
    assertThat(older.alreadyCommitted()).isTrue();
    assertThat(otherWriter.alreadyCommitted()).isFalse();
    DatasetState state = CommitLog.open(store, DATASET, OPTIONS).state();
    assertThat(state.version()).isEqualTo(1);
    assertThat(state.files()).hasSize(2);
    assertThat(state.checkpoints()).isEqualTo(Map.of("w1", 5L, "w2", 5L));
  }

  @Test
  void otherFilesUnderAWritersLatestCheckpointAreACollisionNotAReplay() throws IOException {
    CommitLog log = CommitLog.open(store, DATASET, OPTIONS.withSnapshotInterval(1));
    DataFile committed = file("x", 1);
    log.commit(append(committed).withWriter("w1", 5));
    DataFile other = file("x", 7);

    // A reopened log (read from the snapshot just written) recognises it as well.
    CommitLog reopened = CommitLog.open(store, DATASET, OPTIONS);
    assertThatThrownBy(() -> reopened.commit(append(other).withWriter("w1", 5)))
        .isInstanceOf(CheckpointCollisionException.class)
        .hasMessageContaining("checkpoint 5 of writer w1")
        .hasMessageContaining("dataset 'sales'")
        .hasMessageContaining("7 rows");
    assertThat(reopened.commit(append(committed).withWriter("w1", 5)).alreadyCommitted()).isTrue();
    assertThat(CommitLog.open(store, DATASET, OPTIONS).state().files()).containsOnlyKeys(committed.label());
  }

  @Test
  void writerThatLostARaceRebasesOntoTheWinner() throws IOException {
    CommitLog.open(store, DATASET, OPTIONS).commit(append(file("x", 1)));
    CommitLog first = CommitLog.open(store, DATASET, OPTIONS);
    CommitLog second = CommitLog.open(store, DATASET, OPTIONS);
    DataFile a = file("x", 2);
    DataFile b = file("y", 3);

    assertThat(first.commit(append(a)).version()).isEqualTo(1);
    CommitResult rebased = second.commit(append(b));

    assertThat(rebased.version()).isEqualTo(2);
    assertThat(rebased.attempts()).isEqualTo(2);
    assertThat(CommitLog.open(store, DATASET, OPTIONS).state().files()).containsKeys(a.label(), b.label());
  }

  @Test
  void replaceOfAPartitionIsRecomputedAgainstWhatWonTheRace() throws IOException {
    CommitLog setup = CommitLog.open(store, DATASET, OPTIONS);
    DataFile oldX = file("x", 1);
    DataFile keptY = file("y", 1);
    setup.commit(append(oldX, keptY));
    CommitLog appender = CommitLog.open(store, DATASET, OPTIONS);
    CommitLog replacer = CommitLog.open(store, DATASET, OPTIONS);
    DataFile concurrentX = file("x", 2);
    appender.commit(append(concurrentX));

    DataFile newX = file("x", 5);
    replacer.commit(DatasetChange.replacePartitions(List.of("p"), SCHEMA, List.of(newX), Set.of("p=x")));

    DatasetState state = CommitLog.open(store, DATASET, OPTIONS).state();
    assertThat(state.files()).containsOnlyKeys(keptY.label(), newX.label());
  }

  @Test
  void commitWithOtherPartitionKeysThanTheDatasetIsRefused() throws IOException {
    CommitLog.open(store, DATASET, OPTIONS).commit(append(file("x", 1)));
    DatasetChange byQ = DatasetChange.append(List.of("c"), SCHEMA, List.of(
        new DataFile("c=1/" + "0".repeat(32), 1, 1, PHYSICAL)));
    assertThatThrownBy(() -> CommitLog.open(store, DATASET, OPTIONS).commit(byQ))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("'sales'")
        .hasMessageContaining("partitioned by [p]")
        .hasMessageContaining("[c]");
  }

  @Test
  void labelsThatDoNotMatchThePartitionKeysAreRefused() throws IOException {
    DatasetChange bad = DatasetChange.append(List.of("p"), SCHEMA, List.of(
        new DataFile("q=1/" + "0".repeat(32), 1, 1, PHYSICAL)));
    assertThatThrownBy(() -> CommitLog.open(store, DATASET, OPTIONS).commit(bad))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("label 'q=1/")
        .hasMessageContaining("[p]");
    assertThat(store.list("sales/").hasNext()).as("nothing written").isFalse();
  }

  @Test
  void snapshotsBoundWhatAReaderReplays() throws IOException {
    CommitLog log = CommitLog.open(store, DATASET, OPTIONS.withSnapshotInterval(10));
    List<DataFile> files = new ArrayList<>();
    for (int i = 0; i < 35; i++) {
      DataFile file = file("p" + (i % 4), i + 1);
      files.add(file);
      log.commit(append(file).withWriter("w", i));
    }
    DatasetState fullReplayAt25 = new LogReader(store, DATASET).at(25);
    assertThat(fullReplayAt25.files()).hasSize(26);

    // Entries before the newest snapshot are not needed any more: remove them.
    for (int v = 0; v <= 30; v++) {
      store.delete(LogKeys.entry(DATASET, v));
    }
    DatasetState latest = CommitLog.open(store, DATASET, OPTIONS).state();
    assertThat(latest.version()).isEqualTo(34);
    assertThat(latest.files().keySet()).containsExactlyInAnyOrderElementsOf(files.stream().map(DataFile::label).toList());
    assertThat(latest.checkpoints()).isEqualTo(Map.of("w", 34L));
    assertThat(latest.files().get(files.get(7).label())).isEqualTo(files.get(7));
    // The version that added each file survives the snapshot (readers order duplicate cells by it).
    for (int i = 0; i < files.size(); i++) {
      assertThat(latest.addedIn(files.get(i).label())).as("file %d", i).isEqualTo(i);
    }
  }

  @Test
  void aClaimWhoseResponseWasLostIsRecognisedAsOurs() throws IOException {
    CommitLog.open(store, DATASET, OPTIONS).commit(append(file("x", 1)));
    FaultyObjectStore faulty = new FaultyObjectStore(store).failPutIfAbsent(1, FaultyObjectStore.When.AFTER);
    CommitResult result = CommitLog.open(faulty, DATASET, OPTIONS).commit(append(file("y", 1)).withWriter("w", 1));

    assertThat(result.version()).isEqualTo(1);
    DatasetState state = CommitLog.open(store, DATASET, OPTIONS).state();
    assertThat(state.version()).as("exactly one version added").isEqualTo(1);
    assertThat(state.files()).hasSize(2);
  }

  @Test
  void aClaimThatFailedBeforeWritingIsRetried() throws IOException {
    FaultyObjectStore faulty = new FaultyObjectStore(store).failPutIfAbsent(2, FaultyObjectStore.When.BEFORE);
    CommitResult result = CommitLog.open(faulty, DATASET, OPTIONS).commit(append(file("y", 1)));
    assertThat(result.version()).isZero();
    assertThat(CommitLog.open(store, DATASET, OPTIONS).state().files()).hasSize(1);
  }

  @Test
  void unknownOutcomeIsReportedAndAReplayLaterIsAcknowledged() throws IOException {
    CommitLog.open(store, DATASET, OPTIONS).commit(append(file("x", 1)));
    FaultyObjectStore faulty = new FaultyObjectStore(store);
    CommitLog log = CommitLog.open(faulty, DATASET, OPTIONS);
    faulty.failPutIfAbsent(1, FaultyObjectStore.When.AFTER).failGet(1);
    DataFile file = file("y", 1);

    assertThatThrownBy(() -> log.commit(append(file).withWriter("w", 9)))
        .isInstanceOf(CommitStateUnknownException.class)
        .hasMessageContaining("version 1")
        .hasMessageContaining("'sales'");

    CommitResult replay = CommitLog.open(store, DATASET, OPTIONS).commit(append(file).withWriter("w", 9));
    assertThat(replay.alreadyCommitted()).isTrue();
    assertThat(CommitLog.open(store, DATASET, OPTIONS).state().version()).isEqualTo(1);
  }

  @Test
  void corruptOrForeignLogEntriesAreRefusedWithTheirKey() throws IOException {
    CommitLog.open(store, DATASET, OPTIONS).commit(append(file("x", 1)));
    store.put(LogKeys.entry(DATASET, 1), "{\"format\": \"ktk-flink-log\", \"format_vers".getBytes(UTF_8));
    assertThatThrownBy(() -> CommitLog.open(store, DATASET, OPTIONS))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("sales/_ktk_log/00000000000000000001.json")
        .hasMessageContaining("not valid JSON");

    store.put(LogKeys.entry(DATASET, 1),
        "{\"format\": \"ktk-flink-log\", \"format_version\": 7, \"version\": 1}".getBytes(UTF_8));
    assertThatThrownBy(() -> CommitLog.open(store, DATASET, OPTIONS))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("format_version 7 is not supported (supported: 1)");

    store.delete(LogKeys.entry(DATASET, 1));
    store.put(LogKeys.entry(DATASET, 2), store.get(LogKeys.entry(DATASET, 0)));
    assertThatThrownBy(() -> CommitLog.open(store, DATASET, OPTIONS))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("version 1 is missing but version 2 exists");
  }

  @Test
  void committedNullColumnTakesTheFirstConcreteTypeAndThenRefusesOthers() throws IOException {
    Schema allNullV = new Schema(List.of(SCHEMA.getFields().get(0), SCHEMA.getFields().get(1),
        field("v", new ArrowType.Null())));
    Schema int8C = new Schema(List.of(SCHEMA.getFields().get(0), field("c", new ArrowType.Int(8, true)),
        SCHEMA.getFields().get(2)));
    Schema intV = new Schema(List.of(SCHEMA.getFields().get(0), SCHEMA.getFields().get(1),
        field("v", new ArrowType.Int(64, true))));
    CommitLog log = CommitLog.open(store, DATASET, OPTIONS);
    log.commit(DatasetChange.append(List.of("p"), allNullV, List.of(file("x", 1))));
    assertThat(log.state().schema().findField("v").getType()).isEqualTo(new ArrowType.Null());

    CommitLog other = CommitLog.open(store, DATASET, OPTIONS);
    log.commit(DatasetChange.append(List.of("p"), int8C, List.of(file("x", 1))));
    assertThat(log.state().schema()).as("int8 normalized, null column took double").isEqualTo(SCHEMA);

    // `other` still believes v is null-typed: its rebase must re-validate against double.
    assertThatThrownBy(() -> other.commit(DatasetChange.append(List.of("p"), intV, List.of(file("y", 1)))))
        .isInstanceOf(IncompatibleSchemaException.class)
        .hasMessageContaining("'sales'")
        .hasMessageContaining("'v'")
        .hasMessageContaining("double")
        .hasMessageContaining("int64");
    assertThat(CommitLog.open(store, DATASET, OPTIONS).state().version()).isEqualTo(1);
  }
}
