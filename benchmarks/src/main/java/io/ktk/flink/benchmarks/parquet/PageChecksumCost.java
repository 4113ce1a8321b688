package io.ktk.flink.benchmarks.parquet;

import io.ktk.flink.state.parquet.BytesInputFile;
import io.ktk.flink.state.parquet.BytesOutputFile;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.vector.TypedVector;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * What checking page CRCs costs a reader, side by side: one file of the sink benchmark's shape
 * ({@code id, c BIGINT, v DOUBLE} with 10% nulls, {@code s STRING} with 20% nulls, {@code ts
 * TIMESTAMP(6)}; 1,000,000 rows unless given) written by {@link ParquetRowsWriter} with a CRC on
 * every page and held in memory (no I/O, so the check's share is as large as it gets), read whole
 * with and without verification, in two ways:
 *
 * <ul>
 *   <li>{@code vectors}: {@link ParquetRowsReader#readColumns}, the decoding of the source and
 *       {@code ktk query} (the fastest path, so the one where the check weighs most);
 *   <li>{@code rows}: {@link ParquetRowsReader#rows}, record assembly into Java values ({@code ktk read}).
 * </ul>
 *
 * <p>Each round reads the file verified and unverified, alternating which goes first, and
 * measures the CPU time of this thread for each (wall time on a shared machine says more about
 * the neighbours than about the code). The report is the median CPU time of each and the median
 * of the rounds' ratios, so that a slow phase of the machine affects both sides of a ratio alike;
 * and, as a bound that load hardly blurs, the CPU time of one CRC-32 over the whole file.
 *
 * <p>Run: {@code bench/page-checksums [rows] [rounds]}.
 */
public final class PageChecksumCost {
  private static final List<String> COLUMNS = List.of("id", "c", "v", "s", "ts");
  private static final LocalDateTime T0 = LocalDateTime.of(2024, 1, 1, 0, 0);
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static long sink;

  private PageChecksumCost() {}

  public static void main(String[] args) throws IOException {
    int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 25;
    System.out.printf("%-22s %-8s %12s %14s %8s %10s%n", "codec", "path", "verified ms", "unverified ms", "ratio",
        "CRC alone");
    for (CompressionCodecName codec : List.of(CompressionCodecName.SNAPPY, CompressionCodecName.UNCOMPRESSED)) {
      byte[] file = write(rows, codec);
      for (String path : List.of("vectors", "rows")) {
        compare(codec + " (" + file.length / (1 << 20) + " MiB)", path, file, rounds);
      }
    }
    if (sink == 42) {
      System.out.println(); // keeps the reads from being optimized away
    }
  }

  private static void compare(String codec, String path, byte[] file, int rounds) throws IOException {
    for (int i = 0; i < 5; i++) {
      read(path, file, true);
      read(path, file, false);
    }
    List<Long> verified = new ArrayList<>();
    List<Long> unverified = new ArrayList<>();
    List<Double> ratios = new ArrayList<>();
    List<Long> crcAlone = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      crcAlone.add(crcNanos(file));
      long a;
      long b;
      if (round % 2 == 0) {
        a = cpuNanos(path, file, true);
        b = cpuNanos(path, file, false);
      } else {
        b = cpuNanos(path, file, false);
        a = cpuNanos(path, file, true);
      }
      verified.add(a);
      unverified.add(b);
      ratios.add((double) a / b);
    }
    System.out.printf("%-22s %-8s %12.1f %14.1f %8.3f %7.1f ms%n", codec, path, median(verified) / 1e6,
        median(unverified) / 1e6, medianOf(ratios), median(crcAlone) / 1e6);
  }

  /** CPU time of one CRC-32 over as many bytes as the file has: what the check adds at most. */
  private static long crcNanos(byte[] file) {
    long start = THREADS.getCurrentThreadCpuTime();
    CRC32 crc = new CRC32();
    crc.update(file, 0, file.length);
    sink += crc.getValue();
    return THREADS.getCurrentThreadCpuTime() - start;
  }

  private static long cpuNanos(String path, byte[] file, boolean verify) throws IOException {
    long start = THREADS.getCurrentThreadCpuTime();
    read(path, file, verify);
    return THREADS.getCurrentThreadCpuTime() - start;
  }

  private static void read(String path, byte[] file, boolean verify) throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(new BytesInputFile("bench.parquet", file), verify)) {
      if (path.equals("vectors")) {
        for (int group = 0; group < reader.rowGroups().size(); group++) {
          for (TypedVector vector : reader.readColumns(group, COLUMNS)) {
            sink += vector.size();
          }
        }
      } else {
        Iterator<List<Object>> rows = reader.rows(COLUMNS);
        while (rows.hasNext()) {
          sink += rows.next().hashCode();
        }
      }
    }
  }

  private static byte[] write(int rows, CompressionCodecName codec) throws IOException {
    Schema schema = new Schema(List.of(
        Field.nullable("id", new ArrowType.Int(64, true)),
        Field.nullable("c", new ArrowType.Int(64, true)),
        Field.nullable("v", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
        Field.nullable("s", ArrowType.Utf8.INSTANCE),
        Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))));
    BytesOutputFile out = new BytesOutputFile("bench.parquet");
    SplittableRandom random = new SplittableRandom(42);
    try (ParquetRowsWriter writer =
        ParquetRowsWriter.create(out, schema, Map.of(), ParquetWriteOptions.defaults().withCompression(codec))) {
      for (long i = 0; i < rows; i++) {
        writer.write(Arrays.asList(i, random.nextLong(1000), random.nextInt(10) == 0 ? null : random.nextDouble(),
            random.nextInt(5) == 0 ? null : "s" + random.nextInt(10_000), T0.plusNanos(i * 1000L * random.nextInt(1000))));
      }
    }
    return out.toByteArray();
  }

  private static double median(List<Long> values) {
    List<Long> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
  }

  private static double medianOf(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
  }
}
