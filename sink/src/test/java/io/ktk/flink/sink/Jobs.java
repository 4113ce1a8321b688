package io.ktk.flink.sink;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** Flink environments of the sink tests, on the MiniCluster of the test class. */
final class Jobs {
  private Jobs() {}

  /** One task manager with enough slots for the tests' jobs (parallelism 2 plus the committer side). */
  static MiniClusterExtension miniCluster() {
    return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
        .setNumberTaskManagers(1)
        .setNumberSlotsPerTaskManager(4)
        .build());
  }

  /** A STREAMING environment checkpointing every {@code interval}, without restarts. */
  static StreamExecutionEnvironment streaming(int parallelism, String interval) {
    return env(Map.of(
        "execution.runtime-mode", "STREAMING",
        "execution.checkpointing.interval", interval,
        "parallelism.default", Integer.toString(parallelism),
        "restart-strategy.type", "none"));
  }

  /** A BATCH environment without restarts. */
  static StreamExecutionEnvironment batch(int parallelism) {
    return env(Map.of(
        "execution.runtime-mode", "BATCH",
        "parallelism.default", Integer.toString(parallelism),
        "restart-strategy.type", "none"));
  }

  /**
   * A STREAMING environment for the restore tests: a checkpoint every 300 ms and up to 10 quick
   * restarts, each from the last completed checkpoint.
   */
  static StreamExecutionEnvironment restoring(int parallelism) {
    return env(Map.of(
        "execution.runtime-mode", "STREAMING",
        "execution.checkpointing.interval", "300ms",
        "parallelism.default", Integer.toString(parallelism),
        "restart-strategy.type", "fixed-delay",
        "restart-strategy.fixed-delay.attempts", "10",
        "restart-strategy.fixed-delay.delay", "10ms"));
  }

  static StreamExecutionEnvironment env(Map<String, String> settings) {
    return StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(new HashMap<>(settings)));
  }
}
