package io.ktk.flink.cli;

import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.commit.LogStats;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;

/** What {@code ktk stats} says of a dataset's log: its size, the versions it retains, the last compaction. */
final class LogHealth {
  private LogHealth() {}

  static String describe(ObjectStore store, String uuid) throws IOException {
    DatasetState state = new LogReader(store, uuid).latest();
    if (!state.exists()) {
      return "log: none (a dataset written by plateau only; the first write of this project adopts it)";
    }
    LogStats stats = LogStats.of(store, uuid);
    return "log: versions " + state.retainedFrom() + " to " + state.version() + " retained; "
        + TextTable.count(stats.entries()) + " entries and " + TextTable.count(stats.snapshots()) + " snapshots, "
        + TextTable.bytes(stats.bytes()) + "; last compaction: "
        + (state.lastRewriteVersion() < 0 ? "none" : "version " + state.lastRewriteVersion() + " at "
            + state.lastRewriteTime());
  }
}
