package io.ktk.flink.benchmarks.query;

import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.engine.ResultBatch;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * The streamed cube's query classes ({@code streamed_cube.py}) answered in this process, warm: per
 * query, the median of the repetitions of opening the cube's logs ({@link CubeSnapshot#latest}),
 * planning and reading every {@link ResultBatch} on all cores (no output formatting, as DuckDB's
 * in-process side fetches an Arrow table). The first round of each query warms up and is not
 * counted. Prints one line per query: {@code <name>\t<rows>\t<median seconds>\t<median CPU seconds>} (CPU:
 * all threads of this process, the fairer figure on a machine shared with other work).
 *
 * <p>Arguments: {@code <cube directory> <cube> <repetitions> (<name> <where or ""> <partition-by or "">)...}
 */
public final class StreamedQueryInProcess {
  private StreamedQueryInProcess() {}

  public static void main(String[] args) throws Exception {
    ObjectStore store = new LocalObjectStore(Path.of(args[0]));
    String cube = args[1];
    int repetitions = Integer.parseInt(args[2]);
    int threads = Runtime.getRuntime().availableProcessors();
    com.sun.management.OperatingSystemMXBean cpu =
        (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    for (int i = 3; i + 2 < args.length; i += 3) {
      CubeQuery.Builder builder = CubeQuery.builder();
      if (!args[i + 1].isEmpty()) {
        builder.where(args[i + 1]);
      }
      if (!args[i + 2].isEmpty()) {
        builder.partitionBy(List.of(args[i + 2].split(",")));
      }
      CubeQuery query = builder.build();
      List<Double> seconds = new ArrayList<>();
      List<Double> cpuSeconds = new ArrayList<>();
      long rows = 0;
      for (int round = 0; round <= repetitions; round++) {
        long start = System.nanoTime();
        long cpuStart = cpu.getProcessCpuTime();
        QueryPlan plan = CubeSnapshot.latest(store, cube).plan(query);
        rows = 0;
        for (Iterator<ResultBatch> batches = new CubeReader(store, plan, true, threads).batches(); batches.hasNext(); ) {
          rows += batches.next().rowCount();
        }
        if (round > 0) {
          seconds.add((System.nanoTime() - start) / 1e9);
          cpuSeconds.add((cpu.getProcessCpuTime() - cpuStart) / 1e9);
        }
      }
      Collections.sort(seconds);
      Collections.sort(cpuSeconds);
      System.out.printf(Locale.ROOT, "%s\t%d\t%.4f\t%.4f%n", args[i], rows, seconds.get(seconds.size() / 2),
          cpuSeconds.get(cpuSeconds.size() / 2));
    }
  }
}
