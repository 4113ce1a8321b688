package io.ktk.flink.benchmarks.longrun;

import java.util.Arrays;

/** The last {@code capacity} durations of something the simulation times, for percentiles; thread-safe. */
final class Latencies {
  private final long[] nanos;
  private int count;
  private int next;
  private long totalNanos;

  Latencies(int capacity) {
    this.nanos = new long[capacity];
  }

  synchronized void add(long durationNanos) {
    nanos[next] = durationNanos;
    next = (next + 1) % nanos.length;
    count = Math.min(count + 1, nanos.length);
    totalNanos += durationNanos;
  }

  /** The total of every duration ever added, in seconds. */
  synchronized double totalSeconds() {
    return totalNanos / 1e9;
  }

  synchronized int size() {
    return count;
  }

  /** The {@code q} quantile (0..1) of the durations kept, in milliseconds; NaN when there are none. */
  synchronized double quantileMillis(double q) {
    if (count == 0) {
      return Double.NaN;
    }
    long[] sorted = Arrays.copyOf(nanos, count);
    Arrays.sort(sorted);
    int at = (int) Math.min(count - 1, Math.max(0, Math.ceil(q * count) - 1));
    return sorted[at] / 1e6;
  }

  synchronized void clear() {
    count = 0;
    next = 0;
  }
}
