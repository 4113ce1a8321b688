package io.ktk.flink.source.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.vector.LongType;
import io.ktk.flink.state.vector.LongVector;
import io.ktk.flink.state.vector.ObjectVector;
import io.ktk.flink.state.vector.TypedVector;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Packed keys compare exactly like the keys' columns ({@link CellKeys#compare}, the reference),
 * across datasets: a composite key of a string and a timestamp (nullable, read in two units by
 * two datasets) and a key of the string alone, packed with one packing.
 */
class KeyPackingTest {
  private static final List<KeyKind> SEED_KINDS = List.of(KeyKind.RANKED, KeyKind.TIMESTAMP);

  @Test
  void packedKeysOrderLikeTheirColumnsAcrossDatasets() {
    Random random = new Random(11);
    KeyRanks ranks = new KeyRanks();
    int rows = 3000;
    ObjectVector sensors = new ObjectVector(rows);
    ObjectVector otherSensors = new ObjectVector(rows);
    LongVector micros = new LongVector(LongType.timestamp(1000, false), rows);
    ObjectVector millis = new ObjectVector(rows);
    for (int i = 0; i < rows; i++) {
      sensors.append("sensor-" + random.nextInt(40));
      otherSensors.append("sensor-" + random.nextInt(60));
      if (random.nextInt(20) == 0) {
        micros.appendNull();
      } else {
        micros.append(1_700_000_000_000_000L + random.nextInt(5_000_000));
      }
      millis.append(random.nextInt(20) == 0 ? null
          : LocalDateTime.of(2023, 11, 14, 22, 13, 20).plusNanos(random.nextInt(5000) * 1_000_000L));
    }
    CellKeys seed = encode(List.of(sensors, micros), ranks, rows);
    CellKeys other = encode(List.of(otherSensors, millis), ranks, rows);
    CellKeys bySensor = CellKeys.encode(List.of(KeyKind.RANKED), List.of(otherSensors), rows,
        new KeyRanks[] {ranks});
    seed.resolveRanks(SEED_KINDS, new KeyRanks[] {ranks, null});
    other.resolveRanks(SEED_KINDS, new KeyRanks[] {ranks, null});
    bySensor.resolveRanks(List.of(KeyKind.RANKED), new KeyRanks[] {ranks});

    KeyPacking packing = KeyPacking.of(List.of(List.of("sensor", "ts"), List.of("sensor", "ts"), List.of("sensor")),
        List.of(seed, other, bySensor));
    assertThat(packing).isNotNull();
    long[] seedPacked = packing.pack(seed, List.of("sensor", "ts"));
    long[] otherPacked = packing.pack(other, List.of("sensor", "ts"));
    long[] seedSensors = packing.pack(seed.select(new int[] {0}), List.of("sensor"));
    long[] otherSensorsPacked = packing.pack(bySensor, List.of("sensor"));
    for (int i = 0; i < 20000; i++) {
      int x = random.nextInt(rows);
      int y = i % 7 == 0 ? x : random.nextInt(rows);
      assertThat(Long.signum(Long.compare(seedPacked[x], otherPacked[y])))
          .isEqualTo(Integer.signum(seed.compare(x, other, y)));
      assertThat(Long.signum(Long.compare(seedPacked[x], seedPacked[y])))
          .isEqualTo(Integer.signum(seed.compare(x, seed, y)));
      assertThat(Long.signum(Long.compare(seedSensors[x], otherSensorsPacked[y])))
          .isEqualTo(Integer.signum(seed.select(new int[] {0}).compare(x, bySensor, y)));
    }
  }

  @Test
  void microsecondTimestampsPackTheirNanosecondsDividedByAThousand() {
    Random random = new Random(5);
    int rows = 2000;
    LongVector micros = new LongVector(LongType.timestamp(1000, false), rows);
    LongVector ids = new LongVector(LongType.INTEGER, rows);
    for (int i = 0; i < rows; i++) {
      micros.append(1_700_000_000_000_000L + random.nextInt(10_000_000)); // within 10 seconds
      ids.append(random.nextLong() & ((1L << 36) - 1));
    }
    CellKeys keys = CellKeys.encode(List.of(KeyKind.TIMESTAMP, KeyKind.LONG), List.of(micros, ids), rows,
        new KeyRanks[2]);
    KeyPacking packing = KeyPacking.of(List.of(List.of("ts", "id")), List.of(keys));

    // seconds (4 bits) and microseconds of the second (20 bits; 30 as nanoseconds) leave room for the id's 36
    assertThat(packing).isNotNull();
    long[] packed = packing.pack(keys, List.of("ts", "id"));
    for (int i = 0; i < 5000; i++) {
      int x = random.nextInt(rows);
      int y = random.nextInt(rows);
      assertThat(Long.signum(Long.compare(packed[x], packed[y]))).isEqualTo(Integer.signum(keys.compare(x, keys, y)));
    }
  }

  @Test
  void keysWiderThan63BitsAreNotPacked() {
    LongVector wide = new LongVector(LongType.INTEGER, 2);
    wide.append(Long.MIN_VALUE);
    wide.append(Long.MAX_VALUE);
    LongVector narrow = new LongVector(LongType.INTEGER, 2);
    narrow.append(0);
    narrow.append(1);
    CellKeys keys = CellKeys.encode(List.of(KeyKind.LONG, KeyKind.LONG), List.of(narrow, wide), 2,
        new KeyRanks[2]);

    assertThat(KeyPacking.of(List.of(List.of("a", "b")), List.of(keys))).isNull();
  }

  private static CellKeys encode(List<TypedVector> vectors, KeyRanks ranks, int rows) {
    return CellKeys.encode(SEED_KINDS, vectors, rows, new KeyRanks[] {ranks, null});
  }
}
