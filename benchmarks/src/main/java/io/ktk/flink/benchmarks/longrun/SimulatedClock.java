package io.ktk.flink.benchmarks.longrun;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The simulation's time: it stands still until the simulation moves it on (a minute per
 * checkpoint), so that a year of checkpoints passes in hours and every component that is given
 * this clock (compaction's idle partitions, expiry's retention, garbage collection's safety age)
 * sees the time of the simulated job.
 */
final class SimulatedClock extends Clock {
  private volatile Instant now;

  SimulatedClock(Instant start) {
    this.now = start;
  }

  void advance(Duration step) {
    now = now.plus(step);
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("the simulated clock is in UTC");
  }
}
