package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.sink.committable.FileBatch;
import io.ktk.flink.sink.committer.KartothekCommitter;
import io.ktk.flink.sink.committer.MissingPartFilesException;
import io.ktk.flink.sink.committer.RecordingCommitRequest;
import io.ktk.flink.sink.config.CubeSinkConfig;
import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.state.commit.CubeCommitLog;
import io.ktk.flink.state.commit.CubeVersions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.metadata.IndexFile;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.FaultyObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committer of a cube sink, driven directly: a checkpoint whose commit stops between two
 * datasets is not visible to cube readers, and the restarted committer completes it; a late
 * checkpoint whose files garbage collection deleted in one dataset is committed to none.
 */
class CubeTransactionTest {
  private static final String WRITER = "00000000-0000-4000-8000-00000000000a";

  /** Set per test; the factory must stay serializable, so it reads a static field. */
  private static FaultyObjectStore store;

  @TempDir Path dir;

  @Test
  void aCrashBetweenTheDatasetsOfACheckpointHidesItFromCubeReadersAndTheRestartCompletesIt() throws Exception {
    store = new FaultyObjectStore(new LocalObjectStore(dir));
    CubeSinkConfig config = CubeTestRows.sink(() -> store).build().config();
    try (KartothekCommitter committer = new KartothekCommitter(config.datasets(), config.spec(),
        new UnregisteredMetricsGroup())) {
      committer.commit(List.copyOf(requests(config, 1)));
    }
    assertThat(pinned()).containsExactly(Map.entry("prices", 0L), Map.entry("seed", 0L), Map.entry("weather", 0L));

    // Checkpoint 2: prices and seed commit (in uuid order), then the claim of weather's version
    // fails and so does asking whether it landed; the process dies before any retry.
    String weatherVersion1 = "sales++weather/_ktk_log/00000000000000000001.json";
    store.failPutIfAbsent(1, FaultyObjectStore.When.BEFORE, weatherVersion1).failGet(1, weatherVersion1);
    List<RecordingCommitRequest> second = requests(config, 2);
    try (KartothekCommitter committer = new KartothekCommitter(config.datasets(), config.spec(),
        new UnregisteredMetricsGroup())) {
      committer.commit(List.copyOf(second));
    }
    assertThat(second).allSatisfy(request -> assertThat(request.retries).isEqualTo(1));
    try (LocalObjectStore plain = new LocalObjectStore(dir)) {
      assertThat(new LogReader(plain, "sales++seed").latest().version()).as("the seed's log has it").isEqualTo(1);
      assertThat(new LogReader(plain, "sales++weather").latest().version()).isEqualTo(0);
    }
    assertThat(pinned()).as("cube readers do not").containsExactly(
        Map.entry("prices", 0L), Map.entry("seed", 0L), Map.entry("weather", 0L));

    // The restarted job's committer gets checkpoint 2 again from its state.
    List<RecordingCommitRequest> replayed = requests(config, 2);
    try (KartothekCommitter committer = new KartothekCommitter(config.datasets(), config.spec(),
        new UnregisteredMetricsGroup())) {
      committer.commit(List.copyOf(replayed));
    }
    assertThat(replayed).allSatisfy(request -> assertThat(request.retries).isZero());
    assertThat(replayed).filteredOn(request -> request.alreadyCommitted)
        .extracting(request -> request.batch.dataset())
        .containsExactlyInAnyOrder("sales++prices", "sales++seed");
    assertThat(pinned()).containsExactly(Map.entry("prices", 1L), Map.entry("seed", 1L), Map.entry("weather", 1L));
    try (LocalObjectStore plain = new LocalObjectStore(dir)) {
      CubeCommitLog.Record record = CubeCommitLog.of(plain, "sales").latest().orElseThrow();
      assertThat(record.checkpointId()).isEqualTo(2);
      assertThat(record.writerId()).isEqualTo(WRITER);
      assertThat(record.transaction()).containsExactly(
          Map.entry("prices", 1L), Map.entry("seed", 1L), Map.entry("weather", 1L));
    }
  }

