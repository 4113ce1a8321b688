package io.ktk.flink.sink.committer;

import io.ktk.flink.sink.committable.FileBatchSerializer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.sink.committable.FileBatch;
import io.ktk.flink.sink.committable.FileBatchSerializerTest;
import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.GarbageCollector;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.CountingObjectStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkpoint committed long after its files were written (the job was down, then restored):
 * the committer checks that the files still exist before committing, because garbage collection
 * deletes uncommitted files older than its safety age. The committer's clock is set by the test.
 */
class LateCommitTest {
  private static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("p", DataTypes.STRING()),
      DataTypes.FIELD("id", DataTypes.BIGINT()),
      DataTypes.FIELD("v", DataTypes.DOUBLE()),
      DataTypes.FIELD("ts", DataTypes.TIMESTAMP(6))).getLogicalType();
  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

  /** Set per test; the factory below must stay serializable, so it reads a static field. */
  static CountingObjectStore store;

  @TempDir Path dir;
  private KartothekSinkConfig config;

  @BeforeEach
  void setUp() {
    store = new CountingObjectStore(new LocalObjectStore(dir));
    config = KartothekSink.forRowData(ROW_TYPE).store(() -> store).dataset("events").partitionBy("p").indexBy("id")
        .build().config();
  }

  @Test
  void everyBatchIsCheckedByDefaultWhateverItsAge() throws Exception {
    FileBatch young = batch(1, NOW.minus(Duration.ofMinutes(3)), 3);
    String deleted = young.files().get(2).key("events");
    store.delete(deleted);
    assertThatThrownBy(() -> commit(NOW, new RecordingCommitRequest(young)))
        .cause()
        .isInstanceOf(MissingPartFilesException.class)
        .hasMessageContaining("1 of its 3 part files are missing from the store (first: " + deleted + ")")
        .hasMessageContaining("it was written 3m 0s ago")
        .hasMessageContaining("GC was probably forced to a shorter age while this job ran");
    assertThat(state().exists()).as("nothing committed").isFalse();
  }

  @Test
  void aBatchYoungerThanTheThresholdIsCommittedWithoutHeadRequests() throws Exception {
    config = KartothekSink.forRowData(ROW_TYPE).store(() -> store).dataset("events").partitionBy("p").indexBy("id")
        .verifyFilesOlderThan(Duration.ofHours(1)).build().config();
    RecordingCommitRequest request = new RecordingCommitRequest(batch(1, NOW.minus(Duration.ofMinutes(59)), 3));
    commit(NOW, request);

    assertThat(store.headsOf("/table/")).isZero();
    assertThat(state().files()).hasSize(3);
    assertThat(request.retries).isZero();
  }

  @Test
  void anOldBatchWhoseFilesExistIsCommittedAfterOneHeadRequestPerFile() throws Exception {
    RecordingCommitRequest request = new RecordingCommitRequest(batch(1, NOW.minus(Duration.ofHours(2)), 3));
    commit(NOW, request);

    assertThat(store.headsOf("/table/")).isEqualTo(3);
    assertThat(state().files()).hasSize(3);
    assertThat(state().checkpoints()).containsEntry(request.batch.writerId(), 1L);
  }

  @Test
  void anOldBatchWithADeletedFileFailsWithoutRestartsAndTheDatasetIsUnchanged() throws Exception {
    commit(NOW, new RecordingCommitRequest(batch(1, NOW, 1)));
    long version = state().version();
    FileBatch old = batch(2, NOW.minus(Duration.ofHours(26).plusSeconds(5)), 3);
    String deleted = old.files().get(1).key("events");
    store.delete(deleted);

    RecordingCommitRequest request = new RecordingCommitRequest(old);
    assertThatThrownBy(() -> commit(NOW, request))
        .isInstanceOf(SuppressRestartsException.class)
        .cause()
        .isInstanceOf(MissingPartFilesException.class)
        .hasMessageContaining("Cannot commit checkpoint 2 to dataset 'events': 1 of its 3 part files are missing")
        .hasMessageContaining("(first: " + deleted + ")")
        .hasMessageContaining("it was written 1d 2h 0m 5s ago")
        .hasMessageContaining("Garbage collection probably deleted them")
        .hasMessageContaining("ktk gc --older-than")
        .hasMessageContaining("the job was down longer than that")
        .hasMessageContaining("Nothing of checkpoint 2 was committed")
        .hasMessageContaining("restore the missing files");

    assertThat(state().version()).as("nothing committed").isEqualTo(version);
    assertThat(state().files()).hasSize(1);
    assertThat(request.retries).as("not retried: a retry would fail the same way").isZero();
  }

  @Test
  void aBatchRestoredFromVersionOneBytesIsCheckedWhateverItsAge() throws Exception {
    // What FileBatchSerializer makes of version 1 bytes (FileBatchSerializerTest): no write time.
    FileBatch restored = withWriteTime(batch(1, NOW, 2), FileBatch.UNKNOWN_WRITE_TIME);
    commit(NOW, new RecordingCommitRequest(restored));
    assertThat(store.headsOf("/table/")).isEqualTo(2);
    assertThat(state().files()).hasSize(2);

    FileBatch missing = withWriteTime(batch(2, NOW, 2), FileBatch.UNKNOWN_WRITE_TIME);
    store.delete(missing.files().get(0).key("events"));
    assertThatThrownBy(() -> commit(NOW, new RecordingCommitRequest(missing)))
        .cause()
        .isInstanceOf(MissingPartFilesException.class)
        .hasMessageContaining("1 of its 2 part files are missing")
        .hasMessageContaining("its age is unknown (restored from a checkpoint of an older sink version)");
  }

  @Test
  void anOldBatchTheLogHoldsIsAcknowledgedWithoutCheckingItsFiles() throws Exception {
    FileBatch batch = batch(1, NOW, 2);
    commit(NOW, new RecordingCommitRequest(batch));
    // Later versions may have removed its files on purpose (replace-partitions) and GC deleted them.
    batch.files().forEach(file -> delete(file.key("events")));
    store.reset();

    RecordingCommitRequest replayed = new RecordingCommitRequest(batch);
    commit(NOW.plus(Duration.ofDays(3)), replayed);
    assertThat(replayed.alreadyCommitted).isTrue();
    assertThat(store.headsOf("/table/")).isZero();
  }

  @Test
  void garbageCollectionAfterALongDowntimeDeletesTheUncommittedFilesAndTheLateCommitNamesTheCause()
      throws Exception {
    Instant written = Instant.now();
    commit(written, new RecordingCommitRequest(batch(1, written, 1)));
    FileBatch uncommitted = batch(2, written, 2); // its checkpoint completed, then the job failed

    // Two hours later, with a safety age of one hour, GC deletes the files no version references.
    Instant later = written.plus(Duration.ofHours(2));
    GarbageCollector.Result gc = GarbageCollector.collect(new LocalObjectStore(dir), "events", Duration.ofHours(1),
        later, false);
    assertThat(gc.deleted()).containsExactlyInAnyOrderElementsOf(
        uncommitted.files().stream().map(file -> file.key("events")).toList());

    // The restored job's committer gets checkpoint 2 from its state.
    long version = state().version();
    assertThatThrownBy(() -> commit(later, new RecordingCommitRequest(uncommitted)))
        .cause()
        .isInstanceOf(MissingPartFilesException.class)
        .hasMessageContaining("Cannot commit checkpoint 2 to dataset 'events': 2 of its 2 part files are missing")
        .hasMessageContaining("Garbage collection probably deleted them");
    assertThat(state().version()).isEqualTo(version);
  }

  private void commit(Instant now, RecordingCommitRequest... requests) throws Exception {
    try (KartothekCommitter committer = new KartothekCommitter(List.of(config), null, new UnregisteredMetricsGroup(),
        Clock.fixed(now, ZoneOffset.UTC))) {
      committer.commit(List.of(requests));
    }
  }

  private DatasetState state() throws Exception {
    return CommitLog.open(new LocalObjectStore(dir), "events", CommitLogOptions.DEFAULTS).state();
  }

  private void delete(String key) {
    try {
      store.delete(key);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A batch of checkpoint {@code checkpointId} with {@code files} part files in partition p=a,
   * each written to the store (a few bytes: the committer does not read them).
   */
  static FileBatch batch(long checkpointId, Instant writtenAt, int files) throws Exception {
    FileBatch template = FileBatchSerializerTest.sample();
    DataFile first = template.files().get(0);
    List<DataFile> parts = new ArrayList<>();
    for (int i = 0; i < files; i++) {
      DataFile file = new DataFile(String.format("p=a/%016x%016x", checkpointId, i), first.rows(), first.bytes(),
          first.physicalSchema());
      store.put(file.key("events"), new byte[] {1, 2, 3});
      parts.add(file);
    }
    return new FileBatch("events", template.writerId(), checkpointId, template.schema(), template.partitionColumns(),
        template.indexColumns(), parts, Map.of("id", Map.of(IndexValue.of(7L), List.of(parts.get(0).label()))),
        writtenAt.toEpochMilli());
  }

  private static FileBatch withWriteTime(FileBatch batch, long millis) {
    return FileBatchSerializerTest.writtenAt(batch, millis);
  }
}
