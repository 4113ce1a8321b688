package io.ktk.flink.benchmarks.longrun;

import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogKeys;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.commit.LogStats;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.testing.CountingObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Takes the figures of a {@link Mark} from the store and the process: a cold open with a new
 * reader, the log's size, the published view and Python's time to parse it, the files per
 * partition, what the store holds, and the live heap.
 */
final class MarkProbe {
  private static final int COLD_OPENS = 3;
  private static final int JSON_LOADS = 3;

  private final LocalObjectStore local;
  private final String uuid;
  private final String python;
  private final Path script;

  MarkProbe(LocalObjectStore local, String uuid, String python, Path work) throws IOException {
    this.local = local;
    this.uuid = uuid;
    this.python = python;
    this.script = work.resolve("json_load.py");
    try (InputStream in = MarkProbe.class.getResourceAsStream("json_load.py")) {
      Files.write(script, in.readAllBytes());
    }
  }

  /** The figures now; {@code committer} is the committer's state (the latest version). */
  Mark take(long commits, DatasetState committer, Latencies commitsTimed, Latencies publishesTimed,
      Maintenance maintenance, long startNanos)
      throws IOException, InterruptedException {
    double[] opens = new double[COLD_OPENS];
    CountingObjectStore counting = new CountingObjectStore(local);
    // Held in an array that heap() empties: a local variable would keep it alive in this frame.
    DatasetState[] opened = new DatasetState[1];
    for (int i = 0; i < COLD_OPENS; i++) {
      counting.reset();
      opened[0] = null;
      long start = System.nanoTime();
      opened[0] = new LogReader(counting, uuid).latest();
      opens[i] = (System.nanoTime() - start) / 1e6;
    }
    Arrays.sort(opens);
    if (opened[0].version() != committer.version()) {
      throw new IllegalStateException("a cold open read version " + opened[0].version() + ", the committer is at "
          + committer.version());
    }
    long listStart = System.nanoTime();
    long newestSnapshotBytes = 0;
    for (Iterator<ObjectInfo> it = local.list(DatasetKeys.logPrefix(uuid)); it.hasNext(); ) {
      ObjectInfo object = it.next();
      if (object.key().startsWith(LogKeys.snapshotPrefix(uuid))) {
        newestSnapshotBytes = object.size();
      }
    }
    double listLog = (System.nanoTime() - listStart) / 1e6;
    LogStats log = LogStats.of(local, uuid);
    Map<String, Integer> perPartition = new HashMap<>();
    for (DataFile file : committer.files().values()) {
      perPartition.merge(file.physicalPartition(), 1, Integer::sum);
    }
    long[] indexEntries = {0};
    committer.forEachIndexValue(TinyFiles.INDEX_COLUMN, (value, labels) -> indexEntries[0] += labels.size());
    long jsonBytes = local.head(DatasetKeys.metadataJsonKey(uuid)).map(ObjectInfo::size).orElse(-1L);
    double[] jsonLoad = jsonLoad();
    long[] dataFiles = countWithBytes(uuid + "/" + DatasetKeys.TABLE + "/");
    long[] indices = countWithBytes(uuid + "/indices/");
    double[] heap = heap(opened);
    long cpuNanos = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
    return new Mark(commits, committer.version(), commitsTimed.quantileMillis(0.5), commitsTimed.quantileMillis(0.99),
        publishesTimed.quantileMillis(0.5), publishesTimed.quantileMillis(0.99), opens[COLD_OPENS / 2],
        counting.wholeReads, counting.listed, listLog, jsonBytes, jsonLoad[0], jsonLoad[1], log.entries(),
        log.bytes(), log.snapshots(), newestSnapshotBytes, committer.files().size(), perPartition.size(),
        perPartition.values().stream().mapToInt(Integer::intValue).max().orElse(0), indexEntries[0], (int) dataFiles[0],
        (int) indices[0], indices[1], heap[0], heap[1],
        maintenance == null ? Double.NaN : maintenance.compaction.quantileMillis(0.5),
        maintenance == null ? Double.NaN : maintenance.compaction.quantileMillis(0.99),
        maintenance == null ? Double.NaN : maintenance.expiry.quantileMillis(0.5),
        maintenance == null ? Double.NaN : maintenance.gc.quantileMillis(0.5),
        (System.nanoTime() - startNanos) / 1e9, cpuNanos / 1e9);
  }

  /** Python's json.load of the published metadata (median ms) and its process's peak RSS (MB). */
  private double[] jsonLoad() throws IOException, InterruptedException {
    Path json = local.root().resolve(DatasetKeys.metadataJsonKey(uuid));
    if (!Files.exists(json)) {
      return new double[] {Double.NaN, Double.NaN};
    }
    Process process = new ProcessBuilder(python, script.toString(), json.toString(), Integer.toString(JSON_LOADS))
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
      throw new IOException("Cannot time json.load with " + python + ": it printed '" + out + "'");
    }
    String[] parts = out.split("\\s+");
    return new double[] {Double.parseDouble(parts[0]) * 1e3, Long.parseLong(parts[1]) / 1024.0};
  }

  private long[] countWithBytes(String prefix) throws IOException {
    long objects = 0;
    long bytes = 0;
    for (Iterator<ObjectInfo> it = local.list(prefix); it.hasNext(); ) {
      bytes += it.next().size();
      objects++;
    }
    return new long[] {objects, bytes};
  }

  /**
   * The live heap after a full collection without {@code opened}, and the size of {@code opened}
   * (a state as a reader reads it): the difference the live heap shows while it is held.
   */
  private static double[] heap(DatasetState[] opened) {
    long with = liveHeap();
    opened[0] = null;
    long without = liveHeap();
    return new double[] {without / 1048576.0, Math.max(0, with - without) / 1048576.0};
  }

  static long liveHeap() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    memory.gc();
    memory.gc();
    return memory.getHeapMemoryUsage().getUsed();
  }
}
