package io.ktk.flink.benchmarks.longrun;

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
 * the rounds are shown, in wall-clock and in the thread's CPU time (which the load of other
 * processes blurs less).
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
      double[] withIndex = new double[ROUNDS];
      double[] jsonOnly = new double[ROUNDS];
      double[] sameBytes = new double[ROUNDS];
      double[] withIndexCpu = new double[ROUNDS];
      double[] jsonOnlyCpu = new double[ROUNDS];
      double[] sameBytesCpu = new double[ROUNDS];
      ThreadMXBean threads = ManagementFactory.getThreadMXBean();
      String key = DatasetKeys.metadataJsonKey(uuid);
      for (int round = 0; round < ROUNDS; round++) {
        log.commit(change(keys, random, written, 20));
        written += 20;
        long cpu = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        log.publish();
        withIndex[round] = (System.nanoTime() - start) / 1e6;
        withIndexCpu[round] = (threads.getCurrentThreadCpuTime() - cpu) / 1e6;
        cpu = threads.getCurrentThreadCpuTime();
        start = System.nanoTime();
        log.publish();
        jsonOnly[round] = (System.nanoTime() - start) / 1e6;
        jsonOnlyCpu[round] = (threads.getCurrentThreadCpuTime() - cpu) / 1e6;
        byte[] json = store.get(key);
        cpu = threads.getCurrentThreadCpuTime();
        start = System.nanoTime();
        store.put(uuid + "/bytes-of-the-view.json", json);
        sameBytes[round] = (System.nanoTime() - start) / 1e6;
        sameBytesCpu[round] = (threads.getCurrentThreadCpuTime() - cpu) / 1e6;
      }
      long jsonBytes = store.head(key).orElseThrow().size();
      FigureTable table = new FigureTable("what", "median ms", "min ms", "vs writing the bytes", "CPU ms (median)");
      double bytes = median(sameBytes);
      table.row("publish after a checkpoint (index file and JSON)", f(median(withIndex)), f(min(withIndex)),
          ratio(median(withIndex), bytes), f(median(withIndexCpu)));
      table.row("publish, index unchanged (JSON only)", f(median(jsonOnly)), f(min(jsonOnly)),
          ratio(median(jsonOnly), bytes), f(median(jsonOnlyCpu)));
      table.row("write the JSON's bytes (store.put)", f(bytes), f(min(sameBytes)), "1.00x", f(median(sameBytesCpu)));
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
