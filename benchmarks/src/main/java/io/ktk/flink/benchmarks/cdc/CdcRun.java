package io.ktk.flink.benchmarks.cdc;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One engine in a JVM of its own (started by {@link CdcBenchmark}): writes the changelog on an
 * embedded mini-cluster (the generator at parallelism 1, so a key's changes keep their order; the
 * sink at the given parallelism, a checkpoint every interval), then reads the final state back
 * {@code reads} times as bounded jobs (BATCH mode) at the same parallelism into a sink that adds up
 * checksums, and prints one line {@code RESULT key=value ...} and one line {@code LAYOUT text}.
 * Times are the jobs' own ({@link JobExecutionResult#getNetRuntime}, the mini-cluster's start
 * excluded); CPU seconds are the whole process's during each job.
 *
 * <p>Arguments: {@code engine keys partitions rounds deletePercent parallelism checkpointMillis dir reads}.
 */
public final class CdcRun {
  private static final LongAdder ROWS = new LongAdder();
  private static final LongAdder SUM_V = new LongAdder();
  private static final LongAdder HASH = new LongAdder();
  private static final LongAdder RETRACTIONS = new LongAdder();

  private CdcRun() {}

  public static void main(String[] args) throws Exception {
    CdcEngine engine = CdcEngine.valueOf(args[0]);
    Changelog changelog = new Changelog(Long.parseLong(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]),
        Integer.parseInt(args[4]));
    int parallelism = Integer.parseInt(args[5]);
    long checkpointMillis = Long.parseLong(args[6]);
    Path dir = Files.createDirectories(Path.of(args[7]));
    int reads = Integer.parseInt(args[8]);

    Configuration config = new Configuration();
    config.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism, config);
    env.enableCheckpointing(checkpointMillis);
    var events = env.fromSource(changelog.source(), WatermarkStrategy.noWatermarks(), "changelog").setParallelism(1);
    engine.addSink(events, dir, parallelism);
    double cpuBefore = processCpuSeconds();
    JobExecutionResult write = env.execute("cdc write " + engine);
    double writeCpu = processCpuSeconds() - cpuBefore;
    String layout = engine.layout(dir);
    long bytes = bytes(dir);

    List<Double> readSeconds = new ArrayList<>();
    List<Double> readCpu = new ArrayList<>();
    long[] checksum = null;
    for (int i = 0; i < reads; i++) {
      ROWS.reset();
      SUM_V.reset();
      HASH.reset();
      RETRACTIONS.reset();
      StreamExecutionEnvironment readEnv = StreamExecutionEnvironment.createLocalEnvironment(parallelism, config);
      readEnv.setRuntimeMode(RuntimeExecutionMode.BATCH);
      engine.read(readEnv, dir).sinkTo(new ChecksumSink()).name("checksums");
      cpuBefore = processCpuSeconds();
      JobExecutionResult read = readEnv.execute("cdc read " + engine);
      readCpu.add(processCpuSeconds() - cpuBefore);
      readSeconds.add(read.getNetRuntime() / 1e3);
      long[] these = {ROWS.sum(), SUM_V.sum(), HASH.sum(), RETRACTIONS.sum()};
      if (checksum != null && !Arrays.equals(checksum, these)) {
        throw new IllegalStateException(engine + ": read " + (i + 1) + " returned " + Arrays.toString(these)
            + " (rows, sum v, hash, retractions), read 1 " + Arrays.toString(checksum));
      }
      checksum = these;
    }
    System.out.printf(Locale.ROOT,
        "RESULT engine=%s events=%d write_seconds=%.3f write_cpu_seconds=%.3f read_first_seconds=%.3f "
            + "read_seconds=%.3f read_cpu_seconds=%.3f rows=%d sum_v=%d hash=%d retractions=%d bytes=%d "
            + "peak_rss_bytes=%d%n",
        engine, changelog.events(), write.getNetRuntime() / 1e3, writeCpu, readSeconds.get(0),
        warmMedian(readSeconds), warmMedian(readCpu), checksum[0], checksum[1], checksum[2], checksum[3], bytes,
        peakRss());
    System.out.println("LAYOUT " + layout);
    System.out.flush();
    // Flink's and Hadoop's non-daemon threads would keep the JVM alive.
    System.exit(0);
  }

  /** The median of the reads after the first (the first's own when there is one read). */
  private static double warmMedian(List<Double> values) {
    List<Double> warm = new ArrayList<>(values.size() > 1 ? values.subList(1, values.size()) : values);
    warm.sort(null);
    int n = warm.size();
    return n % 2 == 1 ? warm.get(n / 2) : (warm.get(n / 2 - 1) + warm.get(n / 2)) / 2;
  }

  private static long bytes(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
    }
  }

  /** CPU time of the whole process so far, all threads. */
  private static double processCpuSeconds() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean bean ? bean.getProcessCpuTime() / 1e9 : -1;
  }

  /** The process's peak resident set size (VmHWM), in bytes; -1 where /proc is missing. */
  private static long peakRss() throws IOException {
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

  /** Adds up the checksums of {@code {kind, k, v}} triples (the mini-cluster runs in this JVM). */
  private static final class ChecksumSink implements Sink<long[]> {
    private static final long serialVersionUID = 1L;

    @Override
    public SinkWriter<long[]> createWriter(WriterInitContext context) {
      return new SinkWriter<>() {
        @Override
        public void write(long[] row, Context context) {
          if (row[0] != 0) {
            RETRACTIONS.increment();
            return;
          }
          ROWS.increment();
          SUM_V.add(row[2]);
          HASH.add(Changelog.rowHash(row[1], row[2]));
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {}
      };
    }
  }
}
