package io.ktk.flink.sink.maintenance;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.sink.compaction.CompactionSettings;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.GarbageCollector;
import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The maintenance a sink runs ({@link MaintenanceOptions}), checked.
 *
 * @param compaction the compaction settings, or null when maintenance does not compact
 * @param expireOlderThan log versions older than this expire, or null when maintenance does not
 *     expire
 * @param gcOlderThan unreferenced files older than this are deleted, or null when maintenance does
 *     not collect garbage
 */
@Internal
public record MaintenanceSettings(
    boolean enabled,
    Duration interval,
    CompactionSettings compaction,
    Duration expireOlderThan,
    int retainLast,
    Duration gcOlderThan)
    implements Serializable {

  public MaintenanceSettings {
    requireNonNull(interval, "interval is null");
    if (interval.isNegative()) {
      throw new KtkValidationException("Cannot configure maintenance: '" + MaintenanceOptions.INTERVAL.key()
          + "' is negative (" + interval + ")");
    }
    if (retainLast < 1) {
      throw new KtkValidationException("Cannot configure maintenance: '" + MaintenanceOptions.EXPIRE_RETAIN_LAST.key()
          + "' is " + retainLast + ", at least 1 (the latest version is always kept)");
    }
    if (gcOlderThan != null && gcOlderThan.compareTo(GarbageCollector.MIN_SAFETY_AGE) < 0) {
      throw new KtkValidationException("Cannot configure maintenance: '" + MaintenanceOptions.GC_OLDER_THAN.key()
          + "' is " + gcOlderThan + ", below the floor of " + GarbageCollector.MIN_SAFETY_AGE + ": a running "
          + "writer's uncommitted files would be deleted");
    }
  }

  /** No maintenance: what a sink does when {@link MaintenanceOptions#ENABLED} is off. */
  public static MaintenanceSettings disabled() {
    return new MaintenanceSettings(false, Duration.ZERO, null, null, 1, null);
  }

  /** The defaults of every option. */
  public static MaintenanceSettings defaults() {
    return of(new Configuration());
  }

  /** The settings a configuration gives (defaults for keys it lacks). */
  public static MaintenanceSettings of(ReadableConfig config) {
    if (!config.get(MaintenanceOptions.ENABLED)) {
      return disabled();
    }
    return new MaintenanceSettings(
        true,
        config.get(MaintenanceOptions.INTERVAL),
        config.get(MaintenanceOptions.COMPACTION_ENABLED) ? CompactionSettings.of(config) : null,
        config.get(MaintenanceOptions.EXPIRE_OLDER_THAN),
        config.get(MaintenanceOptions.EXPIRE_RETAIN_LAST),
        config.get(MaintenanceOptions.GC_ENABLED) ? config.get(MaintenanceOptions.GC_OLDER_THAN) : null);
  }
}
