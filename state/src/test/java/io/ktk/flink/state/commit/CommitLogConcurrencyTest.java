package io.ktk.flink.state.commit;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import io.ktk.flink.state.testing.S3Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Many writers creating and extending one dataset on S3 at once, each publishing the plateau view
 * after every commit: nothing is lost, nothing is doubled, and the published view ends at the
 * latest version.
 */
class CommitLogConcurrencyTest {
  @RegisterExtension static final S3Proxy S3 = S3Proxy.inMemory();

  private static final int WRITERS = 8;
  private static final int COMMITS_PER_WRITER = 50;

  @Test
  void eightWritersTimesFiftyCommitsEndWithFourHundredVersionsEveryFileAndTheLatestView() throws Exception {
    String uuid = "concurrent";
    try (ObjectStore store = ObjectStores.open(S3.url("concurrency"), S3.options())) {
      Set<String> committedLabels = ConcurrentHashMap.newKeySet();
      CyclicBarrier start = new CyclicBarrier(WRITERS);
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
      List<Future<Integer>> results = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        String writerId = "writer-" + w;
        results.add(pool.submit(() -> {
          // Every writer opens the log before the dataset exists: all of them race to create it.
          CommitLog log = CommitLog.open(store, uuid, CommitLogOptions.DEFAULTS.withSnapshotInterval(25));
          PlateauPublisher publisher = new PlateauPublisher();
          start.await();
          int lostRaces = 0;
          for (int checkpoint = 1; checkpoint <= COMMITS_PER_WRITER; checkpoint++) {
            DataFile file = CommitLogTest.file(writerId, checkpoint);
            CommitResult result = log.commit(CommitLogTest.append(file).withWriter(writerId, checkpoint));
            assertThat(result.alreadyCommitted()).isFalse();
            committedLabels.add(file.label());
            lostRaces += result.attempts() - 1;
            publisher.publish(log);
            if (checkpoint % 10 == 0) {
              // A replay of a committed checkpoint, as after a restore, changes nothing.
              CommitResult replay = log.commit(CommitLogTest.append(file).withWriter(writerId, checkpoint));
              assertThat(replay.alreadyCommitted()).isTrue();
            }
          }
          return lostRaces;
        }));
      }
      int lostRaces = 0;
      for (Future<Integer> result : results) {
        lostRaces += result.get(5, TimeUnit.MINUTES);
      }
      pool.shutdown();

      DatasetState state = CommitLog.open(store, uuid, CommitLogOptions.DEFAULTS).state();
      assertThat(state.version() + 1).as("versions").isEqualTo(WRITERS * COMMITS_PER_WRITER);
      assertThat(committedLabels).hasSize(WRITERS * COMMITS_PER_WRITER);
      assertThat(state.files().keySet()).isEqualTo(committedLabels);
      for (int w = 0; w < WRITERS; w++) {
        assertThat(state.checkpoints()).containsEntry("writer-" + w, (long) COMMITS_PER_WRITER);
      }
      assertThat(lostRaces).as("the writers really raced").isPositive();

      DatasetMetadata view = DatasetMetadata.load(store, uuid).orElseThrow();
      Map<String, String> expectedFiles = new TreeMap<>();
      state.files().values().forEach(file -> expectedFiles.put(file.label(), file.key(uuid)));
      assertThat(view.fileKeys()).isEqualTo(expectedFiles);
      assertThat(view.partitionKeys()).isEqualTo(state.partitionKeys());
      assertThat(view.metadata().get(PlateauPublisher.LOG_VERSION_KEY).asLong()).isEqualTo(state.version());
    }
  }
}
