package io.ktk.flink.benchmarks.rowformat;

import io.ktk.flink.state.rowformat.RowConverter;
import io.ktk.flink.state.rowformat.Rows;
import io.ktk.flink.state.rowformat.SortField;
import io.ktk.flink.state.rowformat.VectorRows;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.VarCharVector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Sorting 10 million rows by (id int64, name utf8, day date32), all ascending, from Arrow
 * vectors, three ways on the same data in the same run:
 *
 * <ul>
 *   <li>{@code rowKeys}: encode the three columns into row keys, then {@code sortedIndices()} (a
 *       radix sort of an int[] of row numbers over 8-byte key words);
 *   <li>{@code rowKeysTimSort}: the same keys, sorted as boxed row numbers with
 *       {@code Arrays.sort(Integer[], (a, b) -> rows.compare(a, b))};
 *   <li>{@code columnComparator}: boxed row numbers with a column-wise comparator that reads the
 *       Arrow vectors (int64, then the UTF-8 bytes, then the day) — the sort without row keys.
 * </ul>
 *
 * Each measures one whole sort (encoding included where it applies); the ratio of
 * {@code columnComparator} to {@code rowKeys} is the speed-up of row keys.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xmx6g", "--add-opens=java.base/java.nio=ALL-UNNAMED"})
@State(Scope.Benchmark)
public class RowKeySortBenchmark {
  @Param({"10000000"})
  public int rows;

  private BufferAllocator allocator;
  private BenchKeyColumns data;
  private RowConverter converter;

  @Setup
  public void setUp() {
    allocator = new RootAllocator();
    data = new BenchKeyColumns(allocator, rows, 100, 7);
    converter = RowConverter.ordered(
        BenchKeyColumns.fields("int64_string_date").stream().map(SortField::ascending).toList());
  }

  @TearDown
  public void tearDown() {
    data.close();
    allocator.close();
  }

  @Benchmark
  public int[] rowKeys() {
    Rows keys = VectorRows.encode(converter, data.columns("int64_string_date"));
    return keys.sortedIndices();
  }

  @Benchmark
  public Integer[] rowKeysTimSort() {
    Rows keys = VectorRows.encode(converter, data.columns("int64_string_date"));
    Integer[] order = identity(rows);
    Arrays.sort(order, keys::compare);
    return order;
  }

  @Benchmark
  public Integer[] columnComparator() {
    Integer[] order = identity(rows);
    Arrays.sort(order, columnWise(data.ids, data.names, data.days));
    return order;
  }

  static Comparator<Integer> columnWise(BigIntVector ids, VarCharVector names, DateDayVector days) {
    ArrowBuf nameOffsets = names.getOffsetBuffer();
    ArrowBuf nameBytes = names.getDataBuffer();
    return (a, b) -> {
      int c = Long.compare(ids.get(a), ids.get(b));
      if (c != 0) {
        return c;
      }
      c = ByteFunctionHelpers.compare(
          nameBytes, nameOffsets.getInt(a * 4L), nameOffsets.getInt(a * 4L + 4),
          nameBytes, nameOffsets.getInt(b * 4L), nameOffsets.getInt(b * 4L + 4));
      if (c != 0) {
        return c;
      }
      return Integer.compare(days.get(a), days.get(b));
    };
  }

  private static Integer[] identity(int n) {
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    return order;
  }

  /** Checks once that the three sorts agree, so that the figures compare equal work. */
  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    try (BufferAllocator allocator = new RootAllocator()) {
      BenchKeyColumns data = new BenchKeyColumns(allocator, n, 100, 7);
      RowConverter converter = RowConverter.ordered(
          BenchKeyColumns.fields("int64_string_date").stream().map(SortField::ascending).toList());
      Rows keys = VectorRows.encode(converter, data.columns("int64_string_date"));
      long start = System.nanoTime();
      int[] radix = keys.sortedIndices();
      long radixNanos = System.nanoTime() - start;
      Integer[] columns = identity(n);
      start = System.nanoTime();
      Arrays.sort(columns, columnWise(data.ids, data.names, data.days));
      long columnNanos = System.nanoTime() - start;
      for (int i = 0; i < n; i++) {
        if (radix[i] != columns[i]) {
          throw new IllegalStateException("The sorts disagree at position " + i);
        }
      }
      System.out.printf("%d rows, %d key bytes: row keys sorted in %d ms (encoded before),"
          + " column comparator in %d ms; same order%n", n, keys.byteSize(),
          radixNanos / 1_000_000, columnNanos / 1_000_000);
      data.close();
    }
  }
}
