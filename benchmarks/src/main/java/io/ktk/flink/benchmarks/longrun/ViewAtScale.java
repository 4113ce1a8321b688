package io.ktk.flink.benchmarks.longrun;

import com.sun.management.OperatingSystemMXBean;
import io.ktk.flink.benchmarks.BenchFiles;
import io.ktk.flink.benchmarks.FigureTable;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.store.LocalObjectStore;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The publication of the plateau view of a dataset of many files (100,000 by default: the target
 * is at most 250 ms) beside the time to write the same bytes to the same store. The dataset has
 * the long run's layout (day and region partitions, an index on {@code customer}, a few values
 * per file); only its log is written, since publishing reads no data file. Each round commits a
 * checkpoint of 20 files and publishes (the index changed: index file and JSON), publishes again
 * (nothing changed: the JSON only), and writes the JSON's bytes under another key; the medians of
 * the rounds are shown, in wall-clock and in CPU time (which the load of other processes blurs
 * less), of the publishing thread and of the whole process ({@link Series}).
 */
final class ViewAtScale {
  private static final int ROUNDS = 9;
  private static final int FILES_PER_COMMIT = 1_000;

  private ViewAtScale() {}

  static void run(Path work, int files) throws Exception {
    BenchFiles.deleteTree(work);
    Files.createDirectories(work);
    String uuid = "view-at-scale";
    Random random = new Random(1);
    List<Field> keys = TinyFiles.PARTITION_KEYS.stream().map(TinyFiles.SCHEMA::findField).toList();
    try (LocalObjectStore store = new LocalObjectStore(work)) {
      CommitLog log = CommitLog.open(store, uuid, CommitLogOptions.DEFAULTS);
      int written = 0;
      while (written < files) {
        int count = Math.min(FILES_PER_COMMIT, files - written);
        log.commit(change(keys, random, written, count));
        written += count;
      }
      log.publish();
      Series withIndex = new Series();
      Series jsonOnly = new Series();
      Series sameBytes = new Series();
      String key = DatasetKeys.metadataJsonKey(uuid);
      for (int round = 0; round < ROUNDS; round++) {
        log.commit(change(keys, random, written, 20));
        written += 20;
        withIndex.time(round, log::publish);
        jsonOnly.time(round, log::publish);
        byte[] json = store.get(key);
        sameBytes.time(round, () -> store.put(uuid + "/bytes-of-the-view.json", json));
      }
      long jsonBytes = store.head(key).orElseThrow().size();
      FigureTable table = new FigureTable("what", "median ms", "min ms", "vs writing the bytes",
          "CPU ms, thread (median)", "CPU ms, process (median)");
      double bytes = median(sameBytes.wall);
      withIndex.row(table, "publish after a checkpoint (index file and JSON)", bytes);
      jsonOnly.row(table, "publish, index unchanged (JSON only)", bytes);
      sameBytes.row(table, "write the JSON's bytes (store.put)", bytes);
      table.print(System.out, String.format(Locale.ROOT, "The plateau view of %,d files: metadata JSON %,d bytes, "
          + "%d rounds, load average %s", log.state().files().size(), jsonBytes, ROUNDS, LongRunBenchmark.loadAverage()));
    }
  }

  /** {@code count} files over the day and region partitions, each with three customers in the index. */
  private static DatasetChange change(List<Field> keys, Random random, int first, int count) {
    List<DataFile> files = new ArrayList<>();
    Map<IndexValue, List<String>> index = new HashMap<>();
    for (int i = 0; i < count; i++) {
      int n = first + i;
      int region = n % TinyFiles.REGIONS;
      LocalDate day = LocalDate.of(2024, 1, 1).plusDays(n / (TinyFiles.REGIONS * 20L));
      String label = PartitionLabel.of(keys, List.of(day, TinyFiles.region(region)), PartitionLabel.newFileId())
          .toString();
      files.add(new DataFile(label, TinyFiles.ROWS_PER_FILE, 1_500, TinyFiles.PHYSICAL));
      for (int c = 0; c < 3; c++) {
        long customer = (long) region * TinyFiles.CUSTOMERS_PER_REGION + random.nextInt(TinyFiles.CUSTOMERS_PER_REGION);
        index.computeIfAbsent(IndexValue.of(customer), v -> new ArrayList<>()).add(label);
      }
    }
    return DatasetChange.append(TinyFiles.PARTITION_KEYS, TinyFiles.SCHEMA, files)
        .withIndex(List.of(TinyFiles.INDEX_COLUMN), Map.of(TinyFiles.INDEX_COLUMN, index));
  }

  /** Something timed in each round. */
  private interface Action {
    void run() throws IOException;
  }

  /**
   * The times of one action over the rounds: wall-clock, the CPU time of the calling thread, and
   * that of the process (all threads: the index files are written on a thread of their own, and
   * the garbage collector's work counts too; the operating system counts it in steps of 10 ms).
   */
  private static final class Series {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final OperatingSystemMXBean PROCESS =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    final double[] wall = new double[ROUNDS];
    final double[] threadCpu = new double[ROUNDS];
    final double[] processCpu = new double[ROUNDS];

    void time(int round, Action action) throws IOException {
      long process = PROCESS.getProcessCpuTime();
      long thread = THREADS.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      action.run();
      wall[round] = (System.nanoTime() - start) / 1e6;
      threadCpu[round] = (THREADS.getCurrentThreadCpuTime() - thread) / 1e6;
      processCpu[round] = (PROCESS.getProcessCpuTime() - process) / 1e6;
    }

    void row(FigureTable table, String what, double bytesMedian) {
      table.row(what, f(median(wall)), f(min(wall)), ratio(median(wall), bytesMedian), f(median(threadCpu)),
          f(median(processCpu)));
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static double min(double[] values) {
    return Arrays.stream(values).min().orElse(Double.NaN);
  }

  private static String f(double millis) {
    return String.format(Locale.ROOT, "%.1f", millis);
  }

  private static String ratio(double a, double b) {
    return String.format(Locale.ROOT, "%.2fx", a / b);
  }
}
