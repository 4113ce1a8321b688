package io.ktk.flink.benchmarks.sink;

import io.ktk.flink.benchmarks.BenchFiles;
import io.ktk.flink.benchmarks.BenchOptions;
import io.ktk.flink.benchmarks.FigureTable;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Sink throughput side by side: the same generated rows ({@link BenchRows}) written by each
 * {@link SinkVariant}, each in a child JVM of its own with the same heap setting, on an embedded
 * mini-cluster with the same parallelism and checkpoint interval. Prints rows per second of job
 * time, the ratio to FileSink's, the child's peak resident memory (VmHWM: heap, metaspace, direct
 * and native memory of the whole process, mini-cluster included), the data files and bytes each
 * left, and the rows each committed (read back; a variant that lost rows is flagged). On a machine
 * shared with other work, wall time depends on the others' load; the child's CPU time (all its
 * threads, JVM and mini-cluster start-up included) is printed beside it, with rows per CPU second.
 *
 * <p>Arguments: {@code --rows N} (10,000,000), {@code --parallelism N} (2), {@code
 * --checkpoint-ms N} (5000), {@code --heap SIZE} (2g, the child's -Xmx and -Xms is left to the
 * JVM), {@code --variants a,b} (all), {@code --work DIR} (a temporary directory, deleted after).
 * Run it with {@code bench/sink} or {@code bench/all}.
 */
public final class SinkBenchmark {
  private SinkBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = BenchOptions.parse(args);
    long rows = Long.parseLong(options.getOrDefault("rows", "10000000").replace("_", ""));
    int parallelism = Integer.parseInt(options.getOrDefault("parallelism", "2"));
    long checkpointMillis = Long.parseLong(options.getOrDefault("checkpoint-ms", "5000"));
    String heap = options.getOrDefault("heap", "2g");
    List<SinkVariant> variants = SinkVariant.parse(options.getOrDefault("variants",
        "GENERATOR_ONLY,KARTOTHEK,FILE_SINK,ICEBERG"));
    Path work = options.containsKey("work") ? Files.createDirectories(Path.of(options.get("work")))
        : Files.createTempDirectory("ktk-sink-bench-");
    List<String> jvmExtra = options.containsKey("jvm-args") ? List.of(options.get("jvm-args").split(" ")) : List.of();

    Map<SinkVariant, Map<String, String>> results = new HashMap<>();
    for (SinkVariant variant : variants) {
      Path out = work.resolve(variant.name().toLowerCase(Locale.ROOT));
      BenchFiles.deleteTree(out);
      System.err.printf(Locale.ROOT, "sink benchmark: %s, %,d rows ...%n", variant.title(), rows);
      results.put(variant, runChild(variant, rows, out, parallelism, checkpointMillis, heap, jvmExtra, work));
      BenchFiles.deleteTree(out);
    }
    if (!options.containsKey("work")) {
      BenchFiles.deleteTree(work);
    }

    Map<String, String> fileSink = results.get(SinkVariant.FILE_SINK);
    double baseline = fileSink == null ? Double.NaN : rowsPerSecond(fileSink);
    double baselineCpu = fileSink == null ? Double.NaN : rowsPerCpuSecond(fileSink);
    FigureTable table = new FigureTable("variant", "rows", "job s", "rows/s", "vs FileSink", "CPU s", "rows/CPU s",
        "vs FileSink", "peak RSS MB", "data files", "MB written", "rows committed");
    for (SinkVariant variant : variants) {
      Map<String, String> r = results.get(variant);
      double perSecond = rowsPerSecond(r);
      long committed = Long.parseLong(r.get("committed"));
      table.row(variant.title(), String.format(Locale.ROOT, "%,d", rows), r.get("job_seconds"),
          String.format(Locale.ROOT, "%,.0f", perSecond),
          Double.isNaN(baseline) ? "n/a" : String.format(Locale.ROOT, "%.2fx", perSecond / baseline),
          r.get("cpu_seconds"), String.format(Locale.ROOT, "%,.0f", rowsPerCpuSecond(r)),
          Double.isNaN(baselineCpu) ? "n/a" : String.format(Locale.ROOT, "%.2fx", rowsPerCpuSecond(r) / baselineCpu),
          String.format(Locale.ROOT, "%,.0f", Long.parseLong(r.get("peak_rss_bytes")) / 1048576.0),
          r.get("files"), String.format(Locale.ROOT, "%,.1f", Long.parseLong(r.get("bytes")) / 1048576.0),
          committed < 0 ? "n/a" : committed == rows ? String.format(Locale.ROOT, "%,d", committed)
              : String.format(Locale.ROOT, "%,d MISSING %,d", committed, rows - committed));
    }
    table.print(System.out, String.format(Locale.ROOT,
        "Sink throughput: %,d rows (id BIGINT, p STRING x100, c BIGINT, v DOUBLE null 10%%, s STRING null 20%%, "
            + "ts TIMESTAMP(6)), partitioned by p, parallelism %d, checkpoint every %d ms, Snappy; "
            + "one JVM per variant, -Xmx%s", rows, parallelism, checkpointMillis, heap));
  }

  /** Rows per second of the child's CPU time (all threads, start-up included). */
  private static double rowsPerCpuSecond(Map<String, String> result) {
    return Long.parseLong(result.get("rows")) / Double.parseDouble(result.get("cpu_seconds"));
  }

  private static double rowsPerSecond(Map<String, String> result) {
    return Long.parseLong(result.get("rows")) / Double.parseDouble(result.get("job_seconds"));
  }

  private static Map<String, String> runChild(SinkVariant variant, long rows, Path out, int parallelism,
      long checkpointMillis, String heap, List<String> jvmExtra, Path work) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + heap);
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    command.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
    command.add("--add-opens=java.base/java.util=ALL-UNNAMED");
    command.addAll(jvmExtra);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(SinkRun.class.getName());
    command.add(variant.name());
    command.add(Long.toString(rows));
    command.add(out.toString());
    command.add(Integer.toString(parallelism));
    command.add(Long.toString(checkpointMillis));
    File log = work.resolve(variant.name().toLowerCase(Locale.ROOT) + ".log").toFile();
    Process process = new ProcessBuilder(command).redirectError(log).start();
    Map<String, String> result = null;
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
        StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.startsWith("RESULT ")) {
          result = new HashMap<>();
          for (String pair : line.substring(7).split(" ")) {
            int eq = pair.indexOf('=');
            result.put(pair.substring(0, eq), pair.substring(eq + 1));
          }
        }
      }
    }
    int exit = process.waitFor();
    if (exit != 0 || result == null) {
      throw new IllegalStateException("Cannot benchmark " + variant.title() + ": its JVM exited with " + exit
          + "; its log is " + log);
    }
    return result;
  }
}
