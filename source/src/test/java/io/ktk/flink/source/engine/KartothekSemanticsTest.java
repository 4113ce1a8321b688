package io.ktk.flink.source.engine;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.planner.QueryGroup;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.InvalidQueryException;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples of "Differences from Kartothek 5.3" in {@code docs/cube-query.md}, each queried with
 * this project's semantics and with Kartothek's. The Kartothek answers are those its 5.3 code gives
 * (pandas semantics, plateau's row-group skipping), written out by hand; {@link KartothekAnswersTest}
 * compares with answers Kartothek itself computed.
 */
class KartothekSemanticsTest {
  private static final Field P = field("p", new ArrowType.Int(64, true));
  private static final Field X = field("x", new ArrowType.Int(64, true));
  private static final Field V = field("v", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  private static final Field S = field("s", ArrowType.Utf8.INSTANCE);
  private static final CubeSpec SPEC = CubeSpec.of("k", List.of("x"), List.of("p"));

  @TempDir Path dir;
  ObjectStore store;
  CubeFixture cube;

  @BeforeEach
  void openStore() {
    store = new LocalObjectStore(dir);
    cube = new CubeFixture(store, SPEC);
  }

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  /** The rows, one list per group. */
  private List<List<List<Object>>> groups(CubeQuery query) throws IOException {
    QueryPlan plan = CubeSnapshot.latest(store, "k").plan(query);
    List<List<List<Object>>> groups = new ArrayList<>();
    for (QueryGroup group : plan.groups()) {
      List<List<Object>> rows = new ArrayList<>();
      new CubeReader(store, plan).rows(List.of(group)).forEachRemaining(rows::add);
      groups.add(rows);
    }
    return groups;
  }

  private List<List<Object>> rows(CubeQuery query) throws IOException {
    return groups(query).stream().flatMap(List::stream).toList();
  }

  private static CubeQuery ours(String where, String... columns) {
    return CubeQuery.builder().where(where).columns(columns).build();
  }

  private static CubeQuery kartothek(String where, String... payload) {
    return CubeQuery.builder().where(where).columns(payload).kartothekSemantics().build();
  }

  @Test
  void difference1NotEqualKeepsNullRowsInKartothek() throws IOException {
    cube.dataset("seed", new Schema(List.of(P, X, V)), "x")
        .commit(List.of(row(0L, 1L, 2.5), row(0L, 2L, null), row(0L, 3L, 1.0)));

    assertThat(rows(ours("v != 2.5", "x", "v"))).containsExactly(row(3L, 1.0));
    // Kartothek's columns: p, v, x (sorted by name)
    assertThat(rows(kartothek("v != 2.5", "v"))).containsExactly(row(0L, null, 2L), row(0L, 1.0, 3L));
    // every other operator drops null in both
    assertThat(rows(kartothek("v < 2.0", "v"))).containsExactly(row(0L, 1.0, 3L));
  }

  @Test
  void difference2NaNIsAMissingValueInKartothek() throws IOException {
    cube.dataset("seed", new Schema(List.of(P, X, V)), "x")
        .commit(List.of(row(0L, 1L, Double.NaN), row(0L, 2L, 0.7), row(0L, 3L, 2.5)));

    assertThat(rows(ours("v > 0.5", "x"))).containsExactly(row(1L), row(2L), row(3L));
    assertThat(rows(kartothek("v > 0.5", "v"))).containsExactly(row(0L, 0.7, 2L), row(0L, 2.5, 3L));
    assertThat(rows(ours("v != 2.5", "x"))).containsExactly(row(1L), row(2L));
    assertThat(rows(kartothek("v != 2.5", "v"))).containsExactly(row(0L, Double.NaN, 1L), row(0L, 0.7, 2L));
    assertThat(rows(ours("v == nan", "x"))).containsExactly(row(1L));
    assertThatThrownBy(() -> rows(kartothek("v == nan", "v")))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("condition `v == nan` compares column 'v' of type double with nan, which Kartothek"
            + " semantics take as a missing value");
  }

  @Test
  void difference2ANaNPartitionByValueFormsNoGroupInKartothek() throws IOException {
    cube.dataset("seed", new Schema(List.of(P, X)), "x").commit(List.of(row(0L, 1L), row(0L, 2L)));
    cube.dataset("e", new Schema(List.of(P, X, V)), "v").commit(List.of(row(0L, 1L, Double.NaN), row(0L, 2L, 0.5)));

    assertThat(groups(CubeQuery.builder().columns("x", "v").partitionBy("v").build()))
        .containsExactly(List.of(row(2L, 0.5)), List.of(row(1L, Double.NaN)));
    assertThat(groups(CubeQuery.builder().columns("v").partitionBy("v").kartothekSemantics().build())
        .stream().filter(g -> !g.isEmpty()).toList())
        .containsExactly(List.of(row(0L, 0.5, 2L)));
  }

  @Test
  void difference3KartothekSkipsARowGroupWhoseBoundsEqualTheNotEqualLiteralWithItsNulls() throws IOException {
    // one file, row groups of two rows: ['a', null] and ['b', null]
    cube.dataset("seed", new Schema(List.of(P, X, S)), "x").rowsPerGroup(2)
        .commitFiles(Map.of("f", List.of(row(0L, 1L, "a"), row(0L, 2L, null), row(0L, 3L, "b"), row(0L, 4L, null))));

    assertThat(rows(ours("s != 'a'", "x"))).containsExactly(row(3L));
    assertThat(rows(kartothek("s != 'a'", "s"))).containsExactly(row(0L, "b", 3L), row(0L, null, 4L));
    // also when this project's pruning is turned off: it is part of Kartothek's answer
    QueryPlan plan = CubeSnapshot.latest(store, "k").plan(kartothek("s != 'a'", "s"));
    List<List<Object>> unpruned = new ArrayList<>();
    new CubeReader(store, plan, false).rows().forEachRemaining(unpruned::add);
    assertThat(unpruned).containsExactly(row(0L, "b", 3L), row(0L, null, 4L));
  }

  @Test
  void difference3WithAnIndexKartothekDropsAFileNoneOfWhoseIndexedValuesPasses() throws IOException {
    // file f1 holds 'a' and null (row groups of one row: the null's group has no bounds), f2 'b' and null
    Map<String, List<List<Object>>> files = new LinkedHashMap<>();
    files.put("f1", List.of(row(0L, 1L, "a"), row(0L, 2L, null)));
    files.put("f2", List.of(row(0L, 3L, "b"), row(0L, 4L, null)));
    cube.dataset("seed", new Schema(List.of(P, X, S)), "x", "s").rowsPerGroup(1).commitFiles(files);

    assertThat(rows(ours("s != 'a'", "x"))).containsExactly(row(3L));
    // f1 is not read: the index lists it under 'a' only
    assertThat(rows(kartothek("s != 'a'", "s"))).containsExactly(row(0L, "b", 3L), row(0L, null, 4L));
  }

  @Test
  void difference3WithoutAnIndexANullRowGroupIsReadByKartothek() throws IOException {
    Map<String, List<List<Object>>> files = new LinkedHashMap<>();
    files.put("f1", List.of(row(0L, 1L, "a"), row(0L, 2L, null)));
    files.put("f2", List.of(row(0L, 3L, "b"), row(0L, 4L, null)));
    cube.dataset("seed", new Schema(List.of(P, X, S)), "x").rowsPerGroup(1).commitFiles(files);

    assertThat(rows(kartothek("s != 'a'", "s")))
        .containsExactly(row(0L, null, 2L), row(0L, "b", 3L), row(0L, null, 4L));
  }

  @Test
  void difference4KartothekFiltersBeforeTakingTheLastRowOfACell() throws IOException {
    CubeFixture.DatasetWriter seed = cube.dataset("seed", new Schema(List.of(P, X, V)), "x");
    seed.commit(List.of(row(0L, 1L, 5.0), row(0L, 2L, 4.0)));
    seed.commit(List.of(row(0L, 1L, 1.0)));

    assertThat(rows(ours("v > 3", "x", "v"))).containsExactly(row(2L, 4.0));
    assertThat(rows(kartothek("v > 3", "v"))).containsExactly(row(0L, 5.0, 1L), row(0L, 4.0, 2L));
  }

  @Test
  void difference4WithPartitionByOnPayloadKartothekShowsACellUnderItsOldAndNewValue() throws IOException {
    cube.dataset("seed", new Schema(List.of(P, X)), "x").commit(List.of(row(0L, 1L)));
    CubeFixture.DatasetWriter e = cube.dataset("e", new Schema(List.of(P, X, S)), "s");
    e.commit(List.of(row(0L, 1L, "old")));
    e.commit(List.of(row(0L, 1L, "new")));

    assertThat(groups(CubeQuery.builder().columns("x", "s").partitionBy("s").build()).stream()
        .filter(g -> !g.isEmpty()).toList())
        .containsExactly(List.of(row(1L, "new")));
    assertThat(groups(CubeQuery.builder().columns("s").partitionBy("s").kartothekSemantics().build()))
        .containsExactly(List.of(row(0L, "new", 1L)), List.of(row(0L, "old", 1L)));
  }

  @Test
  void difference5KartothekRefusesDatasetsWithoutTheSeed() throws IOException {
    cube.dataset("seed", new Schema(List.of(P, X)), "x").commit(List.of(row(0L, 1L), row(0L, 2L)));
    cube.dataset("e", new Schema(List.of(P, X, V))).commit(List.of(row(0L, 1L, 0.5)));

    assertThat(rows(CubeQuery.builder().columns("x", "v").datasets("e").build()))
        .containsExactly(row(1L, 0.5), row(2L, null));
    assertThatThrownBy(() -> rows(CubeQuery.builder().datasets("e").kartothekSemantics().build()))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("datasets [e] do not name the seed dataset 'seed'");
  }

  @Test
  void difference6KartothekColumnsArePayloadColumnsSortedWithDimensionAndPartitionColumns() throws IOException {
    cube.dataset("seed", new Schema(List.of(P, X, V, S)), "x").commit(List.of(row(0L, 1L, 0.5, "a")));

    QueryPlan ours = CubeSnapshot.latest(store, "k").plan(CubeQuery.builder().columns("v").build());
    QueryPlan theirs = CubeSnapshot.latest(store, "k").plan(CubeQuery.builder().columns("v").kartothekSemantics()
        .build());
    QueryPlan all = CubeSnapshot.latest(store, "k").plan(CubeQuery.builder().kartothekSemantics().build());

    assertThat(names(ours)).containsExactly("v");
    assertThat(names(theirs)).containsExactly("p", "v", "x");
    assertThat(names(all)).containsExactly("p", "s", "v", "x");
  }

  private static List<String> names(QueryPlan plan) {
    return plan.query().output().getFields().stream().map(Field::getName).toList();
  }
}
