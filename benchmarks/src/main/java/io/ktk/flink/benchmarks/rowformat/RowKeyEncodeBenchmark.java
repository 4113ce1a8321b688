package io.ktk.flink.benchmarks.rowformat;

import io.ktk.flink.state.rowformat.RowBuffer;
import io.ktk.flink.state.rowformat.RowConverter;
import io.ktk.flink.state.rowformat.RowDataEncoder;
import io.ktk.flink.state.rowformat.RowKeyMap;
import io.ktk.flink.state.rowformat.Rows;
import io.ktk.flink.state.rowformat.SortField;
import io.ktk.flink.state.rowformat.VectorRows;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Row key encoding throughput, in rows per second (the primary score, one operation per row) and
 * encoded bytes per second (the {@code encodedBytes} counter), for keys (int64), (string) and
 * (int64, string, date):
 *
 * <ul>
 *   <li>{@code arrowBatch}: a batch of 100,000 rows from Arrow vectors into one {@code Rows};
 *   <li>{@code rowData}: Flink rows one at a time into a reused {@code RowBuffer};
 *   <li>{@code rowDataRoute}: the sink's routing, unordered key of each Flink row then a
 *       {@code RowKeyMap} lookup (its bytes counter counts unordered bytes). The data has 1000
 *       ids and 1000 names, so (int64) and (string) route to 1000 partitions; (int64, string,
 *       date) keys are nearly all distinct and measure inserts as much as lookups.
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g", "--add-opens=java.base/java.nio=ALL-UNNAMED"})
@State(Scope.Benchmark)
public class RowKeyEncodeBenchmark {
  static final int ROWS = 100_000;

  @Param({"int64", "string", "int64_string_date"})
  public String shape;

  private BufferAllocator allocator;
  private BenchKeyColumns data;
  private RowConverter ordered;
  private RowDataEncoder orderedRowData;
  private RowDataEncoder unorderedRowData;
  private List<RowData> rows;
  private final RowBuffer buffer = new RowBuffer();
  private RowKeyMap partitions;

  /** Encoded bytes, reported per second next to the rows per second. */
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  @State(Scope.Thread)
  public static class Bytes {
    public long encodedBytes;

    @Setup(Level.Iteration)
    public void reset() {
      encodedBytes = 0;
    }
  }

  @Setup
  public void setUp() {
    allocator = new RootAllocator();
    data = new BenchKeyColumns(allocator, ROWS, 1000, 42);
    ordered = RowConverter.ordered(
        BenchKeyColumns.fields(shape).stream().map(SortField::ascending).toList());
    RowConverter unordered = RowConverter.unordered(BenchKeyColumns.fields(shape));
    RowType rowType = RowType.of(
        new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH), new DateType());
    int[] positions = switch (shape) {
      case "int64" -> new int[] {0};
      case "string" -> new int[] {1};
      default -> new int[] {0, 1, 2};
    };
    orderedRowData = ordered.rowDataEncoder(rowType, positions);
    unorderedRowData = unordered.rowDataEncoder(rowType, positions);
    rows = data.rowData();
    partitions = new RowKeyMap(1024);
  }

  @TearDown
  public void tearDown() {
    data.close();
    allocator.close();
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public Rows arrowBatch(Bytes bytes) {
    Rows encoded = VectorRows.encode(ordered, data.columns(shape));
    bytes.encodedBytes += encoded.byteSize();
    return encoded;
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long rowData(Bytes bytes) {
    long total = 0;
    for (int i = 0; i < ROWS; i++) {
      orderedRowData.encode(rows.get(i), buffer);
      total += buffer.length();
    }
    bytes.encodedBytes += total;
    return total;
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long rowDataRoute(Bytes bytes) {
    long total = 0;
    long ids = 0;
    for (int i = 0; i < ROWS; i++) {
      unorderedRowData.encode(rows.get(i), buffer);
      total += buffer.length();
      ids += partitions.getOrAdd(buffer);
    }
    if (partitions.size() > 200_000) {
      partitions.clear(); // int64 keys are all distinct: keep the map at a realistic size
    }
    bytes.encodedBytes += total;
    return ids;
  }
}
