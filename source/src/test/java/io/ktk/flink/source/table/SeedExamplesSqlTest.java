package io.ktk.flink.source.table;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.source.testing.SqlTables;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The three examples of Kartothek's query system documentation ("Examples") asked in SQL; the
 * results are its tables (null where it shows NaN for a missing enrichment).
 * The cubes are those of {@code engine.SeedExamplesTest}: partition column {@code part = P % 2}.
 */
class SeedExamplesSqlTest {
  @RegisterExtension
  static final MiniClusterExtension FLINK = SqlTables.cluster();

  private static final Field PART = field("part", new ArrowType.Int(64, true));
  private static final Field P = field("P", new ArrowType.Int(64, true));
  private static final Field L = field("L", new ArrowType.Int(64, true));
  private static final Field OK = field("OK", ArrowType.Bool.INSTANCE);
  private static final Field SCHED = field("SCHED", ArrowType.Bool.INSTANCE);
  private static final Field PRED = field("PRED", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  private static final Field AVG = field("AVG", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));

  @TempDir Path dir;
  ObjectStore store;
  TableEnvironment tables;

  @BeforeEach
  void open() {
    store = new LocalObjectStore(dir);
    tables = SqlTables.batch();
  }

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  private void table(String name, String columns, String cube) {
    tables.executeSql("CREATE TABLE " + name + " (" + columns + ") WITH ('connector' = 'kartothek', 'store' = '"
        + dir.toUri() + "', 'cube' = '" + cube + "')");
  }

  @Test
  void example1JoinSemantics() throws Exception {
    CubeFixture cube = new CubeFixture(store, new CubeSpec("ex1", List.of("P"), List.of("part"), "db_data",
        new TreeSet<>()));
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
    table("ex1", "part BIGINT, P BIGINT, OK BOOLEAN, SCHED BOOLEAN, PRED DOUBLE", "ex1");

    String sql = "SELECT P, PRED FROM ex1 WHERE OK = TRUE AND SCHED = TRUE";

    // P | PRED: 1 | 0.23, 5 | NaN (here null)
    assertThat(SqlTables.rows(tables, sql)).containsExactlyInAnyOrder(row(1L, 0.23), row(5L, null));
  }

  @Test
  void example2OuterJoin() throws Exception {
    CubeFixture cube = new CubeFixture(store, new CubeSpec("ex2", List.of("P", "L"), List.of("part"), "db_data",
        new TreeSet<>()));
    cube.dataset("db_data", new Schema(List.of(PART, P, L)), "P", "L")
        .commit(List.of(row(1L, 1L, 1L), row(1L, 1L, 2L), row(0L, 2L, 1L), row(0L, 2L, 2L)));
    cube.dataset("data_checks", new Schema(List.of(PART, P, L, OK)))
        .commit(List.of(row(1L, 1L, 1L, true), row(1L, 1L, 2L, false), row(0L, 2L, 1L, true), row(0L, 2L, 2L, true)));
    cube.dataset("schedule", new Schema(List.of(PART, P, SCHED)))
        .commit(List.of(row(1L, 1L, true), row(0L, 2L, false)));
    cube.dataset("predictions", new Schema(List.of(PART, P, L, PRED)))
        .commit(List.of(row(1L, 1L, 1L, 0.23), row(1L, 1L, 2L, 0.12), row(0L, 2L, 1L, 0.13), row(0L, 2L, 2L, 0.13)));
    table("ex2", "part BIGINT, P BIGINT, L BIGINT, OK BOOLEAN, SCHED BOOLEAN, PRED DOUBLE", "ex2");

    // P | L | PRED: 1 | 1 | 0.23
    assertThat(SqlTables.rows(tables, "SELECT P, L, PRED FROM ex2 WHERE OK AND SCHED"))
        .containsExactly(row(1L, 1L, 0.23));
  }

  @Test
  void example3ProjectionByDeclaringFewerDimensionColumns() throws Exception {
    CubeFixture cube = new CubeFixture(store, new CubeSpec("ex3", List.of("P", "L"), List.of("part"), "db_data",
        new TreeSet<>()));
    cube.dataset("db_data", new Schema(List.of(PART, P, L)), "P", "L")
        .commit(List.of(row(1L, 1L, 1L), row(1L, 1L, 2L), row(1L, 1L, 3L), row(0L, 2L, 1L), row(0L, 2L, 4L)));
    cube.dataset("schedule", new Schema(List.of(PART, P, SCHED)))
        .commit(List.of(row(1L, 1L, true), row(0L, 2L, false)));
    cube.dataset("agg", new Schema(List.of(PART, P, AVG)))
        .commit(List.of(row(1L, 1L, 10.2), row(0L, 2L, 1.34)));
    // the table leaves out dimension column L: it is the cube projected to P
    table("ex3", "P BIGINT, SCHED BOOLEAN, `AVG` DOUBLE", "ex3");
    // all dimension columns: one row per (P, L) cell
    table("ex3_full", "P BIGINT, L BIGINT, SCHED BOOLEAN, `AVG` DOUBLE", "ex3");

    // P | AVG: 1 | 10.2
    assertThat(SqlTables.rows(tables, "SELECT P, `AVG` FROM ex3 WHERE SCHED")).containsExactly(row(1L, 10.2));
    assertThat(SqlTables.rows(tables, "SELECT P, `AVG` FROM ex3_full WHERE SCHED"))
        .containsExactly(row(1L, 10.2), row(1L, 10.2), row(1L, 10.2));
    assertThat(SqlTables.rows(tables, "SELECT DISTINCT P, `AVG` FROM ex3_full WHERE SCHED"))
        .containsExactly(row(1L, 10.2));
  }
}
