package io.ktk.flink.benchmarks.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ktk.flink.benchmarks.BenchOptions;
import io.ktk.flink.benchmarks.FigureTable;
import io.ktk.flink.source.KartothekSource;
import io.ktk.flink.source.query.CubeQuery;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;

/**
 * The streamed cube's query classes through Flink, beside DuckDB in process on the same files: a
 * {@link KartothekSource} job into a sink that only counts, and a SQL {@code INSERT INTO} a
 * blackhole table from the cube's table in a Kartothek catalog. The source job reads {@code
 * RowData} ({@link KartothekSource.Builder#buildRowData()}) with object reuse enabled, the fastest
 * documented path; {@code --source rows} reads boxed {@code Row}s ({@code build()}) without it. A
 * job's time is its net run time (without the local cluster's start); DuckDB's is from connect to
 * the fetched Arrow table ({@code streamed_duckdb.py}). Runs alternate per repetition; medians are
 * compared.
 *
 * <p>Options: {@code --store file:///dir} (a cube written by {@code ktk demo}), {@code --cube demo},
 * {@code --repetitions N} (3), {@code --parallelism N} (2), {@code --python PATH}, {@code --profile
 * source|sql} (only run that path on one query class, {@code --class N} (0, the first), {@code
 * --repetitions} times, for a profiler; no DuckDB, no table), {@code --source rowdata|rows} (rowdata).
 */
public final class StreamedFlinkBenchmark {
  private static final LongAdder ROWS = new LongAdder();

  /** A query class: its condition for the cube query and for SQL. */
  private record QueryClass(String name, String where, String sqlWhere) {}

  private static final List<QueryClass> QUERIES = List.of(
      new QueryClass("all rows", null, null),
      new QueryClass("restricted enrichment", "level == 'high'", "level = 'high'"),
      new QueryClass("indexed dimension", "sensor == 'sensor-7'", "sensor = 'sensor-7'"),
      new QueryClass("payload condition", "reading > 29.5", "reading > 29.5"));

  private StreamedFlinkBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = BenchOptions.parse(args);
    String store = options.get("store");
    if (store == null || !store.startsWith("file://")) {
      throw new IllegalArgumentException("Cannot run: --store file:///dir of a cube written by ktk demo is required");
    }
    String cube = options.getOrDefault("cube", "demo");
    int repetitions = Integer.parseInt(options.getOrDefault("repetitions", "3"));
    int parallelism = Integer.parseInt(options.getOrDefault("parallelism", "2"));
    String python = options.getOrDefault("python", ".venv/bin/python");
    Path directory = Path.of(java.net.URI.create(store));
    boolean boxedRows = options.getOrDefault("source", "rowdata").equals("rows");
    String profile = options.get("profile");
    if (profile != null) {
      QueryClass query = QUERIES.get(Integer.parseInt(options.getOrDefault("class", "0")));
      for (int r = 0; r < repetitions; r++) {
        double seconds = profile.equals("sql") ? runSql(store, cube, query, parallelism)
            : runSource(store, cube, query, parallelism, boxedRows)[1];
        System.out.printf(Locale.ROOT, "%s, %s: %.2f s%n", profile, query.name(), seconds);
      }
      return;
    }

    System.out.printf(Locale.ROOT, "load average before: %.1f%n", loadAverage());
    Map<String, List<Double>> sourceTimes = new HashMap<>();
    Map<String, List<Double>> sqlTimes = new HashMap<>();
    Map<String, Long> sourceRows = new HashMap<>();
    for (int r = 0; r < repetitions; r++) {
      for (QueryClass query : QUERIES) {
        double[] source = runSource(store, cube, query, parallelism, boxedRows);
        sourceRows.put(query.name(), (long) source[0]);
        sourceTimes.computeIfAbsent(query.name(), k -> new ArrayList<>()).add(source[1]);
        sqlTimes.computeIfAbsent(query.name(), k -> new ArrayList<>()).add(runSql(store, cube, query, parallelism));
      }
    }
    JsonNode duckdb = runDuckDb(python, directory, cube, repetitions);

