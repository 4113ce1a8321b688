package io.ktk.flink.cli;

import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.vector.DoubleVector;
import io.ktk.flink.state.vector.LongType;
import io.ktk.flink.state.vector.LongVector;
import io.ktk.flink.state.vector.ObjectVector;
import io.ktk.flink.state.vector.TypedVector;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Output formatting side by side: the same rows {@code (v DOUBLE, w DOUBLE, ts TIMESTAMP(6),
 * s STRING)} written as CSV and as JSON lines by {@code ktk}'s writers in this process and by
 * DuckDB's {@code COPY t TO '...'} from a table in its memory (loaded from a Parquet file of the
 * same rows before the clock starts), on one thread and on all cores. Each side writes a file;
 * the time is from the first row to the file closed. Our writers are timed from column vectors
 * (what {@code ktk query} does), from typed rows boxed one by one (what {@code ktk read} does) and,
 * for CSV, with the formatting before {@link TextBuffer} ({@link ValueFormatBefore}).
 *
 * <p>Run: {@code bench/output [--rows N] [--repetitions N]} (5,000,000 rows, 3 repetitions; the
 * median is reported).
 */
public final class OutputBenchmark {
  private static final List<Field> FIELDS = List.of(
      new Field("v", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
      new Field("w", FieldType.nullable(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), null),
      new Field("ts", FieldType.nullable(new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)), null),
      new Field("s", FieldType.nullable(ArrowType.Utf8.INSTANCE), null));
  private static final long START_MICROS = 1_704_067_200_000_000L; // 2024-01-01

  private static final String DUCKDB = String.join("\n",
      "import duckdb, json, os, statistics, sys, time",
      "parquet, work, repetitions = sys.argv[1], sys.argv[2], int(sys.argv[3])",
      "con = duckdb.connect()",
      "con.execute(f\"create table t as select * from read_parquet('{parquet}')\")",
      "result = {}",
      "for threads in (1, os.cpu_count()):",
      "    con.execute(f'set threads = {threads}')",
      "    for name, options in (('csv', '(header)'), ('jsonl', '(format json)')):",
      "        path = os.path.join(work, 'duckdb.' + name)",
      "        times = []",
      "        for _ in range(repetitions):",
      "            start = time.perf_counter()",
      "            con.execute(f\"copy t to '{path}' {options}\")",
      "            times.append(time.perf_counter() - start)",
      "        with open(path, 'rb') as f:",
      "            lines = sum(1 for _ in f)",
      "        result[f'{name} {threads}'] = [statistics.median(times), lines]",
      "        os.remove(path)",
      "print(json.dumps(result))");

  private OutputBenchmark() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    int rows = Integer.parseInt(options.getOrDefault("rows", "5000000").replace("_", ""));
    int repetitions = Integer.parseInt(options.getOrDefault("repetitions", "3"));
    String python = options.getOrDefault("python", System.getenv().getOrDefault("KTK_PYTHON", ".venv/bin/python"));
    Path work = Files.createDirectories(Path.of(options.getOrDefault("work", "target/bench-data/output")));
    System.err.printf(Locale.ROOT, "output benchmark: %,d rows, %d repetitions, load average %s%n", rows,
        repetitions, loadAverage());

    TypedVector[] columns = generate(rows);
    Path parquet = work.resolve("rows.parquet");
    writeParquet(columns, work, parquet.getFileName().toString());

    Map<String, double[]> ours = new java.util.LinkedHashMap<>();
    Path file = work.resolve("ktk.out");
    for (int r = 0; r < repetitions; r++) {
      time(ours, "ktk CSV, from column vectors (ktk query)", repetitions, r, () -> {
        try (PrintWriter out = output(file)) {
          RowWriter writer = RowWriter.of(RowWriter.OutputFormat.CSV, out, FIELDS);
          for (int row = 0; row < rows; row++) {
            writer.write(columns, row);
          }
          writer.flush();
        }
      });
      time(ours, "ktk CSV, from typed rows (ktk read)", repetitions, r, () -> {
        try (PrintWriter out = output(file)) {
          RowWriter writer = RowWriter.of(RowWriter.OutputFormat.CSV, out, FIELDS);
          for (int row = 0; row < rows; row++) {
            writer.write(typedRow(columns, row));
          }
          writer.flush();
        }
      });
      time(ours, "ktk JSON lines, from column vectors", repetitions, r, () -> {
        try (PrintWriter out = output(file)) {
          RowWriter writer = RowWriter.of(RowWriter.OutputFormat.JSONL, out, FIELDS);
          for (int row = 0; row < rows; row++) {
            writer.write(columns, row);
          }
          writer.flush();
        }
      });
    }
    // once: it is slow
    time(ours, "ktk CSV before (strings per value), from typed rows", 1, 0, () -> {
      try (PrintWriter out = output(file)) {
        StringBuilder line = new StringBuilder();
        for (int row = 0; row < rows; row++) {
          Object[] values = typedRow(columns, row);
          for (int c = 0; c < values.length; c++) {
            if (c > 0) {
              line.append(',');
            }
            if (values[c] != null) {
              line.append(ValueFormatBefore.csvField(FIELDS.get(c), values[c]));
            }
          }
          line.append("\r\n");
          out.append(line);
          line.setLength(0);
        }
      }
    });
    Files.deleteIfExists(file);

