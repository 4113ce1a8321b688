package io.ktk.flink.source.engine;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine decodes a row group's condition columns first and the other columns only for the rows
 * that can still matter (docs/cube-query.md, "Reading"). Cells whose values a later commit changed
 * show that this never changes the answer: the condition judges the newest row of a cell, and every
 * column returned comes from that same row, whether the condition's column, a key or a payload
 * column decoded late. Each cell's versions are spelled out here; the expected rows follow from them
 * by hand.
 */
class LateMaterializationTest {
  private static final Field P = field("p", new ArrowType.Int(64, true));
  private static final Field X = field("x", new ArrowType.Int(64, true));
  private static final Field V = field("v", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  private static final Field S = field("s", ArrowType.Utf8.INSTANCE);
  private static final Field W = field("w", new ArrowType.Int(64, true));
  private static final Field LEVEL = field("level", ArrowType.Utf8.INSTANCE);
  private static final Field NOTE = field("note", ArrowType.Utf8.INSTANCE);

  @TempDir Path dir;
  LocalObjectStore store;

  private static List<Object> seed(long x, double v, String s, long w) {
    return Arrays.asList(1L, x, v, s, w);
  }

  private static List<Object> alert(long x, String level, String note) {
    return Arrays.asList(1L, x, level, note);
  }

  /**
   * Version 1 of the seed has cells 1 to 6; version 2 rewrites 2 (v from passing to failing), 3 (from
   * failing to passing, with new s and w), 5 (stays passing, new s and w) and adds 7. Cells 1, 4 and 6
   * keep their first row. The alerts of cells 1 to 4 change level between their two versions likewise.
   */
  @BeforeEach
  void writeCube() throws IOException {
    store = new LocalObjectStore(dir);
    CubeFixture cube = new CubeFixture(store, new CubeSpec("late", List.of("x"), List.of("p"), "seed", new TreeSet<>()));
    cube.dataset("seed", new Schema(List.of(P, X, V, S, W)), "x").rowsPerGroup(3)
        .commit(List.of(seed(1, 9.0, "one", 10), seed(2, 8.0, "two-old", 20), seed(3, 1.0, "three-old", 30),
            seed(4, 2.0, "four", 40), seed(5, 7.0, "five-old", 50), seed(6, 6.5, "six", 60)))
        .commit(List.of(seed(2, 0.5, "two-new", 21), seed(3, 9.5, "three-new", 31), seed(5, 7.5, "five-new", 51),
            seed(7, 8.5, "seven", 70)));
    cube.dataset("alerts", new Schema(List.of(P, X, LEVEL, NOTE))).rowsPerGroup(2)
        .commit(List.of(alert(1, "high", "1-old"), alert(2, "low", "2-old"), alert(3, "high", "3-old"),
            alert(4, "low", "4-old")))
        .commit(List.of(alert(1, "low", "1-new"), alert(2, "high", "2-new"), alert(3, "high", "3-new")));
  }

  private List<List<Object>> query(CubeQuery query) throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    new CubeReader(store, CubeSnapshot.latest(store, "late").plan(query)).rows().forEachRemaining(rows::add);
    List<List<Object>> unpruned = new ArrayList<>();
    new CubeReader(store, CubeSnapshot.latest(store, "late").plan(query), false).rows()
        .forEachRemaining(unpruned::add);
    assertThat(unpruned).as("the same rows without row-group pruning").isEqualTo(rows);
    return rows;
  }

  @Test
  void aPayloadConditionJudgesTheNewestRowAndEveryColumnComesFromIt() throws IOException {
    assertThat(query(CubeQuery.builder().where("v > 5").columns("x", "v", "s", "w").build())).containsExactly(
        List.of(1L, 9.0, "one", 10L),
        List.of(3L, 9.5, "three-new", 31L),
        List.of(5L, 7.5, "five-new", 51L),
        List.of(6L, 6.5, "six", 60L),
        List.of(7L, 8.5, "seven", 70L));
  }

  @Test
  void aConditionOnAColumnNotReturnedStillJudgesTheNewestRow() throws IOException {
    assertThat(query(CubeQuery.builder().where("v < 3").columns("x", "s").build())).containsExactly(
        List.of(2L, "two-new"), List.of(4L, "four"));
  }

  @Test
  void aConditionOnTheKeyAndOneOnPayloadTogether() throws IOException {
    assertThat(query(CubeQuery.builder().where("x in (2, 3, 4) and s >= 't'").columns("x", "s", "w").build()))
        .containsExactly(List.of(2L, "two-new", 21L), List.of(3L, "three-new", 31L));
  }

  @Test
  void aRestrictedEnrichmentJudgesItsNewestRowAndReturnsItsColumns() throws IOException {
    assertThat(query(CubeQuery.builder().where("level == 'high'").columns("x", "s", "level", "note").build()))
        .containsExactly(List.of(2L, "two-new", "high", "2-new"), List.of(3L, "three-new", "high", "3-new"));
  }

  @Test
  void kartothekSemanticsReturnTheLastPassingRowWithItsOwnColumns() throws IOException {
    // Kartothek filters first: cell 2's overwritten row (v 8.0) is the last that passes, with its own s and w;
    // its columns come sorted by name: p, s, v, w, x
    assertThat(query(CubeQuery.builder().kartothekSemantics().where("v > 7.9").columns("v", "s", "w").build()))
        .containsExactly(
            List.of(1L, "one", 9.0, 10L, 1L),
            List.of(1L, "two-old", 8.0, 20L, 2L),
            List.of(1L, "three-new", 9.5, 31L, 3L),
            List.of(1L, "seven", 8.5, 70L, 7L));
  }
}
