package io.ktk.flink.benchmarks.cdc;

import java.io.Serializable;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;

/**
 * The changelog every engine writes, like a database's CDC stream of a table {@code (k BIGINT, p
 * STRING, v BIGINT, x DOUBLE, s STRING)} with the primary key {@code (k, p)}, partitioned by
 * {@code p}: first {@code +I} of keys {@code 0 .. keys - 1}, then {@code rounds} rounds, each
 * touching a tenth of the keys (a different pseudo-random tenth per round, each key at most once
 * per round) with {@code +U}, or {@code -D} for {@code deletePercent} percent of them. A key
 * deleted in one round and touched by a later one comes back ({@code +U} of a missing key
 * inserts it, as in upsert mode). Event {@code i} is a pure function of {@code i} and the sizes,
 * so every engine gets the same events in the same order; a key's partition never changes.
 */
public final class Changelog implements Serializable {
  private static final long serialVersionUID = 1L;
  private static final long SEED = 0x5EEDCDCL;
  /** A prime larger than any key count used here, so {@code j -> (A * j + b) mod keys} is a bijection. */
  private static final long MULTIPLIER = 1_000_000_007L;

  private final long keys;
  private final int partitions;
  private final int rounds;
  private final int deletePercent;
  private final long perRound;

  public Changelog(long keys, int partitions, int rounds, int deletePercent) {
    if (keys <= 0 || keys >= MULTIPLIER || partitions <= 0 || rounds < 0 || deletePercent < 0 || deletePercent > 100) {
      throw new IllegalArgumentException("Cannot generate a changelog of " + keys + " keys in " + partitions
          + " partitions, " + rounds + " rounds with " + deletePercent + "% deletes: keys must be in [1, "
          + MULTIPLIER + "), partitions >= 1, rounds >= 0, deletes in [0, 100]");
    }
    this.keys = keys;
    this.partitions = partitions;
    this.rounds = rounds;
    this.deletePercent = deletePercent;
    this.perRound = Math.max(1, keys / 10);
  }

  public long keys() {
    return keys;
  }

  public int partitions() {
    return partitions;
  }

  public int rounds() {
    return rounds;
  }

  public int deletePercent() {
    return deletePercent;
  }

  /** Events in all: the inserts and every round's changes. */
  public long events() {
    return keys + rounds * perRound;
  }

  public static RowType rowType() {
    return RowType.of(
        new LogicalType[] {new BigIntType(false), new VarCharType(false, VarCharType.MAX_LENGTH), new BigIntType(),
          new DoubleType(), new VarCharType(VarCharType.MAX_LENGTH)},
        new String[] {"k", "p", "v", "x", "s"});
  }

  /** A source of all events in order; run it at parallelism 1 so that a key's changes keep their order. */
  public DataGeneratorSource<RowData> source() {
    TypeInformation<RowData> type = InternalTypeInfo.of(rowType());
    return new DataGeneratorSource<>((GeneratorFunction<Long, RowData>) this::event, events(), type);
  }

  /** Event {@code i} (0-based). */
  public RowData event(Long index) {
    long i = index;
    if (i < keys) {
      return row(RowKind.INSERT, i, 0);
    }
    long j = i - keys;
    int round = (int) (j / perRound) + 1;
    long key = keyOf(round, j % perRound);
    return row(isDelete(key, round) ? RowKind.DELETE : RowKind.UPDATE_AFTER, key, round);
  }

  /** The {@code j}-th key of {@code round}. */
  long keyOf(int round, long j) {
    long offset = Long.remainderUnsigned(mix(round * 0x9E3779B97F4A7C15L), keys);
    // gcd(MULTIPLIER mod keys, keys) = gcd(MULTIPLIER, keys) = 1; both factors < keys < 2^30
    return ((MULTIPLIER % keys) * j % keys + offset) % keys;
  }

  boolean isDelete(long key, int round) {
    return Long.remainderUnsigned(mix(key * 31 + round + 17), 100) < deletePercent;
  }

  String partition(long key) {
    return "p" + Long.remainderUnsigned(mix(key), partitions);
  }

  /** The value column {@code v} of {@code key} as written by {@code round} (0: the insert). */
  static long value(long key, int round) {
    return Long.remainderUnsigned(mix(key * 64 + round), 1_000_000);
  }

  private RowData row(RowKind kind, long key, int round) {
    GenericRowData row = new GenericRowData(kind, 5);
    row.setField(0, key);
    row.setField(1, StringData.fromString(partition(key)));
    long v = value(key, round);
    row.setField(2, v);
    row.setField(3, v / 7.0);
    row.setField(4, StringData.fromString("row-" + key + "-round-" + round));
    return row;
  }

  /** The checksum of one live row: count 1, its {@code v}, and a hash tying {@code v} to its key. */
  public static long rowHash(long key, long v) {
    return mix(key * 0x100000001B3L ^ v);
  }

  /** The table's state after every event, folded in order: what every engine must read back. */
  public Checksum reference() {
    boolean[] live = new boolean[Math.toIntExact(keys)];
    int[] lastRound = new int[live.length];
    for (long k = 0; k < keys; k++) {
      live[(int) k] = true;
    }
    for (int round = 1; round <= rounds; round++) {
      for (long j = 0; j < perRound; j++) {
        long key = keyOf(round, j);
        boolean delete = isDelete(key, round);
        live[(int) key] = !delete;
        lastRound[(int) key] = round;
      }
    }
    long rows = 0;
    long sum = 0;
    long hash = 0;
    for (int k = 0; k < live.length; k++) {
      if (live[k]) {
        long v = value(k, lastRound[k]);
        rows++;
        sum += v;
        hash += rowHash(k, v);
      }
    }
    return new Checksum(rows, sum, hash);
  }

  /** Row count, sum of {@code v} and the sum of {@link #rowHash}es of a table state. */
  public record Checksum(long rows, long sumV, long hash) {}

  /** SplitMix64's finalizer over the seed and {@code x}. */
  static long mix(long x) {
    long z = x + SEED * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
