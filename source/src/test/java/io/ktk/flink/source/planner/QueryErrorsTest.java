package io.ktk.flink.source.planner;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.InvalidQueryException;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.CountingObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad queries fail with messages that name the column, its type and the literal, while the query
 * is planned: the store sees no read at all (the snapshots, loaded before, hold everything the
 * planner needs).
 */
class QueryErrorsTest {
  private static final Field DAY = field("day", new ArrowType.Date(DateUnit.DAY));
  private static final Field X = field("x", new ArrowType.Int(64, true));
  private static final Field Y = field("y", ArrowType.Utf8.INSTANCE);
  private static final Field V = field("v", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  private static final Field W = field("w", new ArrowType.Int(64, true));
  private static final Field PRED = field("pred", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));

  @TempDir Path dir;
  CountingObjectStore store;
  CubeSnapshot cube;

  @BeforeEach
  void writeCube() throws IOException {
    LocalObjectStore local = new LocalObjectStore(dir);
    CubeFixture fixture = new CubeFixture(local,
        new CubeSpec("sales", List.of("x", "y"), List.of("day"), "seed", new TreeSet<>()));
    java.time.LocalDate day = java.time.LocalDate.of(2024, 1, 1);
    fixture.dataset("seed", new Schema(List.of(DAY, X, Y, V)), "x")
        .commit(List.of(Arrays.asList(day, 1L, "a", 0.5), Arrays.asList(day, 2L, "b", null)));
    fixture.dataset("enrich", new Schema(List.of(DAY, X, Y, W)))
        .commit(List.of(Arrays.asList(day, 1L, "a", 7L)));
    fixture.dataset("agg", new Schema(List.of(DAY, X, PRED)), "pred")
        .commit(List.of(Arrays.asList(day, 1L, 0.25)));
    store = new CountingObjectStore(local);
    cube = CubeSnapshot.latest(store, "sales");
    store.reset();
  }

  private void assertFailsBeforeReading(CubeQuery.Builder query, String... messageParts) {
    var thrown = assertThatThrownBy(() -> cube.plan(query.build())).isInstanceOf(InvalidQueryException.class);
    for (String part : messageParts) {
      thrown.hasMessageContaining(part);
    }
    assertThat(store.wholeReads + store.rangeReads + store.listed).as("store operations").isZero();
  }

  @Test
  void unknownColumnsAreNamedWithTheColumnsThereAre() {
    assertFailsBeforeReading(CubeQuery.builder().where("z == 1"),
        "Cannot query cube 'sales': condition `z == 1` is on column 'z', which none of the datasets [agg, enrich, seed]"
            + " has (columns: day, pred, v, w, x, y)");
    assertFailsBeforeReading(CubeQuery.builder().columns("x", "nope"), "columns name 'nope', which none of the datasets");
    assertFailsBeforeReading(CubeQuery.builder().partitionBy("nope"), "partition_by names column 'nope'");
    assertFailsBeforeReading(CubeQuery.builder().datasets("other"),
        "dataset 'other' is not in the cube (datasets: [agg, enrich, seed])");
    assertFailsBeforeReading(CubeQuery.builder().where("w == 1").datasets("agg"), "condition `w == 1` is on column 'w'");
    assertFailsBeforeReading(CubeQuery.builder().dimensionColumns("v"),
        "'v' is not a dimension column of the cube (dimension columns: [x, y])");
  }

  @Test
  void literalsOfTheWrongTypeNameColumnTypeAndLiteral() {
    assertFailsBeforeReading(CubeQuery.builder().where("x == 'one'"),
        "condition `x == 'one'` compares column 'x' of type int64 with 'one', which does not fit; use a whole number");
    assertFailsBeforeReading(CubeQuery.builder().where("day >= '2024-13-01'"),
        "column 'day' of type date32[day] with '2024-13-01', which does not fit; use a date in quotes");
    assertFailsBeforeReading(CubeQuery.builder().where("y in ('a', 2)"), "column 'y' of type string with 2,");
  }

  @Test
  void nullLiteralsAreRefused() {
    assertFailsBeforeReading(CubeQuery.builder().where("v != null"),
        "condition `v != null` compares column 'v' of type double with NULL, which is unknown and never true");
  }

  @Test
  void partitionByNeedsAnIndexOrPartitionColumn() {
    assertFailsBeforeReading(CubeQuery.builder().partitionBy("w"),
        "partition_by names column 'w' (int64) of dataset 'enrich', which has no index on it (indexed: [])");
    assertFailsBeforeReading(CubeQuery.builder().partitionBy("y"),
        "partition_by names dimension column 'y' (string), which has no index in the seed dataset 'seed' (indexed: [x])");
    assertFailsBeforeReading(CubeQuery.builder().partitionBy("x").dimensionColumns("y"),
        "partition_by names dimension column 'x' (int64), which is not among the query's dimension columns [y]");
  }

  @Test
  void projectionThatWouldLosePayloadIsRefused() {
    assertFailsBeforeReading(CubeQuery.builder().columns("x", "w"),
        "dataset 'enrich' has dimension columns [x, y], more than the query's [x], so its payload columns [w]");
    assertFailsBeforeReading(CubeQuery.builder().columns("x", "pred").where("v > 0"),
        "dataset 'seed' has dimension columns [x, y], more than the query's [x], so its payload columns [v]");
  }

  @Test
  void aGoodQueryIsPlannedWithoutReadingAndReadsOnlyTheFilesItNeeds() throws IOException {
    QueryPlan plan = cube.plan(CubeQuery.builder().columns("x", "pred").where("pred > 0").build());
    assertThat(store.wholeReads + store.rangeReads + store.listed).isZero();

    List<List<Object>> rows = new java.util.ArrayList<>();
    new CubeReader(store, plan).rows().forEachRemaining(rows::add);
    assertThat(rows).containsExactly(Arrays.asList(1L, 0.25));
    assertThat(plan.query().datasets()).extracting(DatasetRead::datasetId).containsExactly("seed", "agg");
  }
}
