package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.committer.FileBatch;
import io.ktk.flink.sink.committer.KartothekCommitter;
import io.ktk.flink.state.commit.CubeCommitLog;
import io.ktk.flink.state.commit.CubeVersions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.FaultyObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committer of a cube sink, driven directly: a checkpoint whose commit stops between two
 * datasets is not visible to cube readers, and the restarted committer completes it.
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
    List<Request> second = requests(config, 2);
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
    List<Request> replayed = requests(config, 2);
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

  private Map<String, Long> pinned() throws Exception {
    Map<String, Long> versions = new TreeMap<>();
    try (LocalObjectStore plain = new LocalObjectStore(dir)) {
      CubeVersions.latest(plain, "sales", List.of("seed", "weather", "prices"))
          .forEach((id, state) -> versions.put(id, state.version()));
    }
    return versions;
  }

  /** One batch per dataset for {@code checkpoint}: one file in partition day=d1. */
  private static List<Request> requests(CubeSinkConfig config, long checkpoint) {
    List<Request> requests = new ArrayList<>();
    for (KartothekSinkConfig dataset : config.datasets()) {
      Schema declared = dataset.declaredSchema();
      Schema physical = new Schema(declared.getFields().subList(1, declared.getFields().size()));
      DataFile file = new DataFile(String.format("day=d1/%032d", checkpoint), 1, 100, physical);
      Map<String, Map<Object, List<String>>> index = new TreeMap<>();
      for (String column : dataset.indexColumns()) {
        index.put(column, Map.of(checkpoint, List.of(file.label())));
      }
      requests.add(new Request(new FileBatch(dataset.dataset(), WRITER, checkpoint, declared,
          dataset.partitionColumns(), dataset.indexColumns(), List.of(file), index, System.currentTimeMillis())));
    }
    return requests;
  }

  /** Flink's view of one committable in the committer, as a test double recording what it is told. */
  private static final class Request implements Committer.CommitRequest<FileBatch> {
    final FileBatch batch;
    int retries;
    boolean alreadyCommitted;

    Request(FileBatch batch) {
      this.batch = batch;
    }

    @Override
    public FileBatch getCommittable() {
      return batch;
    }

    @Override
    public int getNumberOfRetries() {
      return retries;
    }

    @Override
    public void signalFailedWithKnownReason(Throwable t) {
      throw new AssertionError("failed", t);
    }

    @Override
    public void signalFailedWithUnknownReason(Throwable t) {
      throw new AssertionError("failed", t);
    }

    @Override
    public void retryLater() {
      retries++;
    }

    @Override
    public void updateAndRetryLater(FileBatch committable) {
      throw new AssertionError("not expected");
    }

    @Override
    public void signalAlreadyCommitted() {
      alreadyCommitted = true;
    }
  }
}
