package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.compaction.CompactionResult;
import io.ktk.flink.sink.compaction.CompactionResult.Outcome;
import io.ktk.flink.sink.compaction.CompactionSettings;
import io.ktk.flink.sink.compaction.Compactor;
import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.GarbageCollector;
import io.ktk.flink.state.commit.LogExpiry;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.dataset.NoSuchDatasetException;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.ForwardingObjectStore;
import io.ktk.flink.state.testing.S3Proxy;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exactly once while everything runs at once on s3proxy: two streaming jobs append to one dataset
 * (checkpoints every 200 ms, each losing the acknowledgement of some of its commits: the entry
 * lands, the committer crashes, the restarted job replays the checkpoint), two compactors rewrite
 * its small files (one whose files fail halfway every few writes and whose commit responses get
 * lost, one that is killed after writing files it never commits, then restarted), and expiry and
 * garbage collection run every second with a retention of 20 s and a (forced) safety age of 40 s.
 * Meanwhile a reader reads the latest version again and again and pyarrow reads the published view
 * every few seconds; neither may ever see a row twice or miss one it saw before. At the end every
 * record is in the dataset exactly once, for this project's reader and for pyarrow, the index is
 * right, and the killed compactor's files are gone.
 *
 * <p>It runs for minutes and its faults land where the machine's timing puts them, so it is a stress
 * test, run on demand: {@code mvn -pl sink -am verify -Dtest=MaintenanceUnderConcurrencyTest
 * -Dktk.stress=true -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@EnabledIfSystemProperty(named = "ktk.stress", matches = "true",
    disabledReason = "a stress test of minutes; run it with -Dktk.stress=true")
class MaintenanceUnderConcurrencyTest {
  private static final String DATASET = "events";
  private static final String PREFIX = "maintenance";
  private static final int RECORDS_PER_JOB = Integer.getInteger("ktk.maintenance.records", 30_000);
  private static final int CHECKPOINTS_OF_DATA = 250;
  /** Long enough for pyarrow to read a view on a loaded machine before its files may go. */
  private static final Duration RETENTION = Duration.ofSeconds(20);
  /**
   * Longer than a file of the jobs may wait for its commit on a loaded machine (a checkpoint, a
   * lost acknowledgement, the restart and the replay): garbage collection must not take a file a
   * commit is about to reference, and its safety age is the only thing that tells.
   */
  private static final Duration SAFETY_AGE = Duration.ofSeconds(40);
  private static final CompactionSettings COMPACTION = CompactionSettings.defaults().withMinInputFiles(4);

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberSlotsPerTaskManager(8).build());

  @RegisterExtension
  static final S3Proxy S3 = S3Proxy.inMemory();

  @TempDir
  Path work;

  /** What the compactors did; updated by their threads. */
  private static final class Tally {
    final AtomicLong committed = new AtomicLong();
    final AtomicLong committedWhileWriting = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong conflicts = new AtomicLong();
    final AtomicLong expiries = new AtomicLong();
    final AtomicLong collected = new AtomicLong();
    final Set<String> failures = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Keys the expiry and GC thread deleted. */
    final Set<String> deletedByGc = java.util.concurrent.ConcurrentHashMap.newKeySet();

    void add(CompactionResult result, boolean writing) {
      for (CompactionResult.PartitionResult partition : result.partitions()) {
        if (partition.outcome() == Outcome.COMMITTED) {
          committed.incrementAndGet();
          if (writing) {
            committedWhileWriting.incrementAndGet();
          }
        } else if (partition.outcome() == Outcome.CONFLICT) {
          conflicts.incrementAndGet();
        } else {
          failed.incrementAndGet();
          if (failures.size() < 5) {
            failures.add(partition.outcome() + ": " + partition.message());
          }
        }
      }
    }
  }

  private JobClient start(ObjectStoreFactory store, long firstId) throws Exception {
    StreamExecutionEnvironment env = Jobs.env(Map.of(
        "execution.runtime-mode", "STREAMING",
        "execution.checkpointing.interval", "200ms",
        "parallelism.default", "2",
        "restart-strategy.type", "fixed-delay",
        "restart-strategy.fixed-delay.attempts", "20",
        "restart-strategy.fixed-delay.delay", "100ms"));
    KartothekSink.forRowData(TestRows.ROW_TYPE)
        .store(store)
        .dataset(DATASET)
        .partitionBy("p")
        .indexBy("c")
        .build()
        .addTo(env.fromSource(
            new DataGeneratorSource<>(id -> TestRows.row(firstId + id), RECORDS_PER_JOB,
                RateLimiterStrategy.perCheckpoint(RECORDS_PER_JOB / CHECKPOINTS_OF_DATA), TestRows.TYPE_INFO),
            WatermarkStrategy.noWatermarks(), "ids from " + firstId));
    return env.executeAsync("appends from " + firstId);
  }

  @Test
  void writersCompactorsExpiryAndGcAtOnceLoseAndDuplicateNothing() throws Exception {
    ObjectStoreFactory s3 = ObjectStoreFactory.of(S3.url(PREFIX), S3.options());
    LostAcknowledgements.plan("first", 3, 12);
    LostAcknowledgements.plan("second", 7);
    JobClient first = start(new LostAcknowledgements.Factory(s3, "first"), 0);
    JobClient second = start(new LostAcknowledgements.Factory(s3, "second"), RECORDS_PER_JOB);

    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicBoolean stop = new AtomicBoolean();
    Tally tally = new Tally();
    ExecutorService threads = Executors.newFixedThreadPool(5);
    try (ObjectStore store = s3.open(); ObjectStore flakyDelegate = s3.open(); ObjectStore killableDelegate = s3.open();
        ObjectStore restartedStore = s3.open(); ObjectStore readerStore = s3.open()) {
      CompactorFaults.Flaky flaky = new CompactorFaults.Flaky(flakyDelegate, 3, 1);
      CompactorFaults.Killable killable = new CompactorFaults.Killable(killableDelegate, 6);
      Set<String> orphans = new HashSet<>();
      SampledReads reads = new SampledReads(readerStore, DATASET, stop);
      SampledViews views = new SampledViews(store, S3, PREFIX, DATASET, stop, work);
      List<Future<?>> running = new ArrayList<>();
      running.add(threads.submit(() -> {
        compactUntil(stop, flaky, tally, writing);
        return null;
      }));
      running.add(threads.submit(() -> {
        compactUntil(killable::dead, killable, tally, writing);
        // The process died: what it wrote and did not commit is nobody's. A new one takes over.
        DatasetState latest = new LogReader(store, DATASET).latest();
        for (String key : killable.written) {
          if (latest.files().values().stream().noneMatch(file -> file.key(DATASET).equals(key))) {
            orphans.add(key);
          }
        }
        compactUntil(stop, restartedStore, tally, writing);
        return null;
      }));
      running.add(threads.submit(() -> {
        expireAndCollectUntil(stop, s3, tally);
        return null;
      }));
      running.add(threads.submit(reads));
      running.add(threads.submit(views));

      first.getJobExecutionResult().get(10, TimeUnit.MINUTES);
      second.getJobExecutionResult().get(10, TimeUnit.MINUTES);
      writing.set(false);
      long gcWhileWriting = tally.collected.get();
      long expiriesWhileWriting = tally.expiries.get();
      stop.set(true);
      for (Future<?> thread : running) {
        thread.get(5, TimeUnit.MINUTES);
      }

      // Every file the latest version holds exists (a file deleted under a commit is lost rows).
      List<String> gone = new ArrayList<>();
      for (var file : new LogReader(store, DATASET).latest().files().values()) {
        if (store.head(file.key(DATASET)).isEmpty()) {
          gone.add(file.key(DATASET) + (tally.deletedByGc.contains(file.key(DATASET)) ? " (deleted by gc)" : ""));
        }
      }
      assertThat(gone).as("files of the latest version that are gone").isEmpty();

      // Compact what is left, publish, and collect as if the safety age had passed.
      Compactor last = Compactor.of(store, DATASET, COMPACTION);
      assertThat(last.compact(last.plan()).notCommitted()).isEmpty();
      last.publish();
      Instant later = Instant.now().plus(SAFETY_AGE).plusSeconds(1);
      LogExpiry.expire(CommitLog.open(store, DATASET, CommitLogOptions.DEFAULTS), RETENTION, 5, later, false);
      GarbageCollector.collect(store, DATASET, SAFETY_AGE, later, false, true);

      String story = "compactions committed " + tally.committed + " (" + tally.committedWhileWriting
          + " while the jobs wrote), failed " + tally.failed + " " + tally.failures + ", lost to another "
          + tally.conflicts + "; expiries "
          + tally.expiries + ", files collected " + tally.collected + "; reads " + reads.samples() + " up to version "
          + reads.highestVersion() + ", views read " + views.versions() + " (expired while read: "
          + views.outlived() + ")";
      System.out.println(story);
      // first what a user cares about: every record once, for every reader
      assertThat(reads.problems()).as("what the reader saw, " + story).isEmpty();
      assertThat(reads.samples()).as(story).isGreaterThanOrEqualTo(5);
      assertThat(views.problems()).as("what pyarrow saw in the published views, " + story).isEmpty();
      assertThat(views.versions()).as(story).isNotEmpty();

      DatasetContents contents = DatasetContents.read(store, DATASET);
      contents.assertExactlyOnce(2L * RECORDS_PER_JOB);
      contents.assertIndexOfC();
      for (String orphan : orphans) {
        assertThat(store.head(orphan)).as("orphan " + orphan + " after garbage collection").isEmpty();
      }
      PyArrowReader.assertExactlyOnce(S3, PREFIX, DATASET, 2L * RECORDS_PER_JOB);
      // then that the run exercised every fault it injects (timing decides; a miss is no data error)
      assertThat(LostAcknowledgements.lost("first")).as("lost acknowledgements of the first job").hasSize(2);
      assertThat(LostAcknowledgements.lost("second")).as("lost acknowledgements of the second job").hasSize(1);
      assertThat(flaky.brokenFiles.get()).as("files failed halfway, " + story).isPositive();
      assertThat(flaky.lostResponses.get()).as("commit responses lost, " + story).isPositive();
      assertThat(killable.dead()).as("the compactor was killed, " + story).isTrue();
      assertThat(orphans).as("files the killed compactor left, " + story).isNotEmpty();
      assertThat(tally.committedWhileWriting.get()).as(story).isPositive();
      assertThat(expiriesWhileWriting).as("expiries while the jobs wrote, " + story).isPositive();
      assertThat(gcWhileWriting).as("files collected while the jobs wrote, " + story).isPositive();
    } finally {
      stop.set(true);
      threads.shutdownNow();
    }
  }

  /** Plans and compacts until {@code done}, pausing briefly between rounds. */
  private static void compactUntil(java.util.function.BooleanSupplier done, ObjectStore store, Tally tally,
      AtomicBoolean writing) throws Exception {
    Compactor compactor = null;
    while (!done.getAsBoolean()) {
      try {
        if (compactor == null) {
          compactor = Compactor.of(store, DATASET, COMPACTION);
        }
        tally.add(compactor.compact(compactor.plan()), writing.get());
      } catch (NoSuchDatasetException notYet) {
        // the jobs have not created it yet
      } catch (java.io.IOException e) {
        if (!done.getAsBoolean()) {
          throw e;
        }
      }
      TimeUnit.MILLISECONDS.sleep(100); // pacing, as a maintenance thread between commits
    }
  }

  private static void compactUntil(AtomicBoolean stop, ObjectStore store, Tally tally, AtomicBoolean writing)
      throws Exception {
    compactUntil(stop::get, store, tally, writing);
  }

  /** Expires versions older than the retention and collects garbage, every second. */
  private static void expireAndCollectUntil(AtomicBoolean stop, ObjectStoreFactory s3, Tally tally)
      throws Exception {
    try (ObjectStore store = new ForwardingObjectStore(s3.open()) {
      @Override
      public void delete(String key) throws IOException {
        tally.deletedByGc.add(key);
        super.delete(key);
      }
    }) {
      CommitLog log = null;
      while (!stop.get()) {
        if (log == null && new LogReader(store, DATASET).hasLog()) {
          log = CommitLog.open(store, DATASET, CommitLogOptions.DEFAULTS);
        }
        if (log != null) {
          if (LogExpiry.expire(log, RETENTION, 5, Instant.now(), false).expireVersion() >= 0) {
            tally.expiries.incrementAndGet();
          }
          tally.collected.addAndGet(
              GarbageCollector.collect(store, DATASET, SAFETY_AGE, Instant.now(), false, true).deleted().size());
        }
        TimeUnit.SECONDS.sleep(1);
      }
    }
  }
}
