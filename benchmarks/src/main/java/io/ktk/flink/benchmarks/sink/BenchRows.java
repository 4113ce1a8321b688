package io.ktk.flink.benchmarks.sink;

import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The rows every sink variant writes, the workload: {@code (id BIGINT, p STRING with 100
 * values, c BIGINT, v DOUBLE with nulls, s STRING with nulls, ts TIMESTAMP(6))}. Row {@code i} is a
 * pure function of {@code i} and the seed, so every variant (and every parallelism) gets the same
 * rows: {@code p} is one of {@code p00 .. p99}, {@code c} one of 10,000 values, {@code v} null in
 * 10% of the rows, {@code s} one of 1,000 words or null in 20%, {@code ts} one microsecond per
 * row from 2024-01-01.
 */
public final class BenchRows {
  public static final long SEED = 20240611L;
  public static final int PARTITIONS = 100;
  private static final long START_MICROS = 1_704_067_200_000_000L;
  private static final StringData[] PARTITION_VALUES = new StringData[PARTITIONS];
  private static final StringData[] WORDS = new StringData[1000];

  static {
    for (int i = 0; i < PARTITIONS; i++) {
      PARTITION_VALUES[i] = StringData.fromString(String.format("p%02d", i));
    }
    for (int i = 0; i < WORDS.length; i++) {
      WORDS[i] = StringData.fromString("word-" + Long.toString(mix(i) & 0xffffffL, 36) + "-" + i);
    }
  }

  private BenchRows() {}

  public static RowType rowType() {
    return RowType.of(
        new org.apache.flink.table.types.logical.LogicalType[] {
          new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH), new BigIntType(), new DoubleType(),
          new VarCharType(VarCharType.MAX_LENGTH), new TimestampType(6)},
        new String[] {"id", "p", "c", "v", "s", "ts"});
  }

  public static List<String> columnNames() {
    return rowType().getFieldNames();
  }

  /** The source of rows {@code 0 .. count - 1}, split over the source's parallelism. */
  public static DataGeneratorSource<RowData> source(long count) {
    TypeInformation<RowData> type = InternalTypeInfo.of(rowType());
    return new DataGeneratorSource<>((GeneratorFunction<Long, RowData>) BenchRows::row, count, type);
  }

  /** Row {@code i}. */
  public static RowData row(Long index) {
    long i = index;
    long h = mix(i);
    GenericRowData row = new GenericRowData(6);
    row.setField(0, i);
    row.setField(1, PARTITION_VALUES[(int) Long.remainderUnsigned(h, PARTITIONS)]);
    row.setField(2, Long.remainderUnsigned(h >>> 8, 10_000));
    long h2 = mix(h);
    row.setField(3, Long.remainderUnsigned(h2, 10) == 0 ? null : (h2 >>> 11) * 0x1.0p-53 * 1000.0);
    long h3 = mix(h2);
    row.setField(4, Long.remainderUnsigned(h3, 5) == 0 ? null : WORDS[(int) Long.remainderUnsigned(h3 >>> 8, 1000)]);
    row.setField(5, TimestampData.fromEpochMillis((START_MICROS + i) / 1000, (int) ((START_MICROS + i) % 1000) * 1000));
    return row;
  }

  /** SplitMix64's finalizer over the seed and {@code x}. */
  static long mix(long x) {
    long z = x + SEED * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
