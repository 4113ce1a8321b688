package io.ktk.flink.benchmarks.longrun;

import io.ktk.flink.sink.compaction.CompactionResult;
import io.ktk.flink.sink.compaction.CompactionSettings;
import io.ktk.flink.sink.compaction.Compactor;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.GarbageCollector;
import io.ktk.flink.state.commit.LogExpiry;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;

/**
 * The table maintenance of the simulated job, with the defaults a user gets: compaction planned
 * after every commit ({@link CompactionSettings#defaults()}: 8 small files start a rewrite, a
 * partition idle for an hour is compacted from 2 on), expiry of versions older than 7 days (the
 * last 10 always kept) every {@code expiryEvery}, and garbage collection with a safety age of a
 * day every {@code gcEvery}, all judged by the simulated clock. It runs between commits, as a
 * maintenance thread of the committer would, and each task keeps its own {@link CommitLog} (a log
 * is not shared between threads).
 */
final class Maintenance {
  private final ObjectStore store;
  private final String uuid;
  private final SimulatedClock clock;
  private final Duration expiryEvery;
  private final Duration gcEvery;
  private Compactor compactor;
  private CommitLog expiryLog;
  private Instant lastExpiry;
  private Instant lastGc;

  final Latencies compaction = new Latencies(1_000);
  final Latencies expiry = new Latencies(100);
  final Latencies gc = new Latencies(100);
  long filesCompacted;
  long filesWritten;
  long bytesCompacted;
  long bytesWritten;
  long rewritesNotCommitted;
  long entriesDeleted;
  long filesCollected;

  Maintenance(ObjectStore store, String uuid, SimulatedClock clock, Duration expiryEvery, Duration gcEvery) {
    this.store = store;
    this.uuid = uuid;
    this.clock = clock;
    this.expiryEvery = expiryEvery;
    this.gcEvery = gcEvery;
  }

  /** What maintenance does after a commit: compaction always, expiry and gc when they are due. */
  void afterCommit() throws IOException {
    Instant now = clock.instant();
    if (compactor == null) {
      compactor = Compactor.of(store, uuid, CompactionSettings.defaults(), clock);
      expiryLog = CommitLog.open(store, uuid, CommitLogOptions.DEFAULTS);
      lastExpiry = now;
      lastGc = now;
    }
    long start = System.nanoTime();
    CompactionResult result = compactor.compact(compactor.plan());
    compaction.add(System.nanoTime() - start);
    filesCompacted += result.filesCompacted();
    bytesCompacted += result.bytesCompacted();
    filesWritten += result.filesWritten();
    bytesWritten += result.bytesWritten();
    rewritesNotCommitted += result.notCommitted().size();

    if (!now.isBefore(lastExpiry.plus(expiryEvery))) {
      start = System.nanoTime();
      LogExpiry.Result expired = LogExpiry.expire(expiryLog, LogExpiry.DEFAULT_RETENTION,
          LogExpiry.DEFAULT_RETAIN_LAST, now, false);
      expiry.add(System.nanoTime() - start);
      entriesDeleted += expired.deleted().size();
      lastExpiry = now;
    }
    if (!now.isBefore(lastGc.plus(gcEvery))) {
      start = System.nanoTime();
      GarbageCollector.Result collected = GarbageCollector.collect(store, uuid, GarbageCollector.DEFAULT_SAFETY_AGE,
          now, false);
      gc.add(System.nanoTime() - start);
      filesCollected += collected.deleted().size();
      lastGc = now;
    }
  }
}
