package io.ktk.flink.sink.maintenance;

import io.ktk.flink.sink.compaction.CompactionResult;
import java.time.Clock;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The maintenance metrics, in the group {@code kartothek} of the committer's metric group: {@code
 * filesCompacted}, {@code bytesCompacted}, {@code compactionFailures} (rewrites not committed:
 * conflicts and failures), {@code secondsSinceLastCompaction} (-1 before the first), {@code
 * logEntriesDeleted}, {@code filesCollected} and {@code maintenanceFailures} (runs that stopped on an
 * error).
 */
final class MaintenanceMetrics {
  private final Clock clock;
  private final Counter filesCompacted;
  private final Counter bytesCompacted;
  private final Counter compactionFailures;
  private final Counter logEntriesDeleted;
  private final Counter filesCollected;
  private final Counter maintenanceFailures;
  private volatile long lastCompactionMillis = -1;

  MaintenanceMetrics(MetricGroup group, Clock clock) {
    this.clock = clock;
    MetricGroup kartothek = group.addGroup("kartothek");
    this.filesCompacted = kartothek.counter("filesCompacted");
    this.bytesCompacted = kartothek.counter("bytesCompacted");
    this.compactionFailures = kartothek.counter("compactionFailures");
    this.logEntriesDeleted = kartothek.counter("logEntriesDeleted");
    this.filesCollected = kartothek.counter("filesCollected");
    this.maintenanceFailures = kartothek.counter("maintenanceFailures");
    kartothek.gauge("secondsSinceLastCompaction",
        () -> lastCompactionMillis < 0 ? -1 : (this.clock.millis() - lastCompactionMillis) / 1000);
  }

  void compacted(CompactionResult result) {
    filesCompacted.inc(result.filesCompacted());
    bytesCompacted.inc(result.bytesCompacted());
    compactionFailures.inc(result.notCommitted().size());
    if (!result.committed().isEmpty()) {
      lastCompactionMillis = clock.millis();
    }
  }

  void expired(int deleted) {
    logEntriesDeleted.inc(deleted);
  }

  void collected(int deleted) {
    filesCollected.inc(deleted);
  }

  void failed() {
    maintenanceFailures.inc();
  }
}