    FigureTable table = new FigureTable("query", "rows", "KartothekSource s", "SQL s", "DuckDB s", "source vs DuckDB",
        "SQL vs DuckDB");
    for (QueryClass query : QUERIES) {
      JsonNode peer = duckdb.get(query.name());
      long rows = sourceRows.get(query.name());
      if (rows != peer.get("rows").asLong()) {
        throw new IllegalStateException(query.name() + ": the source emitted " + rows + " rows, DuckDB found "
            + peer.get("rows").asLong());
      }
      double source = median(sourceTimes.get(query.name()));
      double sql = median(sqlTimes.get(query.name()));
      double duck = peer.get("median_seconds").asDouble();
      table.row(query.name(), String.format(Locale.ROOT, "%,d", rows), secs(source), secs(sql), secs(duck),
          ratio(source / duck), ratio(sql / duck));
    }
    table.print(System.out, "Streamed cube " + cube + " through Flink (parallelism " + parallelism + ", source of "
        + (boxedRows ? "Row" : "RowData, object reuse") + "), medians of " + repetitions
        + "; DuckDB in process on the published views' files");
    System.out.printf(Locale.ROOT, "load average after: %.1f%n", loadAverage());
  }

  /**
   * Rows and net job seconds of the query through {@link KartothekSource}: its {@code RowData} with
   * object reuse (Flink then does not copy a record to the chained sink), or with {@code rows} its
   * {@code Row}s as a job has them by default.
   */
  private static double[] runSource(String store, String cube, QueryClass query, int parallelism, boolean rows)
      throws Exception {
    ROWS.reset();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism);
    CubeQuery.Builder cubeQuery = CubeQuery.builder();
    if (query.where() != null) {
      cubeQuery.where(query.where());
    }
    KartothekSource.Builder source = KartothekSource.builder(store, cube).query(cubeQuery.build());
    if (rows) {
      env.fromSource(source.build(), WatermarkStrategy.noWatermarks(), "cube query").sinkTo(new CountingSink<>());
    } else {
      env.getConfig().enableObjectReuse();
      env.fromSource(source.buildRowData(), WatermarkStrategy.noWatermarks(), "cube query")
          .sinkTo(new CountingSink<>());
    }
    double seconds = env.execute("streamed cube: " + query.name()).getNetRuntime() / 1e3;
    return new double[] {ROWS.sum(), seconds};
  }

  /** Net job seconds of {@code INSERT INTO} a blackhole table {@code SELECT *} from the cube's catalog table. */
  private static double runSql(String store, String cube, QueryClass query, int parallelism) throws Exception {
    TableEnvironment tables = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    tables.getConfig().set("parallelism.default", Integer.toString(parallelism));
    tables.executeSql("CREATE CATALOG ktk WITH ('type' = 'kartothek', 'store' = '" + store + "')");
    tables.executeSql("CREATE TEMPORARY TABLE answer WITH ('connector' = 'blackhole') LIKE ktk.`default`." + cube
        + " (EXCLUDING ALL)");
    TableResult result = tables.executeSql("INSERT INTO answer SELECT * FROM ktk.`default`." + cube
        + (query.sqlWhere() == null ? "" : " WHERE " + query.sqlWhere()));
    return result.getJobClient().orElseThrow().getJobExecutionResult().get().getNetRuntime() / 1e3;
  }

  private static JsonNode runDuckDb(String python, Path directory, String cube, int repetitions)
      throws IOException, InterruptedException {
    Path script = Files.createTempFile("ktk-streamed-duckdb-", ".py");
    try (InputStream in = StreamedFlinkBenchmark.class.getResourceAsStream("streamed_duckdb.py")) {
      Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
    }
    try {
      Process process = new ProcessBuilder(python, script.toString(), directory.toString(), cube,
          Integer.toString(repetitions)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int exit = process.waitFor();
      if (exit != 0) {
        throw new IllegalStateException("Cannot run the DuckDB queries with " + python + ": exit " + exit);
      }
      return new ObjectMapper().readTree(out);
    } finally {
      Files.deleteIfExists(script);
    }
  }

  /**
   * Counts the rows (the local cluster runs in this JVM): each writer counts its own and adds them
   * up once, so that the writers do not contend for one counter on every row.
   */
  private static final class CountingSink<T> implements Sink<T> {
    private static final long serialVersionUID = 1L;

    @Override
    public SinkWriter<T> createWriter(WriterInitContext context) {
      return new SinkWriter<>() {
        private long rows;

        @Override
        public void write(T row, Context context) {
          rows++;
        }

        @Override
        public void flush(boolean endOfInput) {
          ROWS.add(rows);
          rows = 0;
        }

        @Override
        public void close() {
          ROWS.add(rows);
          rows = 0;
        }
      };
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static String secs(double s) {
    return String.format(Locale.ROOT, "%.2f", s);
  }

  private static String ratio(double r) {
    return String.format(Locale.ROOT, "%.2fx", r);
  }
}
