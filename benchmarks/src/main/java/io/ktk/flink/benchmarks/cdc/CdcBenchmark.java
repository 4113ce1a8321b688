package io.ktk.flink.benchmarks.cdc;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Upserts side by side: the same {@link Changelog} (inserts of every key, then rounds of updates
 * to a tenth of the keys with some deletes) written by each {@link CdcEngine} into a table with a
 * primary key, then the final state read back, each engine in a child JVM of its own with the same
 * heap, on an embedded mini-cluster with the same parallelism and checkpoint interval. Prints
 * events per second of the write job and the read job's time, each with its ratio to Iceberg's,
 * and the CPU seconds of each. Every engine's state is checked against the reference state
 * (row count, sum of {@code v}, a hash of the key-value pairs) folded here from the same events:
 * the run fails when one differs.
 *
 * <p>Arguments: {@code --keys N} (200,000), {@code --partitions N} (10), {@code --rounds N} (10),
 * {@code --deletes PERCENT} of a round's changes (5), {@code --parallelism N} (2), {@code
 * --checkpoint-ms N} (5000), {@code --reads N} (3: the first and the median of the others are
 * shown), {@code --repetitions N} (1; each starts with the next engine, medians are shown), {@code
 * --heap SIZE} (2g), {@code --engines a,b} (all), {@code --work DIR} (a temporary
 * directory, deleted after). Run it with {@code bench/cdc}.
 */
public final class CdcBenchmark {
  private CdcBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = BenchOptions.parse(args);
    Changelog changelog = new Changelog(Long.parseLong(options.getOrDefault("keys", "200000").replace("_", "")),
        Integer.parseInt(options.getOrDefault("partitions", "10")), Integer.parseInt(options.getOrDefault("rounds", "10")),
        Integer.parseInt(options.getOrDefault("deletes", "5")));
    int parallelism = Integer.parseInt(options.getOrDefault("parallelism", "2"));
    long checkpointMillis = Long.parseLong(options.getOrDefault("checkpoint-ms", "5000"));
    int reads = Integer.parseInt(options.getOrDefault("reads", "3"));
    int repetitions = Integer.parseInt(options.getOrDefault("repetitions", "1"));
    String heap = options.getOrDefault("heap", "2g");
    List<CdcEngine> engines = CdcEngine.parse(options.getOrDefault("engines", "KARTOTHEK,ICEBERG,PAIMON"));
    Path work = options.containsKey("work") ? Files.createDirectories(Path.of(options.get("work")))
        : Files.createTempDirectory("ktk-cdc-bench-");

    Changelog.Checksum reference = changelog.reference();
    System.err.printf(Locale.ROOT, "cdc benchmark: %,d keys in %d partitions, %d rounds of %,d changes (%d%% deletes): "
        + "%,d events; the final state has %,d rows%n", changelog.keys(), changelog.partitions(), changelog.rounds(),
        changelog.keys() / 10, changelog.deletePercent(), changelog.events(), reference.rows());

