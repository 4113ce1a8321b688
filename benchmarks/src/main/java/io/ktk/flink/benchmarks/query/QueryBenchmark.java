package io.ktk.flink.benchmarks.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ktk.flink.benchmarks.BenchOptions;
import io.ktk.flink.benchmarks.FigureTable;
import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.engine.ResultBatch;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.vector.DoubleVector;
import io.ktk.flink.state.vector.LongVector;
import io.ktk.flink.state.vector.TypedVector;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;

import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A cube query side by side with DuckDB and pandas over the same files: the cube of {@link
 * BenchCube} (written once per size and kept in the work directory), the query {@code columns p, x,
 * v, a, b where a < 0.3} (seed joined with one enrichment restricted by a condition on its payload
 * and one left-joined), answered by this project's in-process {@link CubeReader} (on all cores and
 * on one thread), by the same query as a Flink job ({@link SourceJob}), by DuckDB executing the
 * equivalent SQL, and by a per-partition pandas join (how Kartothek does it), the last two in one
 * Python process ({@code query_peers.py}). Every answer is materialized (ours as column batches,
 * DuckDB's as an Arrow table, pandas' as a data frame; the Flink job's rows go through Flink one
 * by one) and checked: row count, sum of x, sum of a and the count of non-null b must agree, or
 * the benchmark fails.
 *
 * <p>Times are in-process: the first run (cold: this JVM's classes and JIT, Python's imports
 * excluded) and the median of warm repetitions; for the Flink job, the job's run time without the
 * MiniCluster's start. This JVM's start-up (process start to {@code main}) is reported on its own
 * line.
 *
 * <p>Arguments: {@code --rows N} (10,000,000 seed rows), {@code --repetitions N} (5), {@code --work
 * DIR} (where the cube is kept; {@code target/bench-data}), {@code --python PATH} (the interpreter
 * with pyarrow, pandas and duckdb). Run it with {@code bench/query} or {@code bench/all}.
 */
public final class QueryBenchmark {
  static final String CONDITION = "a < 0.3";

  private QueryBenchmark() {}

  public static void main(String[] args) throws Exception {
    long mainMillis = System.currentTimeMillis();
    double jvmStartSeconds = (mainMillis - ManagementFactory.getRuntimeMXBean().getStartTime()) / 1e3;
    Map<String, String> options = BenchOptions.parse(args);
    long rows = Long.parseLong(options.getOrDefault("rows", "10000000").replace("_", ""));
    int repetitions = Integer.parseInt(options.getOrDefault("repetitions", "5"));
    Path work = Path.of(options.getOrDefault("work", "target/bench-data"));
    String python = options.getOrDefault("python", ".venv/bin/python");
    Path dir = work.resolve("cube-" + rows).toAbsolutePath();
    Files.createDirectories(dir);

    ObjectStore store = new LocalObjectStore(dir);
    long generateStart = System.nanoTime();
    System.err.printf(Locale.ROOT, "query benchmark: the cube of %,d seed rows in %s ...%n", rows, dir);
    BenchCube.ensure(store, dir, rows);
    double generateSeconds = (System.nanoTime() - generateStart) / 1e9;

    int threads = Runtime.getRuntime().availableProcessors();
    System.err.println("query benchmark: CubeReader ...");
    List<Result> measured = measure(store, repetitions, threads == 1 ? new int[] {1} : new int[] {threads, 1});
    Result ours = measured.get(0);
    Result ours1 = measured.get(measured.size() - 1);
    System.err.println("query benchmark: KartothekSource on a MiniCluster ...");
    Result flink = measureFlink(dir, repetitions, threads);
    System.err.println("query benchmark: DuckDB and pandas ...");
    JsonNode peers = runPeers(python, dir, repetitions);
    Result pandas = Result.of(peers.get("pandas"));
    Result duckdb = Result.of(peers.get("duckdb"));
    Result duckdb1 = Result.of(peers.get("duckdb_1"));
    for (Result peer : List.of(pandas, duckdb, duckdb1, ours1, flink)) {
      if (!ours.sameAnswer(peer)) {
        throw new IllegalStateException("Cannot compare the query: the answers differ: ours " + ours + ", peer " + peer);
      }
    }

    double fastestPeer = Math.min(pandas.median, duckdb.median);
    int cores = peers.get("cores").asInt();
    FigureTable table = new FigureTable("variant", "threads", "rows", "first run s", "warm median s", "warm min s",
        "vs faster peer");
    table.row("CubeReader (in-process, this JVM)", threads, count(ours.rows), secs(ours.cold), secs(ours.median),
        secs(ours.min), ratio(ours.median / fastestPeer));
    if (threads > 1) {
      table.row("CubeReader (in-process, this JVM)", 1, count(ours1.rows), secs(ours1.cold), secs(ours1.median),
          secs(ours1.min), ratio(ours1.median / fastestPeer));
    }
    table.row("KartothekSource, MiniCluster (job time)", threads, count(flink.rows), secs(flink.cold),
        secs(flink.median), secs(flink.min), ratio(flink.median / fastestPeer));
    table.row("pandas, per-partition join (Kartothek's way)", 1, count(pandas.rows), secs(pandas.cold),
        secs(pandas.median), secs(pandas.min), ratio(pandas.median / fastestPeer));
    table.row("DuckDB SQL", cores, count(duckdb.rows), secs(duckdb.cold), secs(duckdb.median), secs(duckdb.min),
        ratio(duckdb.median / fastestPeer));
    table.row("DuckDB SQL", 1, count(duckdb1.rows), secs(duckdb1.cold), secs(duckdb1.median), secs(duckdb1.min),
        ratio(duckdb1.median / fastestPeer));
    table.print(System.out, String.format(Locale.ROOT,
        "Cube query: seed of %,d rows in %d partitions, 'columns p, x, v, a, b where %s' (enrich inner-joined by its "
            + "condition, label left-joined); %d warm repetitions; answers agree (rows %,d, sum x %d, non-null b %,d)",
        rows, BenchCube.PARTITIONS, CONDITION, repetitions, ours.rows, ours.sumX, ours.bCount));
    System.out.printf(Locale.ROOT, "JVM start-up to main: %.3f s (not in the figures above); cube written in %.1f s "
        + "(0 when kept from an earlier run); DuckDB %s, pandas %s%n", jvmStartSeconds, generateSeconds,
        peers.get("versions").get("duckdb").asText(), peers.get("versions").get("pandas").asText());
  }

