package io.ktk.flink.benchmarks.longrun;

import io.ktk.flink.sink.compaction.CompactionResult;
import io.ktk.flink.sink.compaction.Compactor;
import io.ktk.flink.sink.maintenance.MaintenanceSettings;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.GarbageCollector;
import io.ktk.flink.state.commit.LogExpiry;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;

/**
 * The table maintenance of the simulated job, with the settings a sink gets by default ({@link
 * MaintenanceSettings#defaults()}): compaction once per {@code maintenance.interval} (10
 * minutes; 8 small files start a rewrite, a partition idle for an hour is compacted from 2 on),
 * expiry of versions older than 7 days (the last 10 always kept) every {@code expiryEvery}, and
 * garbage collection of files older than a day every {@code gcEvery}, all judged by the simulated
 * clock. The sink's {@code MaintenanceRunner} runs all three steps each interval; here expiry and
 * gc run less often ({@code --expiry-every}, {@code --gc-every}) because listing every stored
 * file every 10 simulated minutes would dominate the simulation's wall time, not the job's.
 * It runs between commits, as the runner's thread would after a commit, and each task keeps its
 * own {@link CommitLog} (a log is not shared between threads).
 */
final class Maintenance {
  private final ObjectStore store;
  private final String uuid;
  private final SimulatedClock clock;
  private final MaintenanceSettings settings;
  private final Duration compactEvery;
  private final Duration expiryEvery;
  private final Duration gcEvery;
  private Compactor compactor;
  private CommitLog expiryLog;
  private Instant lastCompaction;
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

  Maintenance(ObjectStore store, String uuid, SimulatedClock clock, Duration compactEvery, Duration expiryEvery,
      Duration gcEvery) {
    this.store = store;
    this.uuid = uuid;
    this.clock = clock;
    this.settings = MaintenanceSettings.defaults();
    this.compactEvery = compactEvery;
    this.expiryEvery = expiryEvery;
    this.gcEvery = gcEvery;
  }

  /** What maintenance does after a commit: each task when it is due. Returns whether one ran. */
  boolean afterCommit() throws IOException {
    Instant now = clock.instant();
    boolean ran = false;
    if (compactor == null) {
      compactor = Compactor.of(store, uuid, settings.compaction(), clock);
      expiryLog = CommitLog.open(store, uuid, CommitLogOptions.DEFAULTS);
      lastCompaction = now;
      lastExpiry = now;
      lastGc = now;
    }
    if (!now.isBefore(lastCompaction.plus(compactEvery))) {
      long start = System.nanoTime();
      CompactionResult result = compactor.compact(compactor.plan());
      compaction.add(System.nanoTime() - start);
      filesCompacted += result.filesCompacted();
      bytesCompacted += result.bytesCompacted();
      filesWritten += result.filesWritten();
      bytesWritten += result.bytesWritten();
      rewritesNotCommitted += result.notCommitted().size();
      lastCompaction = now;
      ran = true;
    }
    if (!now.isBefore(lastExpiry.plus(expiryEvery))) {
      long start = System.nanoTime();
      LogExpiry.Result expired = LogExpiry.expire(expiryLog, settings.expireOlderThan(), settings.retainLast(), now,
          false);
      expiry.add(System.nanoTime() - start);
      entriesDeleted += expired.deleted().size();
      lastExpiry = now;
      ran = true;
    }
    if (!now.isBefore(lastGc.plus(gcEvery))) {
      long start = System.nanoTime();
      GarbageCollector.Result collected = GarbageCollector.collect(store, uuid, settings.gcOlderThan(), now, false);
      gc.add(System.nanoTime() - start);
      filesCollected += collected.deleted().size();
      lastGc = now;
      ran = true;
    }
    return ran;
  }
}
