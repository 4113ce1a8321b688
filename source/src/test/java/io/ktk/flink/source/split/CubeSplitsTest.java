package io.ktk.flink.source.split;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Groups of many partitions are cut into splits whose rows, concatenated in split order, are the group's. */
class CubeSplitsTest {
  @TempDir Path dir;
  LocalObjectStore store;
  QueryPlan plan;

  @BeforeEach
  void writeCube() throws IOException {
    store = new LocalObjectStore(dir);
    CubeFixture cube = new CubeFixture(store,
        new CubeSpec("shops", List.of("shop", "item"), List.of("day"), "seed", new TreeSet<>()));
    List<List<Object>> rows = new ArrayList<>();
    for (int d = 0; d < 7; d++) {
      for (String shop : List.of("rome", "berlin")) {
        for (long item = 3; item >= 0; item--) {
          rows.add(Arrays.asList(LocalDate.of(2024, 1, 1).plusDays(d), shop, item));
        }
      }
    }
    cube.dataset("seed", new Schema(List.of(field("day", new ArrowType.Date(DateUnit.DAY)),
        field("shop", ArrowType.Utf8.INSTANCE), field("item", new ArrowType.Int(64, true)))), "shop", "item")
        .commit(rows);
    plan = CubeSnapshot.latest(store, "shops").plan(CubeQuery.builder().partitionBy("shop").build());
  }

  private List<List<Object>> rowsOf(List<CubeSplit> splits) {
    List<List<Object>> rows = new ArrayList<>();
    new CubeReader(store, plan).rows(splits.stream().map(CubeSplit::group).toList()).forEachRemaining(rows::add);
    return rows;
  }

  @Test
  void aGroupOfMorePartitionsThanTheLimitIsCutIntoRunsOfConsecutivePartitions() {
    List<CubeSplit> splits = CubeSplits.of(plan, "", 3);

    assertThat(splits).extracting(CubeSplit::splitId).containsExactly(
        "group-00000.000", "group-00000.001", "group-00000.002", "group-00001.000", "group-00001.001",
        "group-00001.002");
    assertThat(splits).extracting(s -> s.group().partitions().size()).containsExactly(3, 3, 1, 3, 3, 1);
    assertThat(splits.get(0).group().key()).containsExactly("berlin");
    assertThat(splits.get(1).group().partitions().get(0).partitionValues())
        .containsExactly(LocalDate.of(2024, 1, 4));
  }

  @Test
  void concatenatedInSplitOrderTheRowsAreTheQueryResult() {
    List<List<Object>> expected = new ArrayList<>();
    new CubeReader(store, plan).rows().forEachRemaining(expected::add);
    assertThat(expected).hasSize(56);

    for (int max : List.of(1, 2, 3, 7, 100)) {
      assertThat(rowsOf(CubeSplits.of(plan, "", max))).as("at most %d partitions per split", max)
          .isEqualTo(expected);
    }
    assertThat(CubeSplits.of(plan, "d00002-", 7)).extracting(CubeSplit::splitId)
        .containsExactly("d00002-group-00000", "d00002-group-00001");
  }

  @Test
  void groupsAreCutFinerWhenThereWouldBeFewerSplitsThanReaders() {
    List<List<Object>> expected = new ArrayList<>();
    new CubeReader(store, plan).rows().forEachRemaining(expected::add);

    // two groups of 7 partitions: 16 per split allows whole groups, but 4 readers want 4 splits or more
    List<CubeSplit> forFour = CubeSplits.of(plan, "", 16, 4);
    assertThat(forFour).extracting(s -> s.group().partitions().size()).containsExactly(4, 3, 4, 3);
    assertThat(rowsOf(forFour)).isEqualTo(expected);
    assertThat(CubeSplits.of(plan, "", 16, 1)).extracting(CubeSplit::splitId)
        .containsExactly("group-00000", "group-00001");
    assertThat(CubeSplits.of(plan, "", 16, 100)).hasSize(14);
  }

  @Test
  void theLimitMustBePositive() {
    assertThatThrownBy(() -> CubeSplits.of(plan, "", 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1");
  }
}
