package io.ktk.flink.source.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.vector.LongType;
import io.ktk.flink.state.vector.LongVector;
import io.ktk.flink.state.vector.ObjectVector;
import org.junit.jupiter.api.Test;

/** The semi-join filter a restricted dataset's passing rows give: exact values, units, nulls, kinds. */
class KeyFilterTest {
  private static LongVector longs(LongType type, Long... values) {
    LongVector vector = new LongVector(type, values.length);
    for (Long value : values) {
      if (value == null) {
        vector.appendNull();
      } else {
        vector.append(value);
      }
    }
    return vector;
  }

  private static boolean[] apply(KeyFilter filter, LongVector other) {
    boolean[] passes = new boolean[other.size()];
    java.util.Arrays.fill(passes, true);
    filter.apply(other, other.size(), passes);
    return passes;
  }

  @Test
  void onlyPassingRowsValuesPassAndTimestampsCompareAcrossUnits() {
    // restricted rows in microseconds: 1 s, 2 s (failing), 3 s
    LongVector micros = longs(LongType.timestamp(1_000L, false), 1_000_000L, 2_000_000L, 3_000_000L);
    KeyFilter filter = KeyFilter.of("ts", micros, new boolean[] {true, false, true}, 3);
    assertThat(filter.distinct()).isEqualTo(2);
    // another dataset's rows in nanoseconds and milliseconds
    assertThat(apply(filter, longs(LongType.timestamp(1L, false), 3_000_000_000L, 2_000_000_000L, 1_000_000_001L)))
        .containsExactly(true, false, false);
    assertThat(apply(filter, longs(LongType.timestamp(1_000_000L, false), 1_000L, 4_000L)))
        .containsExactly(true, false);
  }

  @Test
  void aNullKeyPassesOnlyWhenAPassingRowHasANull() {
    KeyFilter withoutNull = KeyFilter.of("x", longs(LongType.INTEGER, 5L, null), new boolean[] {true, false}, 2);
    KeyFilter withNull = KeyFilter.of("x", longs(LongType.INTEGER, 5L, null), new boolean[] {true, true}, 2);
    assertThat(apply(withoutNull, longs(LongType.INTEGER, null, 5L, 6L))).containsExactly(false, true, false);
    assertThat(apply(withNull, longs(LongType.INTEGER, null, 5L, 6L))).containsExactly(true, true, false);
  }

  @Test
  void columnsNotReadAsExactLongsAreNotFiltered() {
    ObjectVector strings = new ObjectVector(2);
    strings.append("a");
    strings.append("b");
    assertThat(KeyFilter.of("s", strings, new boolean[] {true, true}, 2)).isNull();
    assertThat(KeyFilter.of("d", longs(LongType.decimal(2), 1L), new boolean[] {true}, 1)).isNull();
    KeyFilter filter = KeyFilter.of("x", longs(LongType.INTEGER, 1L), new boolean[] {true}, 1);
    boolean[] passes = {true, true};
    filter.apply(strings, 2, passes);
    assertThat(passes).containsExactly(true, true);
  }

  @Test
  void manyValuesAllFoundAndNoOthers() {
    LongVector values = new LongVector(LongType.INTEGER, 100_000);
    boolean[] passes = new boolean[100_000];
    for (int i = 0; i < 100_000; i++) {
      values.append(i * 7L);
      passes[i] = i % 3 == 0;
    }
    KeyFilter filter = KeyFilter.of("x", values, passes, 100_000);
    LongVector probe = new LongVector(LongType.INTEGER, 700_000);
    for (long v = 0; v < 700_000; v++) {
      probe.append(v);
    }
    boolean[] result = apply(filter, probe);
    for (int v = 0; v < 700_000; v++) {
      assertThat(result[v]).as("value %d", v).isEqualTo(v % 7 == 0 && (v / 7) % 3 == 0);
    }
  }
}
