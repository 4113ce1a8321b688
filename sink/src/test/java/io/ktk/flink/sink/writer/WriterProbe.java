package io.ktk.flink.sink.writer;

import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.sink.KartothekSinkConfig;
import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;

/** Temporary probe: the writer's cost per row without Flink, the bench rows. */
public class WriterProbe {
  static final long SEED = 20240611L;
  static final StringData[] P = new StringData[100];
  static final StringData[] W = new StringData[1000];
  static {
    for (int i = 0; i < 100; i++) P[i] = StringData.fromString(String.format("p%02d", i));
    for (int i = 0; i < 1000; i++) W[i] = StringData.fromString("word-" + Long.toString(mix(i) & 0xffffffL, 36) + "-" + i);
  }
  static long mix(long x) {
    long z = x + SEED * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
  static RowData row(long i) {
    long h = mix(i);
    GenericRowData row = new GenericRowData(6);
    row.setField(0, i);
    row.setField(1, P[(int) Long.remainderUnsigned(h, 100)]);
    row.setField(2, Long.remainderUnsigned(h >>> 8, 10_000));
    long h2 = mix(h);
    row.setField(3, Long.remainderUnsigned(h2, 10) == 0 ? null : (h2 >>> 11) * 0x1.0p-53 * 1000.0);
    long h3 = mix(h2);
    row.setField(4, Long.remainderUnsigned(h3, 5) == 0 ? null : W[(int) Long.remainderUnsigned(h3 >>> 8, 1000)]);
    long start = 1_704_067_200_000_000L;
    row.setField(5, TimestampData.fromEpochMillis((start + i) / 1000, (int) ((start + i) % 1000) * 1000));
    return row;
  }

  static long cpu() { return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime(); }

  public static void main(String[] args) throws Exception {
    int rows = Integer.parseInt(args[0]);
    int perCheckpoint = Integer.parseInt(args[1]);
    RowType type = RowType.of(new LogicalType[] {new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH),
        new BigIntType(), new DoubleType(), new VarCharType(VarCharType.MAX_LENGTH), new TimestampType(6)},
        new String[] {"id", "p", "c", "v", "s", "ts"});
    Path dir = Files.createTempDirectory("probe");
    for (int round = 0; round < 4; round++) {
      KartothekSinkConfig config = KartothekSink.forRowData(type).store(dir.toUri().toString())
          .dataset("bench" + round).partitionBy("p").build().config();
      LocalObjectStore store = new LocalObjectStore(dir);
      MemoryBudget budget = new MemoryBudget(config.memoryBudgetBytes());
      DatasetWriter writer = new DatasetWriter(config, List.of(), store, budget, false);
      long appendNanos = 0, flushNanos = 0;
      long t = cpu();
      int files = 0;
      for (int i = 0; i < rows; i++) {
        writer.append(row(i));
        if ((i + 1) % perCheckpoint == 0) {
          long a = cpu();
          appendNanos += a - t;
          files += writer.prepareCommit("w", 4096, f -> {}).map(b -> b.files().size()).orElse(0);
          t = cpu();
          flushNanos += t - a;
        }
      }
      System.out.printf("round %d: append %.0f ns/row, files %.0f ns/row, %d files, budget max?%n", round,
          appendNanos / (double) rows, flushNanos / (double) rows, files);
    }
  }
}
