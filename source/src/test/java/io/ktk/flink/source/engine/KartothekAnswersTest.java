package io.ktk.flink.source.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.planner.QueryGroup;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.InvalidQueryException;
import io.ktk.flink.source.query.QuerySemantics;
import io.ktk.flink.source.testing.KartothekAnswers;
import io.ktk.flink.source.testing.KartothekAnswers.Answer;
import io.ktk.flink.state.KtkException;
import io.ktk.flink.state.store.LocalObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 40 queries that Kartothek 5.3.0's own {@code query_cube} answered over two cubes written by
 * plateau 4.6.2 ({@link KartothekAnswers}), read with the planner and {@link CubeReader}: with
 * Kartothek semantics they give exactly Kartothek's rows, columns, groups in order and (mapped)
 * dtypes; without, they differ only as {@code docs/cube-query.md} says. The cube {@code sub} has
 * enrichments partitioned by a subset of the cube's partition columns.
 */
class KartothekAnswersTest {
  private final LocalObjectStore store = new LocalObjectStore(KartothekAnswers.store());

  static Stream<Answer> answered() {
    return KartothekAnswers.answered().stream();
  }

  static Stream<Answer> refused() {
    return KartothekAnswers.refused().stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("answered")
  void kartothekSemanticsGiveKartothekRowsColumnsGroupsAndDtypes(Answer answer) throws IOException {
    Result result = query(answer, QuerySemantics.KARTOTHEK);

    assertThat(result.fields().stream().map(Field::getName).toList()).isEqualTo(answer.columns());
    assertSameGroups(result, answer, kartothekGroups(answer));
    // Kartothek returns a frame per non-empty group; the answer lists the dtypes its frames have
    List<List<List<Object>>> frames = result.groups().stream().filter(rows -> !rows.isEmpty()).toList();
    for (int c = 0; c < result.fields().size(); c++) {
      Field field = result.fields().get(c);
      List<String> dtypes = answer.dtypes().get(field.getName());
      List<Set<String>> possible = new ArrayList<>();
      for (List<List<Object>> frame : frames) {
        int column = c;
        boolean anyMissing = frame.stream().anyMatch(row -> missing(row.get(column)));
        boolean allMissing = frame.stream().allMatch(row -> missing(row.get(column)));
        possible.add(KartothekAnswers.dtypesFor(field.getType(), anyMissing, allMissing));
      }
      assertThat(possible).as("pandas dtypes of %s per frame, Kartothek's: %s", field, dtypes)
          .allMatch(options -> options.stream().anyMatch(dtypes::contains));
      assertThat(dtypes).as("pandas dtypes of %s, ours per frame: %s", field, possible)
          .allMatch(dtype -> possible.stream().anyMatch(options -> options.contains(dtype)));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("answered")
  void withoutKartothekSemanticsOnlyTheNullRowsOfNotEqualAreLeftOut(Answer answer) throws IOException {
    Result result = query(answer, QuerySemantics.SQL);

    // documented: a comparison with null is unknown and drops the row, != too (Kartothek keeps it)
    Set<String> notEqual = answer.notEqualColumns();
    List<List<Map<String, Object>>> expected = new ArrayList<>();
    for (List<Map<String, Object>> group : kartothekGroups(answer)) {
      expected.add(group.stream().filter(row -> notEqual.stream().allMatch(column -> row.get(column) != null))
          .toList());
    }
    assertThat(result.fields().stream().map(Field::getName).toList()).isEqualTo(answer.columns());
    assertSameGroups(result, answer, expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void queriesKartothekRefusesAreRefusedBeforeAnyRowIsRead(Answer answer) {
    CubeSnapshot cube = snapshot(answer);

    assertThatThrownBy(() -> cube.plan(answer.cubeQuery(QuerySemantics.KARTOTHEK)))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Cannot query cube '" + answer.cube() + "'");
  }

  @Test
  void withoutKartothekSemanticsDatasetsWithoutTheSeedUseTheSeedAnyway() throws IOException {
    Answer refused = KartothekAnswers.answer("geo", "refused-4");
    Answer seedAndE1 = KartothekAnswers.answer("geo", "19");

    Result result = query(refused, QuerySemantics.SQL);

    assertThat(refused.datasets()).containsExactly("e1");
    assertThat(seedAndE1.datasets()).containsExactly("seed", "e1");
    Result sameColumns = query(seedAndE1, QuerySemantics.SQL);
    assertThat(KartothekAnswers.canonicalOurs(refused, result.fields(), result.groups().get(0)))
        .containsExactlyInAnyOrderElementsOf(
            KartothekAnswers.canonicalOurs(seedAndE1, sameColumns.fields(), sameColumns.groups().get(0)));
    assertThat(KartothekAnswers.canonicalOurs(seedAndE1, sameColumns.fields(), sameColumns.groups().get(0)))
        .containsExactlyInAnyOrderElementsOf(KartothekAnswers.canonical(seedAndE1, seedAndE1.groups().get(0)));
  }

  private record Result(List<Field> fields, List<List<List<Object>>> groups) {}

  /** Our rows, grouped as Kartothek groups them: by partition_by values, else one group. */
  private Result query(Answer answer, QuerySemantics semantics) throws IOException {
    QueryPlan plan = snapshot(answer).plan(answer.cubeQuery(semantics));
    CubeReader reader = new CubeReader(store, plan);
    List<List<List<Object>>> groups = new ArrayList<>();
    if (answer.partitionBy() == null) {
      List<List<Object>> rows = new ArrayList<>();
      reader.rows().forEachRemaining(rows::add);
      groups.add(rows);
    } else {
      for (QueryGroup group : plan.groups()) {
        List<List<Object>> rows = new ArrayList<>();
        reader.rows(List.of(group)).forEachRemaining(rows::add);
        groups.add(rows);
      }
    }
    return new Result(reader.schema().getFields(), groups);
  }

  private CubeSnapshot snapshot(Answer answer) {
    try {
      return CubeSnapshot.latest(store, answer.cube());
    } catch (IOException | KtkException e) {
      throw new AssertionError("cannot open cube " + answer.cube(), e);
    }
  }

  private static List<List<Map<String, Object>>> kartothekGroups(Answer answer) {
    return answer.groups().stream().map(rows -> KartothekAnswers.canonical(answer, rows)).toList();
  }

  private static void assertSameGroups(Result result, Answer answer, List<List<Map<String, Object>>> expected) {
    List<List<Map<String, Object>>> ours = new ArrayList<>();
    result.groups().forEach(rows -> ours.add(KartothekAnswers.canonicalOurs(answer, result.fields(), rows)));
    List<List<Map<String, Object>>> theirs = new ArrayList<>(expected);
    if (answer.partitionBy() != null) {
      // Kartothek forms no group without rows
      ours.removeIf(List::isEmpty);
      theirs.removeIf(List::isEmpty);
    }
    assertThat(ours).as("groups").hasSameSizeAs(theirs);
    for (int g = 0; g < ours.size(); g++) {
      assertThat(ours.get(g)).as("rows of group %s", g).containsExactlyInAnyOrderElementsOf(theirs.get(g));
    }
  }

  private static boolean missing(Object value) {
    return value == null || (value instanceof Double d && d.isNaN());
  }

}
