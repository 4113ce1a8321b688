package io.ktk.flink.benchmarks.compaction;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ktk.flink.benchmarks.BenchFiles;
import io.ktk.flink.benchmarks.BenchOptions;
import io.ktk.flink.benchmarks.FigureTable;
import io.ktk.flink.benchmarks.sink.BenchRows;
import io.ktk.flink.sink.config.Compression;
import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.sink.compaction.CompactionPlan;
import io.ktk.flink.sink.compaction.CompactionResult;
import io.ktk.flink.sink.compaction.CompactionSettings;
import io.ktk.flink.sink.compaction.Compactor;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.store.LocalObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Compaction side by side with DuckDB over the same small files: a dataset written by the sink
 * ({@link BenchRows}, partitioned by {@code p}, parallelism 2, a checkpoint every few seconds, so
 * every partition gets a few dozen small files; written once per size and kept in the work
 * directory), rewritten by this project's {@link Compactor} (every partition's files into one file
 * per partition, committed) and by DuckDB's {@code COPY (SELECT * FROM read_parquet([...])) TO
 * '...' (FORMAT parquet)} of all files into one, each on one thread and on all cores.
 *
 * <p>Each run starts from the same files: ours from a fresh copy of the dataset made of hard links
 * (the rewrite adds files and log entries, it changes none), DuckDB from the files themselves, in a
 * Python process per run. Times are in-process, wall and CPU (the process's, all threads): the
 * machine is shared, so the CPU seconds compare better. Runs alternate the variants and the thread
 * counts, so that all see the same load; the first round warms up and is not counted. Both sides
 * must write as many rows as they read, or the benchmark fails.
 *
 * <p>Arguments: {@code --rows N} (50,000,000: about 1 GB of Parquet), {@code --repetitions N} (3
 * counted rounds), {@code --checkpoint-ms N} (5000), {@code --work DIR} ({@code target/bench-data}),
 * {@code --python PATH}. Run it with {@code bench/compaction}.
 */
public final class CompactionBenchmark {
  static final String DATASET = "bench";

  private CompactionBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = BenchOptions.parse(args);
    long rows = Long.parseLong(options.getOrDefault("rows", "50000000").replace("_", ""));
    int repetitions = Integer.parseInt(options.getOrDefault("repetitions", "3"));
    long checkpointMillis = Long.parseLong(options.getOrDefault("checkpoint-ms", "5000"));
    Path work = Path.of(options.getOrDefault("work", "target/bench-data")).resolve("compaction-" + rows)
        .toAbsolutePath();
    String python = options.getOrDefault("python", ".venv/bin/python");
    Path source = work.resolve("source");
    Path runs = work.resolve("runs");
    double load = loadAverage();

    ensureDataset(source, rows, checkpointMillis);
    List<Path> files = inputFiles(source);
    long inputBytes = 0;
    for (Path file : files) {
      inputBytes += Files.size(file);
    }
    int cores = Runtime.getRuntime().availableProcessors();
    int[] threadCounts = cores == 1 ? new int[] {1} : new int[] {1, cores};
    System.err.printf(Locale.ROOT, "compaction benchmark: %,d files, %,d bytes, %,d rows in %s%n", files.size(),
        inputBytes, rows, source);

    Map<Integer, List<double[]>> ours = new HashMap<>();
    Map<Integer, List<double[]>> duckdb = new HashMap<>();
    long oursRows = -1;
    long oursBytes = 0;
    int oursFiles = 0;
    long duckRows = -1;
    long duckBytes = 0;
    String duckVersion = "?";
    // Rounds alternate the variants and the thread counts, so that all see the same load.
    for (int round = 0; round <= repetitions; round++) {
      for (int threads : threadCounts) {
        Path run = runs.resolve("ours-" + threads);
        linkCopy(source, run);
        try (LocalObjectStore store = new LocalObjectStore(run)) {
          CompactionSettings settings = CompactionSettings.defaults().withMinInputFiles(2).withParallelism(threads);
          long cpu = processCpuNanos();
          long start = System.nanoTime();
          Compactor compactor = Compactor.of(store, DATASET, settings);
          CompactionPlan plan = compactor.plan();
          CompactionResult result = compactor.compact(plan);
          double seconds = (System.nanoTime() - start) / 1e9;
          double cpuSeconds = (processCpuNanos() - cpu) / 1e9;
          if (!result.notCommitted().isEmpty() || result.filesCompacted() != files.size()) {
            throw new IllegalStateException("Cannot measure compaction: it compacted " + result.filesCompacted()
                + " of " + files.size() + " files: " + result.notCommitted());
          }
          long rowsIn = result.partitions().stream().mapToLong(CompactionResult.PartitionResult::rowsIn).sum();
          oursRows = result.partitions().stream().mapToLong(CompactionResult.PartitionResult::rowsOut).sum();
          if (rowsIn != rows || oursRows != rows) {
            throw new IllegalStateException("Cannot measure compaction: it read " + rowsIn + " and wrote " + oursRows
                + " rows of " + rows);
          }
          oursBytes = result.bytesWritten();
          oursFiles = result.filesWritten();
          if (round > 0) {
            ours.computeIfAbsent(threads, t -> new ArrayList<>()).add(new double[] {seconds, cpuSeconds});
          }
          System.err.printf(Locale.ROOT, "compaction benchmark: ours, %d threads, round %d: %.2f s, %.2f CPU s%n",
              threads, round, seconds, cpuSeconds);
        }
        BenchFiles.deleteTree(run);

        JsonNode peer = runPeer(python, files, runs, threads);
        duckRows = peer.get("rows").asLong();
        duckBytes = peer.get("bytes").asLong();
        duckVersion = peer.get("duckdb").asText();
        if (duckRows != rows) {
          throw new IllegalStateException("Cannot compare: DuckDB wrote " + duckRows + " rows of " + rows);
        }
        if (round > 0) {
          duckdb.computeIfAbsent(threads, t -> new ArrayList<>()).add(new double[] {peer.get("seconds").asDouble(),
              peer.get("cpu_seconds").asDouble()});
        }
        System.err.printf(Locale.ROOT, "compaction benchmark: DuckDB, %d threads, round %d: %.2f s, %.2f CPU s%n",
            threads, round, peer.get("seconds").asDouble(), peer.get("cpu_seconds").asDouble());
      }
    }

    FigureTable table = new FigureTable("variant", "threads", "rows written", "files written", "MB written",
        "wall s (median)", "CPU s (median)", "MB/s per core", "wall vs DuckDB", "CPU vs DuckDB");
    for (int threads : threadCounts) {
      double[] our = medians(ours.get(threads));
      double[] duck = medians(duckdb.get(threads));
      table.row("Compactor (this project)", threads, count(oursRows), oursFiles, mb(oursBytes), secs(our[0]),
          secs(our[1]), perCore(inputBytes, our[0], threads), ratio(our[0] / duck[0]), ratio(our[1] / duck[1]));
      table.row("DuckDB COPY ... TO (FORMAT parquet)", threads, count(duckRows), 1, mb(duckBytes), secs(duck[0]),
          secs(duck[1]), perCore(inputBytes, duck[0], threads), "1.00x", "1.00x");
    }
    table.print(System.out, String.format(Locale.ROOT,
        "Compaction: %,d small files (%s MB, %,d rows) written by the sink into %s, median of %d rounds after one "
            + "warm-up; load average %.2f before, %.2f after; DuckDB %s", files.size(), mb(inputBytes), rows,
        "one file per partition (ours) or one file (DuckDB)", repetitions, load, loadAverage(), duckVersion));
    System.exit(0); // the mini-cluster of the data generation may leave non-daemon threads
  }

  /** Writes the dataset with the sink, unless a complete one is there already. */
  private static void ensureDataset(Path source, long rows, long checkpointMillis) throws Exception {
    Path complete = source.resolve(".complete");
    if (Files.exists(complete)) {
      return;
    }
    BenchFiles.deleteTree(source);
    Files.createDirectories(source);
    System.err.printf(Locale.ROOT, "compaction benchmark: writing %,d rows with the sink into %s ...%n", rows, source);
    Configuration config = new Configuration();
    config.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, config);
    env.enableCheckpointing(checkpointMillis);
    KartothekSink sink = KartothekSink.forRowData(BenchRows.rowType())
        .store(source.toUri().toString())
        .dataset(DATASET)
        .partitionBy("p")
        .compression(Compression.SNAPPY)
        .build();
    env.fromSource(BenchRows.source(rows), WatermarkStrategy.noWatermarks(), "rows").sinkTo(sink).name("kartothek");
    env.execute("compaction benchmark data");
    Files.writeString(complete, "");
  }

  /** The dataset's data files, in the order readers give them. */
  private static List<Path> inputFiles(Path source) throws IOException {
    try (LocalObjectStore store = new LocalObjectStore(source)) {
      DatasetState state = new LogReader(store, DATASET).latest();
      return state.files().values().stream()
          .sorted(Comparator.comparing(DataFile::physicalPartition).thenComparingLong(f -> state.addedIn(f.label()))
              .thenComparing(DataFile::label))
          .map(file -> source.resolve(file.key(DATASET)))
          .toList();
    }
  }

  /** A copy of {@code from} at {@code to} made of hard links. */
  private static void linkCopy(Path from, Path to) throws IOException {
    BenchFiles.deleteTree(to);
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        Path target = to.resolve(from.relativize(path).toString());
        if (Files.isDirectory(path)) {
          Files.createDirectories(target);
        } else {
          Files.createLink(target, path);
        }
      }
    }
  }

  /** One DuckDB run in a Python process of its own (its start is not timed). */
  private static JsonNode runPeer(String python, List<Path> files, Path out, int threads)
      throws IOException, InterruptedException {
    Files.createDirectories(out);
    Path script = Files.createTempFile("ktk-compaction-peers-", ".py");
    Path list = Files.createTempFile("ktk-compaction-files-", ".txt");
    try (InputStream in = CompactionBenchmark.class.getResourceAsStream("compaction_peers.py")) {
      Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
    }
    Files.write(list, files.stream().map(Path::toString).toList());
    try {
      Process process = new ProcessBuilder(python, script.toString(), list.toString(), out.toString(),
          Integer.toString(threads)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (process.waitFor() != 0) {
        throw new IllegalStateException("Cannot run DuckDB with " + python + ": exit " + process.exitValue());
      }
      return new ObjectMapper().readTree(output);
    } finally {
      Files.deleteIfExists(script);
      Files.deleteIfExists(list);
    }
  }

  /** Per column, the median of the runs. */
  private static double[] medians(List<double[]> runs) {
    double[] medians = new double[runs.get(0).length];
    for (int c = 0; c < medians.length; c++) {
      int column = c;
      double[] values = runs.stream().mapToDouble(run -> run[column]).sorted().toArray();
      int n = values.length;
      medians[c] = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }
    return medians;
  }

  private static long processCpuNanos() {
    var os = ManagementFactory.getOperatingSystemMXBean();
    return os instanceof com.sun.management.OperatingSystemMXBean bean ? bean.getProcessCpuTime() : 0;
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  private static String mb(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / 1e6);
  }

  private static String secs(double s) {
    return String.format(Locale.ROOT, "%.2f", s);
  }

  private static String perCore(long bytes, double seconds, int threads) {
    return String.format(Locale.ROOT, "%.1f", bytes / 1e6 / seconds / threads);
  }

  private static String ratio(double r) {
    return String.format(Locale.ROOT, "%.2fx", r);
  }
}