    String duckOut = run(List.of(python, "-c", DUCKDB, parquet.toString(), work.toString(),
        Integer.toString(repetitions)));
    Map<String, double[]> duck = parseDuck(duckOut);
    double duckCsv1 = duck.get("csv 1")[0];
    double duckCsvAll = duck.get("csv " + Runtime.getRuntime().availableProcessors())[0];
    double duckJson1 = duck.get("jsonl 1")[0];
    for (Map.Entry<String, double[]> entry : duck.entrySet()) {
      if (entry.getValue()[1] != rows + (entry.getKey().startsWith("csv") ? 1 : 0)) {
        throw new IllegalStateException("DuckDB wrote " + entry.getValue()[1] + " lines for " + entry.getKey());
      }
    }

    System.out.printf(Locale.ROOT, "%nOutput formatting: %,d rows (v DOUBLE, w DOUBLE, ts TIMESTAMP(6), s STRING), "
        + "median of %d, load average now %s%n", rows, repetitions, loadAverage());
    System.out.printf(Locale.ROOT, "%-54s %8s %8s %12s %16s %16s %18s%n", "variant", "threads", "s", "rows/s",
        "vs DuckDB CSV 1t", "vs DuckDB CSV all", "vs DuckDB same 1t");
    for (Map.Entry<String, double[]> entry : ours.entrySet()) {
      double seconds = median(entry.getValue());
      row(entry.getKey(), 1, seconds, rows, duckCsv1, duckCsvAll, entry.getKey().contains("JSON") ? duckJson1 : duckCsv1);
    }
    for (Map.Entry<String, double[]> entry : duck.entrySet()) {
      String[] parts = entry.getKey().split(" ");
      boolean json = parts[0].equals("jsonl");
      row("DuckDB COPY TO " + (json ? "JSON lines" : "CSV"), Integer.parseInt(parts[1]), entry.getValue()[0], rows,
          duckCsv1, duckCsvAll, json ? duckJson1 : duckCsv1);
    }
    System.out.println("(vs: our time over DuckDB's; below 1.00x is faster. The target compares with DuckDB's CSV writer.)");
  }

  private static void row(String name, int threads, double seconds, int rows, double duckCsvOne, double duckCsvAll,
      double duckSameOne) {
    System.out.printf(Locale.ROOT, "%-54s %8d %8.3f %,12.0f %15.2fx %15.2fx %17.2fx%n", name, threads, seconds,
        rows / seconds, seconds / duckCsvOne, seconds / duckCsvAll, seconds / duckSameOne);
  }

  /** Doubles of 15 to 17 digits as sensors and random() give, one timestamp a second-ish, 100 strings. */
  static TypedVector[] generate(int rows) {
    Random random = new Random(20261125L);
    DoubleVector v = new DoubleVector(rows);
    DoubleVector w = new DoubleVector(rows);
    LongVector ts = new LongVector(LongType.timestamp(1_000, false), rows);
    ObjectVector s = new ObjectVector(rows);
    String[] sensors = new String[100];
    for (int i = 0; i < sensors.length; i++) {
      sensors[i] = "sensor-" + i;
    }
    for (int row = 0; row < rows; row++) {
      v.append(random.nextDouble() * 1000 - 500);
      w.append(random.nextInt(1_000_000) / 7.0);
      ts.append(START_MICROS + (long) (random.nextDouble() * 3e13));
      s.append(sensors[row % sensors.length]);
    }
    return new TypedVector[] {v, w, ts, s};
  }

  private static Object[] typedRow(TypedVector[] columns, int row) {
    Object[] values = new Object[columns.length];
    for (int c = 0; c < values.length; c++) {
      values[c] = columns[c].get(row);
    }
    return values;
  }

  private static void writeParquet(TypedVector[] columns, Path dir, String name) throws IOException {
    try (LocalObjectStore store = new LocalObjectStore(dir);
        ParquetRowsWriter writer = ParquetRowsWriter.create(store, name, new Schema(FIELDS), Map.of(),
            ParquetWriteOptions.defaults())) {
      for (int row = 0; row < columns[0].size(); row++) {
        writer.write(Arrays.asList(typedRow(columns, row)));
      }
    }
  }

  /** As {@code Ktk.main} writes standard output: UTF-8 through a 64 KiB buffer. */
  private static PrintWriter output(Path file) throws IOException {
    Writer writer = new OutputStreamWriter(Files.newOutputStream(file), StandardCharsets.UTF_8);
    return new PrintWriter(new BufferedWriter(writer, 1 << 16));
  }

  @FunctionalInterface
  private interface Timed {
    void run() throws IOException;
  }

  private static void time(Map<String, double[]> times, String name, int repetitions, int repetition, Timed timed)
      throws IOException {
    long start = System.nanoTime();
    timed.run();
    times.computeIfAbsent(name, n -> new double[repetitions])[repetition] = (System.nanoTime() - start) / 1e9;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static Map<String, double[]> parseDuck(String json) throws IOException {
    var tree = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
    Map<String, double[]> result = new java.util.LinkedHashMap<>();
    tree.fields().forEachRemaining(e -> result.put(e.getKey(),
        new double[] {e.getValue().get(0).asDouble(), e.getValue().get(1).asDouble()}));
    return result;
  }

  private static String run(List<String> command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (process.waitFor() != 0) {
      throw new IllegalStateException("DuckDB's side failed: " + command.get(0));
    }
    return out.lines().reduce((a, b) -> b).orElse("");
  }

  private static String loadAverage() {
    try {
      String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return parts[0] + " " + parts[1] + " " + parts[2];
    } catch (IOException e) {
      return "unknown";
    }
  }
}
