package io.ktk.flink.sink.maintenance;

import static org.apache.flink.configuration.ConfigOptions.key;

import io.ktk.flink.sink.compaction.CompactionOptions;
import io.ktk.flink.state.commit.GarbageCollector;
import io.ktk.flink.state.commit.LogExpiry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;

/**
 * Options of the maintenance a sink runs on its committer's side, off the commit path: compaction
 * ({@link CompactionOptions}), expiry of old log versions and garbage collection.
 */
@PublicEvolving
public final class MaintenanceOptions {
  public static final ConfigOption<Boolean> ENABLED =
      key("maintenance.enabled")
          .booleanType()
          .defaultValue(true)
          .withDescription("Whether the sink keeps its datasets healthy while it runs: it compacts small files "
              + "(compaction.*), expires log versions older than maintenance.expire.older-than and deletes files "
              + "nothing references any more (maintenance.gc.*), on a thread of the committer that never blocks "
              + "or fails a checkpoint. Off, run 'ktk compact', 'ktk expire' and 'ktk gc' instead.");

  public static final ConfigOption<Duration> INTERVAL =
      key("maintenance.interval")
          .durationType()
          .defaultValue(Duration.ofMinutes(10))
          .withDescription("The least time between two maintenance runs of a dataset; a run follows a commit.");

  public static final ConfigOption<Boolean> COMPACTION_ENABLED =
      key("compaction.enabled")
          .booleanType()
          .defaultValue(true)
          .withDescription("Whether maintenance compacts small files (see the compaction.* options).");

  public static final ConfigOption<Duration> EXPIRE_OLDER_THAN =
      key("maintenance.expire.older-than")
          .durationType()
          .defaultValue(LogExpiry.DEFAULT_RETENTION)
          .withDescription("Log versions older than this expire (beyond the last maintenance.expire.retain-last): "
              + "their log entries, snapshots and superseded index files are deleted, and reading them fails with a "
              + "clear error. Time travel and pinned reads work within it.");

  public static final ConfigOption<Integer> EXPIRE_RETAIN_LAST =
      key("maintenance.expire.retain-last")
          .intType()
          .defaultValue(LogExpiry.DEFAULT_RETAIN_LAST)
          .withDescription("The last this many log versions are kept whatever their age.");

  public static final ConfigOption<Boolean> GC_ENABLED =
      key("maintenance.gc.enabled")
          .booleanType()
          .defaultValue(true)
          .withDescription("Whether maintenance deletes files no retained version and not the published view "
              + "references (what 'ktk gc' does), once they are older than maintenance.gc.older-than.");

  public static final ConfigOption<Duration> GC_OLDER_THAN =
      key("maintenance.gc.older-than")
          .durationType()
          .defaultValue(GarbageCollector.DEFAULT_SAFETY_AGE)
          .withDescription("Unreferenced files younger than this are kept (at least 1 h): other writers' files "
              + "not committed yet, and the files of a job's last checkpoint while it is down. Keep it longer than "
              + "any job may be down and still be restored from its checkpoint.");

  private MaintenanceOptions() {}

  /** Every maintenance option, compaction's included. */
  public static List<ConfigOption<?>> all() {
    List<ConfigOption<?>> options = new ArrayList<>(List.of(ENABLED, INTERVAL, COMPACTION_ENABLED, EXPIRE_OLDER_THAN,
        EXPIRE_RETAIN_LAST, GC_ENABLED, GC_OLDER_THAN));
    options.addAll(CompactionOptions.all());
    return List.copyOf(options);
  }
}
