package io.ktk.flink.bench;

import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.commit.PlateauPublisher;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import io.ktk.flink.state.testing.S3Proxy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Commit latency while a dataset grows from 1,000 to 100,000 files, on a local directory and on
 * s3proxy, side by side in one process. At each size it times commits of a few files (what one
 * checkpoint of a streaming job adds) beside a bare create-if-absent of an entry-sized object on
 * the same store (the baseline: what the store itself costs), the publishing of the plateau view
 * (metadata JSON, index file; necessarily proportional to the dataset), and a cold open of the log.
 * The figure that matters is the ratio of a commit at 100,000 files to one at 1,000.
 *
 * <p>Run: {@code bench/commit-latency} (or this class's main with the e2e test classpath); {@code
 * --max-files N} stops at the largest size not above N (bench/all's quick mode uses 10,000).
 */
public final class CommitLatencyBenchmark {
  private static final Schema SCHEMA = new Schema(List.of(
      new Field("p", FieldType.nullable(new ArrowType.Utf8()), null),
      new Field("c", FieldType.nullable(new ArrowType.Int(64, true)), null),
      new Field("v", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null)));
  private static final Schema PHYSICAL = new Schema(SCHEMA.getFields().subList(1, 3));
  private static final int[] ALL_SIZES = {1_000, 10_000, 100_000};
  private static final int FILES_PER_COMMIT = 4;
  private static final int MEASURED_COMMITS = 60;
  private static final int GROWTH_FILES_PER_COMMIT = 1_000;
  private static final int MEASURED_PUBLISHES = 5;
  private static final int INDEX_VALUES = 1_000;

  private CommitLatencyBenchmark() {}

  private static int[] sizes = ALL_SIZES;

  public static void main(String[] args) throws Exception {
    if (args.length == 2 && args[0].equals("--max-files")) {
      int max = Integer.parseInt(args[1].replace("_", ""));
      sizes = Arrays.stream(ALL_SIZES).filter(size -> size <= max).toArray();
    } else if (args.length != 0) {
      throw new IllegalArgumentException("Cannot read the arguments " + List.of(args) + ": expected --max-files N");
    }
    if (sizes.length == 0) {
      throw new IllegalArgumentException("Cannot benchmark below " + ALL_SIZES[0] + " files");
    }
    List<String> rows = new ArrayList<>();
    Path dir = Files.createTempDirectory("ktk-commit-bench-");
    try (ObjectStore local = ObjectStores.open(dir.toUri().toString());
        S3Proxy proxy = S3Proxy.inMemory().start();
        ObjectStore s3 = ObjectStores.open(proxy.url("bench"), proxy.options())) {
      // A throwaway round on each store first, so that JIT compilation does not land on the 1k figures.
      run("local", local, false);
      run("s3proxy", s3, false);
      rows.addAll(run("local", local, true));
      rows.addAll(run("s3proxy", s3, true));
    }
    System.out.println();
    System.out.println("store    files    commit p50 ms  commit p90 ms  commit mean ms  bare create p50  ratio p50 vs 1k  publish p50 ms  cold open ms");
    rows.forEach(System.out::println);
  }

  private static List<String> run(String name, ObjectStore store, boolean report) throws IOException {
    String uuid = "bench-" + UUID.randomUUID();
    CommitLog log = CommitLog.open(store, uuid, CommitLogOptions.DEFAULTS);
    List<String> rows = new ArrayList<>();
    double baseline = Double.NaN;
    int files = 0;
    for (int size : report ? sizes : new int[] {sizes[0]}) {
      while (files < size - MEASURED_COMMITS * FILES_PER_COMMIT) {
        int batch = Math.min(GROWTH_FILES_PER_COMMIT, size - MEASURED_COMMITS * FILES_PER_COMMIT - files);
        log.commit(request(newFiles(batch, files), files));
        files += batch;
      }
      long[] nanos = new long[MEASURED_COMMITS];
      long[] baselineNanos = new long[MEASURED_COMMITS];
      byte[] entrySized = new byte[1_200];
      for (int i = 0; i < MEASURED_COMMITS; i++) {
        List<DataFile> added = newFiles(FILES_PER_COMMIT, files);
        long start = System.nanoTime();
        log.commit(request(added, files).withWriter("bench", log.state().version() + 1));
        nanos[i] = System.nanoTime() - start;
        files += FILES_PER_COMMIT;
        // Baseline, interleaved so both see the same machine: one create-if-absent of an
        // entry-sized object, the store's own cost of a commit.
        start = System.nanoTime();
        store.putIfAbsent(uuid + "/baseline/" + size + "-" + i, entrySized);
        baselineNanos[i] = System.nanoTime() - start;
      }
      PlateauPublisher publisher = new PlateauPublisher();
      long[] publishNanos = new long[MEASURED_PUBLISHES];
      for (int i = 0; i < MEASURED_PUBLISHES; i++) {
        List<DataFile> added = newFiles(FILES_PER_COMMIT, files);
        log.commit(request(added, files));
        files += FILES_PER_COMMIT;
        long start = System.nanoTime();
        publisher.publish(log);
        publishNanos[i] = System.nanoTime() - start;
      }
      Arrays.sort(publishNanos);
      double publishP50 = publishNanos[MEASURED_PUBLISHES / 2] / 1e6;
      long openStart = System.nanoTime();
      CommitLog reopened = CommitLog.open(store, uuid, CommitLogOptions.DEFAULTS);
      double openMs = (System.nanoTime() - openStart) / 1e6;
      if (reopened.state().files().size() != files) {
        throw new IllegalStateException("reopened log has " + reopened.state().files().size() + " files, expected " + files);
      }
      Arrays.sort(nanos);
      Arrays.sort(baselineNanos);
      double storeP50 = baselineNanos[baselineNanos.length / 2] / 1e6;
      double p50 = nanos[nanos.length / 2] / 1e6;
      double p90 = nanos[nanos.length * 9 / 10] / 1e6;
      double mean = Arrays.stream(nanos).average().orElse(0) / 1e6;
      if (Double.isNaN(baseline)) {
        baseline = p50;
      }
      String row = String.format(Locale.ROOT, "%-8s %7d  %13.2f  %13.2f  %14.2f  %16.2f  %15.2f  %14.1f  %12.1f",
          name, files, p50, p90, mean, storeP50, p50 / baseline, publishP50, openMs);
      if (report) {
        System.out.println(row);
        rows.add(row);
      }
    }
    return rows;
  }

  /** An append with index entries for column c, as a sink's checkpoint would commit. */
  private static DatasetChange request(List<DataFile> added, int offset) {
    Map<IndexValue, List<String>> index = new HashMap<>();
    for (int i = 0; i < added.size(); i++) {
      index.computeIfAbsent(IndexValue.of((long) ((offset + i) % INDEX_VALUES)), v -> new ArrayList<>())
          .add(added.get(i).label());
    }
    return DatasetChange.append(List.of("p"), SCHEMA, added).withIndex(List.of("c"), Map.of("c", index));
  }

  private static List<DataFile> newFiles(int count, int offset) {
    List<DataFile> files = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      String partition = "p=" + ((offset + i) % 100);
      files.add(new DataFile(partition + "/" + UUID.randomUUID().toString().replace("-", ""), 1000, 50_000, PHYSICAL));
    }
    return files;
  }
}
