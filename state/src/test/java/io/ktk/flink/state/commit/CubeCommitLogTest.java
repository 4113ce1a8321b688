package io.ktk.flink.state.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CubeCommitLogTest {
  private static final String CUBE = "sales";
  private static final String SEED = "sales++seed";
  private static final String ENRICH = "sales++enrich";

  @TempDir Path dir;
  ObjectStore store;

  @BeforeEach
  void openStore() {
    store = new LocalObjectStore(dir);
  }

  private long commit(String uuid, String writer, long checkpoint, boolean cubeTransaction) throws IOException {
    DatasetChange request = CommitLogTest.append(CommitLogTest.file("x", 1)).withWriter(writer, checkpoint);
    if (cubeTransaction) {
      request = request.withCubeTransaction(CUBE);
    }
    return CommitLog.open(store, uuid, CommitLogOptions.DEFAULTS).commit(request).version();
  }

  private Map<String, Long> pinned() throws IOException {
    Map<String, Long> versions = new java.util.TreeMap<>();
    CubeVersions.latest(store, CUBE, List.of("seed", "enrich")).forEach((id, state) -> versions.put(id,
        state.version()));
    return versions;
  }

  @Test
  void recordsAreNumberedWithoutGapsAndTheLatestIsCumulative() throws IOException {
    CubeCommitLog log = CubeCommitLog.of(store, CUBE);
    assertThat(log.latest()).isEmpty();
    for (int i = 0; i < 37; i++) {
      log.record("w", i, i % 2 == 0 ? Map.of("seed", (long) i) : Map.of("enrich", (long) i));
    }
    CubeCommitLog.Record latest = CubeCommitLog.of(store, CUBE).latest().orElseThrow();
    assertThat(latest.version()).isEqualTo(36);
    assertThat(latest.checkpointId()).isEqualTo(36);
    assertThat(latest.transaction()).containsExactly(Map.entry("seed", 36L));
    assertThat(latest.datasets()).containsExactly(Map.entry("enrich", 35L), Map.entry("seed", 36L));
    assertThat(store.head(CubeCommitLog.recordKey(CUBE, 0))).isPresent();
    assertThat(CubeCommitLog.recordKey(CUBE, 3)).isEqualTo("sales++_ktk_cube/_ktk_log/00000000000000000003.json");
  }

  @Test
  void aTransactionCommittedToOneDatasetOnlyIsHiddenUntilItIsRecorded() throws IOException {
    commit(SEED, "w", 1, true);
    commit(ENRICH, "w", 1, true);
    CubeCommitLog.of(store, CUBE).record("w", 1, Map.of("seed", 0L, "enrich", 0L));
    assertThat(pinned()).containsExactly(Map.entry("enrich", 0L), Map.entry("seed", 0L));

    // checkpoint 2: the seed is committed, the committer crashes before the enrichment
    commit(SEED, "w", 2, true);
    // another writer outside any cube transaction appends to the seed after it
    commit(SEED, "other", 9, false);
    assertThat(pinned()).containsExactly(Map.entry("enrich", 0L), Map.entry("seed", 0L));

    // the replay completes the transaction
    commit(ENRICH, "w", 2, true);
    assertThat(pinned()).containsExactly(Map.entry("enrich", 0L), Map.entry("seed", 0L));
    CubeCommitLog.of(store, CUBE).record("w", 2, Map.of("seed", 1L, "enrich", 1L));
    assertThat(pinned()).containsExactly(Map.entry("enrich", 1L), Map.entry("seed", 2L));
  }

  @Test
  void aDatasetWhoseFirstVersionIsUnrecordedIsLeftOutAndOneWithoutCubeTransactionsIsLatest() throws IOException {
    commit(SEED, "plain", 1, false);
    commit(SEED, "plain", 2, false);
    commit(ENRICH, "w", 1, true);
    assertThat(pinned()).containsExactly(Map.entry("seed", 1L));
  }
}