    Map<CdcEngine, List<Map<String, String>>> runs = new LinkedHashMap<>();
    engines.forEach(engine -> runs.put(engine, new ArrayList<>()));
    for (int repetition = 0; repetition < repetitions; repetition++) {
      // each repetition starts with the next engine, so that none always runs first (or last) under the load
      for (int i = 0; i < engines.size(); i++) {
        CdcEngine engine = engines.get((i + repetition) % engines.size());
        Path dir = work.resolve(engine.name().toLowerCase(Locale.ROOT));
        BenchFiles.deleteTree(dir);
        System.err.printf(Locale.ROOT, "cdc benchmark: repetition %d, %s ... (load average %s)%n", repetition + 1,
            engine.title(), loadAverage());
        runs.get(engine).add(runChild(engine, changelog, parallelism, checkpointMillis, dir, reads, heap, work));
        BenchFiles.deleteTree(dir);
      }
    }
    if (!options.containsKey("work")) {
      BenchFiles.deleteTree(work);
    }
    print(changelog, reference, runs, parallelism, checkpointMillis, heap);
  }

  /**
   * One result per engine: the median of each figure over the repetitions, the checksums of the
   * first, and whether every repetition read the same checksums ({@code consistent}).
   */
  private static Map<String, String> medians(List<Map<String, String>> runs) {
    Map<String, String> result = new HashMap<>(runs.get(0));
    for (String key : List.of("write_seconds", "write_cpu_seconds", "read_first_seconds", "read_seconds",
        "read_cpu_seconds", "bytes", "peak_rss_bytes")) {
      List<Double> values = new ArrayList<>(runs.stream().map(r -> dbl(r, key)).sorted().toList());
      int n = values.size();
      double median = n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
      result.put(key, key.endsWith("seconds") ? format("%.3f", median) : format("%d", Math.round(median)));
    }
    List<String> checksum = List.of("rows", "sum_v", "hash", "retractions");
    boolean consistent = runs.stream()
        .allMatch(run -> checksum.stream().allMatch(key -> run.get(key).equals(runs.get(0).get(key))));
    result.put("consistent", Boolean.toString(consistent));
    return result;
  }

  private static void print(Changelog changelog, Changelog.Checksum reference,
      Map<CdcEngine, List<Map<String, String>>> runs, int parallelism, long checkpointMillis, String heap) {
    Map<CdcEngine, Map<String, String>> results = new LinkedHashMap<>();
    runs.forEach((engine, list) -> results.put(engine, medians(list)));
    int repetitions = runs.values().iterator().next().size();
    Map<String, String> iceberg = results.get(CdcEngine.ICEBERG);
    List<String> wrong = new ArrayList<>();
    FigureTable table = new FigureTable("engine", "write s", "events/s", "vs Iceberg", "write CPU s", "events/CPU s",
        "vs Iceberg", "read s (first)", "read s", "vs Iceberg", "read CPU s", "vs Iceberg", "rows read", "state",
        "MB on disk", "peak RSS MB");
    for (Map.Entry<CdcEngine, Map<String, String>> entry : results.entrySet()) {
      Map<String, String> r = entry.getValue();
      Changelog.Checksum read = new Changelog.Checksum(num(r, "rows"), num(r, "sum_v"), num(r, "hash"));
      boolean consistent = Boolean.parseBoolean(r.get("consistent"));
      boolean correct = consistent && read.equals(reference) && num(r, "retractions") == 0;
      if (!correct) {
        wrong.add(entry.getKey().title() + " read " + read + " and " + num(r, "retractions") + " retractions"
            + (consistent ? "" : " in the first repetition, other checksums in others") + "; expected " + reference);
      }
      table.row(entry.getKey().title(), r.get("write_seconds"), format("%,.0f", eventsPerSecond(r)),
          ratio(eventsPerSecond(r), iceberg == null ? Double.NaN : eventsPerSecond(iceberg)),
          r.get("write_cpu_seconds"), format("%,.0f", eventsPerCpuSecond(r)),
          ratio(eventsPerCpuSecond(r), iceberg == null ? Double.NaN : eventsPerCpuSecond(iceberg)),
          r.get("read_first_seconds"), r.get("read_seconds"),
          ratio(dbl(r, "read_seconds"), iceberg == null ? Double.NaN : dbl(iceberg, "read_seconds")),
          r.get("read_cpu_seconds"),
          ratio(dbl(r, "read_cpu_seconds"), iceberg == null ? Double.NaN : dbl(iceberg, "read_cpu_seconds")),
          format("%,d", read.rows()), correct ? "OK" : "WRONG", format("%,.1f", num(r, "bytes") / 1048576.0),
          format("%,.0f", num(r, "peak_rss_bytes") / 1048576.0));
    }
    table.print(System.out, format("Upserts: %,d keys (k BIGINT, p STRING, v BIGINT, x DOUBLE, s STRING; key (k, p)) "
        + "in %d partitions, then %d rounds of changes to %,d keys (%d%% of them deletes): %,d events; final state "
        + "%,d rows. Parallelism %d, a checkpoint every %d ms, Snappy Parquet; one JVM per engine, -Xmx%s. Read: the "
        + "final state as a bounded job (BATCH), first read and median of the others. Medians of %d repetition(s), "
        + "each starting with the next engine", changelog.keys(),
        changelog.partitions(), changelog.rounds(), changelog.keys() / 10, changelog.deletePercent(),
        changelog.events(), reference.rows(), parallelism, checkpointMillis, heap, repetitions));
    for (Map.Entry<CdcEngine, Map<String, String>> entry : results.entrySet()) {
      System.out.println("  " + entry.getKey().title() + ": " + entry.getValue().get("layout"));
    }
    Map<String, String> ours = results.get(CdcEngine.KARTOTHEK);
    if (ours != null && iceberg != null) {
      double write = eventsPerSecond(ours) / eventsPerSecond(iceberg);
      double writeCpu = eventsPerCpuSecond(ours) / eventsPerCpuSecond(iceberg);
      double read = dbl(ours, "read_seconds") / dbl(iceberg, "read_seconds");
      System.out.printf(Locale.ROOT, "Targets: write throughput >= 2x Iceberg's: %.2fx (%.2fx per CPU second), %s; "
          + "read time <= 0.5x Iceberg's: %.2fx, %s%n", write, writeCpu, write >= 2 ? "met" : "MISSED", read,
          read <= 0.5 ? "met" : "MISSED");
    }
    System.out.printf(Locale.ROOT, "Load average after the run: %s%n", loadAverage());
    System.out.flush();
    if (!wrong.isEmpty()) {
      throw new IllegalStateException("The engines' final states differ from the reference: " + wrong);
    }
  }

  private static double eventsPerSecond(Map<String, String> r) {
    return num(r, "events") / dbl(r, "write_seconds");
  }

  private static double eventsPerCpuSecond(Map<String, String> r) {
    return num(r, "events") / dbl(r, "write_cpu_seconds");
  }

  private static String ratio(double value, double baseline) {
    return Double.isNaN(baseline) ? "n/a" : format("%.2fx", value / baseline);
  }

  private static long num(Map<String, String> r, String key) {
    return Long.parseLong(r.get(key));
  }

  private static double dbl(Map<String, String> r, String key) {
    return Double.parseDouble(r.get(key));
  }

  private static String format(String pattern, Object... values) {
    return String.format(Locale.ROOT, pattern, values);
  }

  static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException e) {
      return "n/a";
    }
  }

  private static Map<String, String> runChild(CdcEngine engine, Changelog changelog, int parallelism,
      long checkpointMillis, Path dir, int reads, String heap, Path work) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx" + heap, "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-opens=java.base/java.util=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        CdcRun.class.getName(), engine.name(), Long.toString(changelog.keys()), Integer.toString(changelog.partitions()),
        Integer.toString(changelog.rounds()), Integer.toString(changelog.deletePercent()),
        Integer.toString(parallelism), Long.toString(checkpointMillis), dir.toString(), Integer.toString(reads)));
    File log = work.resolve(engine.name().toLowerCase(Locale.ROOT) + ".log").toFile();
    Process process = new ProcessBuilder(command).redirectError(log).start();
    Map<String, String> result = null;
    String layout = "";
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
        } else if (line.startsWith("LAYOUT ")) {
          layout = line.substring(7);
        }
      }
    }
    int exit = process.waitFor();
    if (exit != 0 || result == null) {
      throw new IllegalStateException("Cannot benchmark " + engine.title() + ": its JVM exited with " + exit
          + "; its log is " + log);
    }
    result.put("layout", layout);
    return result;
  }
}
