package io.ktk.flink.sink.committer;

import java.time.Clock;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * The committer's metrics, in the group {@code kartothek} of the sink committer's metric group:
 *
 * <ul>
 *   <li>{@code commits}, {@code commitLatencyMillis} (histogram over the last 100 commits, from the
 *       committer taking a checkpoint's batches to their versions being committed), {@code
 *       lastCommittedVersion} (-1 before the first commit) and {@code secondsSinceLastCommit}
 *       (since the committer started, before the first);
 *   <li>{@code publications}, {@code publishLatencyMillis}, {@code publishFailures} and {@code
 *       lastPublishedVersion} of the plateau view, published off the commit path.
 * </ul>
 */
final class CommitterMetrics {
  private final Clock clock;
  private final Counter commits;
  private final Histogram latency;
  private final Counter publications;
  private final Counter publishFailures;
  private final Histogram publishLatency;
  private volatile long lastCommittedVersion = -1;
  private volatile long lastPublishedVersion = -1;
  private volatile long lastCommitMillis;

  CommitterMetrics(MetricGroup group, Clock clock) {
    this.clock = clock;
    this.lastCommitMillis = clock.millis();
    MetricGroup kartothek = group.addGroup("kartothek");
    this.commits = kartothek.counter("commits");
    this.latency = kartothek.histogram("commitLatencyMillis", new DescriptiveStatisticsHistogram(100));
    kartothek.gauge("lastCommittedVersion", () -> lastCommittedVersion);
    kartothek.gauge("secondsSinceLastCommit", () -> (this.clock.millis() - lastCommitMillis) / 1000);
    this.publications = kartothek.counter("publications");
    this.publishFailures = kartothek.counter("publishFailures");
    this.publishLatency = kartothek.histogram("publishLatencyMillis", new DescriptiveStatisticsHistogram(100));
    kartothek.gauge("lastPublishedVersion", () -> lastPublishedVersion);
  }

  void committed(long version, long millis) {
    commits.inc();
    latency.update(millis);
    lastCommittedVersion = version;
    lastCommitMillis = clock.millis();
  }

  void published(long version, long millis) {
    publications.inc();
    publishLatency.update(millis);
    lastPublishedVersion = version;
  }

  void publishFailed() {
    publishFailures.inc();
  }
}
