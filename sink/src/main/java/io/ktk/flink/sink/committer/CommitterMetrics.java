package io.ktk.flink.sink.committer;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * The committer's metrics, in the group {@code kartothek} of the sink committer's metric group:
 * {@code commits}, {@code commitLatencyMillis} (histogram over the last 100 commits, from the
 * committer taking a batch to its version being published) and {@code lastCommittedVersion}
 * (gauge; -1 before the first commit).
 */
final class CommitterMetrics {
  private final Counter commits;
  private final Histogram latency;
  private volatile long lastCommittedVersion = -1;

  CommitterMetrics(MetricGroup group) {
    MetricGroup kartothek = group.addGroup("kartothek");
    this.commits = kartothek.counter("commits");
    this.latency = kartothek.histogram("commitLatencyMillis", new DescriptiveStatisticsHistogram(100));
    kartothek.gauge("lastCommittedVersion", () -> lastCommittedVersion);
  }

  void committed(long version, long millis) {
    commits.inc();
    latency.update(millis);
    lastCommittedVersion = version;
  }
}