  @Test
  void aLateCheckpointWithAFileOfOneDatasetDeletedCommitsNoneOfItsDatasets() throws Exception {
    store = new FaultyObjectStore(new LocalObjectStore(dir));
    CubeSinkConfig config = CubeTestRows.sink(() -> store).build().config();
    Instant now = Instant.parse("2026-11-22T10:00:00Z");
    try (KartothekCommitter committer = new KartothekCommitter(config.datasets(), config.spec(),
        new UnregisteredMetricsGroup(), Clock.fixed(now, ZoneOffset.UTC))) {
      committer.commit(List.copyOf(requests(config, 1, now.toEpochMilli())));
    }

    // Checkpoint 2 was written two days ago (the job was down); GC deleted weather's file only.
    List<RecordingCommitRequest> late = requests(config, 2, now.minus(Duration.ofDays(2)).toEpochMilli());
    for (RecordingCommitRequest request : late) {
      for (DataFile file : request.batch.files()) {
        store.put(file.key(request.batch.dataset()), new byte[] {1});
      }
    }
    String deleted = "sales++weather/table/day=d1/" + String.format("%032d", 2) + ".parquet";
    store.delete(deleted);
    try (KartothekCommitter committer = new KartothekCommitter(config.datasets(), config.spec(),
        new UnregisteredMetricsGroup(), Clock.fixed(now, ZoneOffset.UTC))) {
      assertThatThrownBy(() -> committer.commit(List.copyOf(late)))
          .cause()
          .isInstanceOf(MissingPartFilesException.class)
          .hasMessageContaining("Cannot commit checkpoint 2 to dataset 'sales++weather': 1 of its 1 part files")
          .hasMessageContaining(deleted)
          .hasMessageContaining("it was written 2d 0h 0m 0s ago")
          .hasMessageContaining("Nothing of checkpoint 2 was committed to any dataset of cube 'sales'");
    }
    try (LocalObjectStore plain = new LocalObjectStore(dir)) {
      for (String id : List.of("prices", "seed", "weather")) {
        assertThat(new LogReader(plain, "sales++" + id).latest().version()).as("log of %s", id).isZero();
      }
      assertThat(CubeCommitLog.of(plain, "sales").latest().orElseThrow().checkpointId()).isEqualTo(1);
    }
    assertThat(pinned()).containsExactly(Map.entry("prices", 0L), Map.entry("seed", 0L), Map.entry("weather", 0L));
  }

  /** Seed and enrichment indexed on the same column each publish their own index file. */
  @Test
  void anEnrichmentIndexedLikeTheSeedPublishesItsOwnIndex() throws Exception {
    store = new FaultyObjectStore(new LocalObjectStore(dir));
    CubeSinkConfig config = CubeTestRows.sink(() -> store).build().config();
    for (long checkpoint = 1; checkpoint <= 2; checkpoint++) {
      List<RecordingCommitRequest> requests = new ArrayList<>();
      for (RecordingCommitRequest request : requests(config, checkpoint)) {
        FileBatch batch = request.batch;
        if (batch.dataset().equals("sales++weather")) {
          // The enrichment carries an index on its dimension column 'store', as the seed does.
          batch = new FileBatch(batch.dataset(), batch.writerId(), batch.checkpointId(), batch.schema(),
              batch.partitionColumns(), List.of("store"), batch.files(),
              Map.of("store", Map.of(IndexValue.of(100 + checkpoint), List.of(batch.files().get(0).label()))), batch.writtenAtMillis());
        }
        requests.add(new RecordingCommitRequest(batch));
      }
      try (KartothekCommitter committer = new KartothekCommitter(config.datasets(), config.spec(),
          new UnregisteredMetricsGroup())) {
        committer.commit(List.copyOf(requests));
      }
    }
    try (LocalObjectStore plain = new LocalObjectStore(dir)) {
      for (String id : List.of("seed", "weather")) {
        String key = DatasetMetadata.load(plain, "sales++" + id).orElseThrow().externalIndexKeys().get("store");
        assertThat(key).as("index of %s", id).startsWith("sales++" + id + "/indices/store/");
      }
      String weatherIndex = DatasetMetadata.load(plain, "sales++weather").orElseThrow().externalIndexKeys().get("store");
      assertThat(IndexFile.read(plain, weatherIndex, "store", new ArrowType.Int(64, true)))
          .containsOnlyKeys(101L, 102L);
    }
  }

  private Map<String, Long> pinned() throws Exception {
    Map<String, Long> versions = new TreeMap<>();
    try (LocalObjectStore plain = new LocalObjectStore(dir)) {
      CubeVersions.latest(plain, "sales", List.of("seed", "weather", "prices"))
          .forEach((id, state) -> versions.put(id, state.version()));
    }
    return versions;
  }

  /** One batch per dataset for {@code checkpoint}: one file in partition day=d1 (not in the store). */
  private static List<RecordingCommitRequest> requests(CubeSinkConfig config, long checkpoint) throws IOException {
    return requests(config, checkpoint, System.currentTimeMillis());
  }

  private static List<RecordingCommitRequest> requests(CubeSinkConfig config, long checkpoint, long writtenAtMillis)
      throws IOException {
    List<RecordingCommitRequest> requests = new ArrayList<>();
    for (KartothekSinkConfig dataset : config.datasets()) {
      Schema declared = dataset.declaredSchema();
      Schema physical = new Schema(declared.getFields().subList(1, declared.getFields().size()));
      DataFile file = new DataFile(String.format("day=d1/%032d", checkpoint), 1, 100, physical);
      store.put(file.key(dataset.dataset()), new byte[] {1}); // the committer checks that it exists
      Map<String, Map<IndexValue, List<String>>> index = new TreeMap<>();
      for (String column : dataset.indexColumns()) {
        index.put(column, Map.of(IndexValue.of(checkpoint), List.of(file.label())));
      }
      requests.add(new RecordingCommitRequest(new FileBatch(dataset.dataset(), WRITER, checkpoint, declared,
          dataset.partitionColumns(), dataset.indexColumns(), List.of(file), index, writtenAtMillis)));
    }
    return requests;
  }
}
