package io.ktk.flink.source.engine;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
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
 * The three examples of Kartothek's query system documentation ("Examples"), built as real cubes
 * and queried; the results are its tables, with null where it shows NaN (a missing enrichment is
 * null). The documentation does not show the cubes' partition column: here it is
 * {@code part = P % 2}, so the datasets' rows are spread over two physical partitions.
 */
class SeedExamplesTest {
  private static final Field PART = field("part", new ArrowType.Int(64, true));
  private static final Field P = field("P", new ArrowType.Int(64, true));
  private static final Field L = field("L", new ArrowType.Int(64, true));
  private static final Field OK = field("OK", ArrowType.Bool.INSTANCE);
  private static final Field SCHED = field("SCHED", ArrowType.Bool.INSTANCE);
  private static final Field PRED = field("PRED", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  private static final Field AVG = field("AVG", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));

  @TempDir Path dir;
  ObjectStore store;

  @BeforeEach
  void openStore() {
    store = new LocalObjectStore(dir);
  }

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  private List<List<Object>> query(String cube, CubeQuery query) throws IOException {
    QueryPlan plan = CubeSnapshot.latest(store, cube).plan(query);
    List<List<Object>> rows = new ArrayList<>();
    new CubeReader(store, plan).rows().forEachRemaining(rows::add);
    return rows;
  }

  @Test
  void example1JoinSemanticsKeepsSeedCellsThatPassBothConditionsWithNullForMissingPredictions() throws IOException {
    CubeSpec spec = new CubeSpec("ex1", List.of("P"), List.of("part"), "db_data", new TreeSet<>());
    CubeFixture cube = new CubeFixture(store, spec);
    cube.dataset("db_data", new Schema(List.of(PART, P)), "P")
        .commit(List.of(row(1L, 1L), row(0L, 2L), row(1L, 3L), row(1L, 5L), row(0L, 6L)));
    cube.dataset("data_checks", new Schema(List.of(PART, P, OK)))
        .commit(List.of(row(1L, 1L, true), row(0L, 2L, false), row(1L, 3L, true), row(0L, 4L, true),
            row(1L, 5L, true), row(0L, 6L, true)));
    cube.dataset("schedule", new Schema(List.of(PART, P, SCHED)))
        .commit(List.of(row(1L, 1L, true), row(0L, 2L, true), row(1L, 3L, false), row(0L, 4L, true),
            row(1L, 5L, true)));
    cube.dataset("predictions", new Schema(List.of(PART, P, PRED)))
        .commit(List.of(row(1L, 1L, 0.23), row(0L, 2L, 0.12), row(1L, 3L, 0.13), row(0L, 4L, 0.03),
            row(0L, 6L, 0.01)));

    List<List<Object>> rows = query("ex1", CubeQuery.builder()
        .columns("P", "PRED").where("OK == true and SCHED == true").build());

    // P | PRED: 1 | 0.23, 5 | NaN (here null)
    assertThat(rows).containsExactly(row(1L, 0.23), row(5L, null));
  }

  @Test
  void example2OuterJoinWithALowerDimensionalConditionDatasetKeepsOnlyTheTrivialCase() throws IOException {
    CubeSpec spec = new CubeSpec("ex2", List.of("P", "L"), List.of("part"), "db_data", new TreeSet<>());
    CubeFixture cube = new CubeFixture(store, spec);
    cube.dataset("db_data", new Schema(List.of(PART, P, L)), "P", "L")
        .commit(List.of(row(1L, 1L, 1L), row(1L, 1L, 2L), row(0L, 2L, 1L), row(0L, 2L, 2L)));
    cube.dataset("data_checks", new Schema(List.of(PART, P, L, OK)))
        .commit(List.of(row(1L, 1L, 1L, true), row(1L, 1L, 2L, false), row(0L, 2L, 1L, true), row(0L, 2L, 2L, true)));
    cube.dataset("schedule", new Schema(List.of(PART, P, SCHED)))
        .commit(List.of(row(1L, 1L, true), row(0L, 2L, false)));
    cube.dataset("predictions", new Schema(List.of(PART, P, L, PRED)))
        .commit(List.of(row(1L, 1L, 1L, 0.23), row(1L, 1L, 2L, 0.12), row(0L, 2L, 1L, 0.13), row(0L, 2L, 2L, 0.13)));

    List<List<Object>> rows = query("ex2", CubeQuery.builder()
        .columns("P", "L", "PRED").where("OK == true and SCHED == true").build());

    // P | L | PRED: 1 | 1 | 0.23
    assertThat(rows).containsExactly(row(1L, 1L, 0.23));
  }

  @Test
  void example3ProjectionReturnsOneRowPerSeedValueOfTheRemainingDimension() throws IOException {
    CubeSpec spec = new CubeSpec("ex3", List.of("P", "L"), List.of("part"), "db_data", new TreeSet<>());
    CubeFixture cube = new CubeFixture(store, spec);
    cube.dataset("db_data", new Schema(List.of(PART, P, L)), "P", "L")
        .commit(List.of(row(1L, 1L, 1L), row(1L, 1L, 2L), row(1L, 1L, 3L), row(0L, 2L, 1L), row(0L, 2L, 4L)));
    cube.dataset("schedule", new Schema(List.of(PART, P, SCHED)))
        .commit(List.of(row(1L, 1L, true), row(0L, 2L, false)));
    cube.dataset("agg", new Schema(List.of(PART, P, AVG)))
        .commit(List.of(row(1L, 1L, 10.2), row(0L, 2L, 1.34)));

    List<List<Object>> rows = query("ex3", CubeQuery.builder().columns("P", "AVG").where("SCHED == true").build());

    // P | AVG: 1 | 10.2
    assertThat(rows).containsExactly(row(1L, 10.2));
  }
}