  /**
   * Runs the query with each thread count: once cold (in the order given, so only the first one
   * is really cold), then {@code repetitions} warm rounds in which the thread counts take turns,
   * so that none profits from the other's warm-up. Results are consumed batch by batch, column by
   * column, as a columnar consumer (an Arrow or Flink vectorized reader) would.
   */
  private static List<Result> measure(ObjectStore store, int repetitions, int[] threadCounts) throws IOException {
    Result[] first = new Result[threadCounts.length];
    double[][] times = new double[threadCounts.length][repetitions];
    for (int i = -1; i < repetitions; i++) {
      for (int t = 0; t < threadCounts.length; t++) {
        Result run = run(store, threadCounts[t]);
        if (i < 0) {
          first[t] = run;
        } else {
          times[t][i] = run.cold;
        }
      }
    }
    List<Result> results = new ArrayList<>();
    for (int t = 0; t < threadCounts.length; t++) {
      double[] sorted = times[t].clone();
      Arrays.sort(sorted);
      double median = repetitions % 2 == 1 ? sorted[repetitions / 2]
          : (sorted[repetitions / 2 - 1] + sorted[repetitions / 2]) / 2;
      results.add(new Result(first[t].rows, first[t].sumX, first[t].sumA, first[t].bCount, first[t].cold, median,
          sorted[0]));
    }
    return results;
  }

  /** The query as a Flink job ({@link SourceJob}): once cold, then {@code repetitions} times. */
  private static Result measureFlink(Path dir, int repetitions, int parallelism) throws Exception {
    CubeQuery query = CubeQuery.builder().where(CONDITION).columns("p", "x", "v", "a", "b").build();
    SourceJob.Outcome first = SourceJob.run(dir, query, parallelism);
    double[] times = new double[repetitions];
    for (int i = 0; i < repetitions; i++) {
      times[i] = SourceJob.run(dir, query, parallelism).seconds();
    }
    Arrays.sort(times);
    double median = repetitions % 2 == 1 ? times[repetitions / 2]
        : (times[repetitions / 2 - 1] + times[repetitions / 2]) / 2;
    return new Result(first.rows(), first.sumX(), first.sumA(), first.bCount(), first.seconds(), median, times[0]);
  }

  /** One run of the query; its time is in {@code cold}. */
  private static Result run(ObjectStore store, int threads) throws IOException {
    CubeQuery query = CubeQuery.builder().where(CONDITION).columns("p", "x", "v", "a", "b").build();
    long start = System.nanoTime();
    QueryPlan plan = CubeSnapshot.latest(store, BenchCube.NAME).plan(query);
    long rows = 0;
    long sumX = 0;
    double sumA = 0;
    long bCount = 0;
    Iterator<ResultBatch> batches = new CubeReader(store, plan, true, threads).batches();
    while (batches.hasNext()) {
      ResultBatch batch = batches.next();
      int n = batch.rowCount();
      rows += n;
      long[] x = ((LongVector) batch.column(1)).values();
      double[] a = ((DoubleVector) batch.column(3)).values();
      TypedVector b = batch.column(4);
      for (int row = 0; row < n; row++) {
        sumX += x[row];
        sumA += a[row];
        if (!b.isNull(row)) {
          bCount++;
        }
      }
    }
    return new Result(rows, sumX, sumA, bCount, (System.nanoTime() - start) / 1e9, 0, 0);
  }

  private static JsonNode runPeers(String python, Path dir, int repetitions) throws IOException, InterruptedException {
    Path script = Files.createTempFile("ktk-query-peers-", ".py");
    try (InputStream in = QueryBenchmark.class.getResourceAsStream("query_peers.py")) {
      Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
    }
    try {
      Process process = new ProcessBuilder(python, script.toString(), dir.toString(), Integer.toString(repetitions),
          CONDITION.substring(CONDITION.indexOf('<') + 1).trim())
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int exit = process.waitFor();
      if (exit != 0) {
        throw new IllegalStateException("Cannot run the DuckDB and pandas queries with " + python + ": exit " + exit);
      }
      return new ObjectMapper().readTree(out);
    } finally {
      Files.deleteIfExists(script);
    }
  }

  /** An answer's checksums and times. */
  private record Result(long rows, long sumX, double sumA, long bCount, double cold, double median, double min) {
    static Result of(JsonNode node) {
      return new Result(node.get("rows").asLong(), node.get("sum_x").asLong(), node.get("sum_a").asDouble(),
          node.get("b_count").asLong(), node.get("cold_seconds").asDouble(), node.get("median_seconds").asDouble(),
          node.get("min_seconds").asDouble());
    }

    boolean sameAnswer(Result other) {
      return rows == other.rows && sumX == other.sumX && bCount == other.bCount
          && Math.abs(sumA - other.sumA) <= 1e-9 * Math.max(1, Math.abs(sumA));
    }
  }

  private static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  private static String secs(double s) {
    return String.format(Locale.ROOT, "%.3f", s);
  }

  private static String ratio(double r) {
    return String.format(Locale.ROOT, "%.2fx", r);
  }
}
