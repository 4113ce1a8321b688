package io.ktk.flink.benchmarks.sink;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One sink variant in a JVM of its own (started by {@link SinkBenchmark}), so that its peak
 * resident memory is its own: generates the rows on an embedded mini-cluster at the given
 * parallelism with a checkpoint every interval, waits for the job to finish (its last
 * checkpoint commits the rest), reads back the committed row count, and prints one line
 * {@code RESULT key=value ...} for the parent.
 *
 * <p>Arguments: {@code variant rows outputDir parallelism checkpointMillis}.
 */
public final class SinkRun {
  private SinkRun() {}

  public static void main(String[] args) throws Exception {
    SinkVariant variant = SinkVariant.valueOf(args[0]);
    long rows = Long.parseLong(args[1]);
    Path out = Path.of(args[2]);
    int parallelism = Integer.parseInt(args[3]);
    long checkpointMillis = Long.parseLong(args[4]);
    Files.createDirectories(out);
    long jvmStartMillis = ManagementFactory.getRuntimeMXBean().getStartTime();

    Configuration config = new Configuration();
    config.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism, config);
    env.enableCheckpointing(checkpointMillis);
    variant.addSink(env.fromSource(BenchRows.source(rows), WatermarkStrategy.noWatermarks(), "rows"), out);

    long start = System.nanoTime();
    JobExecutionResult result = env.execute("bench " + variant);
    double executeSeconds = (System.nanoTime() - start) / 1e9;
    // taken before the read-back, which is the harness's work, not the sink's
    double cpuSeconds = processCpuSeconds();
    long peakRss = peakRss();
    long committed = variant.committedRows(out);
    long files = 0;
    long bytes = 0;
    try (Stream<Path> dataFiles = variant.dataFiles(out)) {
      for (Path file : (Iterable<Path>) dataFiles::iterator) {
        files++;
        bytes += Files.size(file);
      }
    }
    System.out.printf(Locale.ROOT,
        "RESULT variant=%s rows=%d committed=%d job_seconds=%.3f execute_seconds=%.3f files=%d bytes=%d "
            + "peak_rss_bytes=%d jvm_seconds=%.3f cpu_seconds=%.3f%n",
        variant, rows, committed, result.getNetRuntime() / 1e3, executeSeconds, files, bytes, peakRss,
        (System.currentTimeMillis() - jvmStartMillis) / 1e3, cpuSeconds);
    System.out.flush();
    // Flink's and Hadoop's non-daemon threads would keep the JVM alive.
    System.exit(0);
  }

  /**
   * CPU time of the whole process so far, all threads, start-up included (taken when the job has
   * finished, before the committed rows are read back): on a machine shared with
   * other work, rows per CPU second compare variants better than rows per second of wall time.
   */
  static double processCpuSeconds() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean bean ? bean.getProcessCpuTime() / 1e9 : -1;
  }

  /** The process's peak resident set size (VmHWM), in bytes; -1 where /proc is missing. */
  static long peakRss() throws IOException {
    Path status = Path.of("/proc/self/status");
    if (!Files.exists(status)) {
      return -1;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("VmHWM:")) {
        return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      }
    }
    return -1;
  }
}
