package io.ktk.flink.source.engine;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.Python;
import java.io.IOException;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.function.LongPredicate;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Row groups pruned by their statistics: the rows are those of a read without pruning (and those
 * the data says), while fewer row groups are read. Files have 100 row groups of 10 rows each.
 */
class PruningTest {
  private static final Field DAY = field("day", new ArrowType.Date(DateUnit.DAY));
  private static final Field X = field("x", new ArrowType.Int(64, true));
  private static final Field SIZE = field("size", new ArrowType.Int(64, true));
  private static final Field LABEL = field("label", ArrowType.Utf8.INSTANCE);
  private static final Field PRED = field("pred", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  private static final Field NOTE = field("note", ArrowType.Utf8.INSTANCE);
  private static final LocalDate DAY1 = LocalDate.of(2024, 1, 1);
  private static final int ROWS = 1000;
  /** The cell whose size a later commit overwrites with a value no query below admits. */
  private static final long OVERWRITTEN = 5;

  @TempDir Path dir;
  LocalObjectStore store;

  private static double pred(long x) {
    return x % 97 == 0 ? Double.NaN : x / 1000.0;
  }

  @BeforeEach
  void writeCube() throws IOException {
    store = new LocalObjectStore(dir);
    CubeFixture cube = new CubeFixture(store, new CubeSpec("shop", List.of("x"), List.of("day"), "seed", new TreeSet<>()));
    List<List<Object>> seed = new ArrayList<>();
    List<List<Object>> pred = new ArrayList<>();
    List<List<Object>> notes = new ArrayList<>();
    for (long x = 0; x < ROWS; x++) {
      seed.add(Arrays.asList(DAY1, x, x, "k" + x / 100));
      pred.add(Arrays.asList(DAY1, x, pred(x)));
      notes.add(Arrays.asList(DAY1, x, x % 2 == 0 ? "even" : null));
    }
    cube.dataset("seed", new Schema(List.of(DAY, X, SIZE, LABEL)), "x").rowsPerGroup(10).commit(seed)
        .commit(List.of(Arrays.asList(DAY1, OVERWRITTEN, 999L, "k0")));
    cube.dataset("pred", new Schema(List.of(DAY, X, PRED))).rowsPerGroup(10).commit(pred);
    cube.dataset("notes", new Schema(List.of(DAY, X, NOTE))).rowsPerGroup(10).commit(notes);
  }

  private List<List<Object>> expected(LongPredicate kept) {
    List<List<Object>> rows = new ArrayList<>();
    for (long x = 0; x < ROWS; x++) {
      if (kept.test(x)) {
        rows.add(Arrays.asList(DAY1, x, x == OVERWRITTEN ? 999L : x, pred(x), x % 2 == 0 ? "even" : null));
      }
    }
    return rows;
  }

  private RowGroupCounters assertSameRowsWithAndWithoutPruning(String where, List<List<Object>> expected)
      throws IOException {
    CubeQuery query = CubeQuery.builder().where(where).columns("day", "x", "size", "pred", "note").build();
    QueryPlan plan = CubeSnapshot.latest(store, "shop").plan(query);
    CubeReader pruning = new CubeReader(store, plan, true);
    CubeReader plain = new CubeReader(store, plan, false);
    List<List<Object>> pruned = new ArrayList<>();
    List<List<Object>> all = new ArrayList<>();
    pruning.rows().forEachRemaining(pruned::add);
    plain.rows().forEachRemaining(all::add);
    assertThat(pruned).as(where).isEqualTo(all);
    assertThat(all).as(where).isEqualTo(expected);
    assertThat(plain.rowGroups().pruned()).isZero();
    assertThat(pruning.rowGroups().read() + pruning.rowGroups().pruned())
        .as("every row group is either read or pruned").isEqualTo(plain.rowGroups().read());
    return pruning.rowGroups();
  }

  @Test
  void aConditionOnADimensionColumnSkipsRowGroupsOfEveryDatasetThatHasIt() throws IOException {
    RowGroupCounters counters = assertSameRowsWithAndWithoutPruning("x >= 955", expected(x -> x >= 955));
    // seed, pred and notes each read 5 of their 100 groups (x >= 950), and the seed's second file
    assertThat(counters.read()).isLessThanOrEqualTo(16);
    assertThat(counters.keysOnly()).isZero();
  }

  @Test
  void aConditionOnSeedPayloadPrunesAndAnOverwritingRowStillWins() throws IOException {
    RowGroupCounters counters = assertSameRowsWithAndWithoutPruning("size < 50",
        expected(x -> x < 50 && x != OVERWRITTEN));
    assertThat(counters.pruned()).isGreaterThanOrEqualTo(95);
  }

  @Test
  void aConditionOnARestrictedDatasetsFloatsKeepsGroupsThatMayHoldNan() throws IOException {
    // NaN is greater than any number: x = 0, 97, 194, ... qualify wherever they are
    RowGroupCounters counters = assertSameRowsWithAndWithoutPruning("pred > 0.99",
        expected(x -> x % 97 == 0 || x / 1000.0 > 0.99));
    // parquet-java counts NaNs: the 11 groups holding one and the last group are read, not the others
    assertThat(counters.pruned()).isEqualTo(88);
  }

  @Test
  void conditionsOnStringsAndSetsPrune() throws IOException {
    RowGroupCounters counters = assertSameRowsWithAndWithoutPruning("label == 'k3' and x in (5, 305, 999)",
        expected(x -> x == 305));
    assertThat(counters.pruned()).isGreaterThanOrEqualTo(250);
  }

  @Test
  void rowGroupsOfAPyarrowFileArePrunedByItsStatistics() throws IOException {
    Path root = dir.resolve("py");
    Python.run("""
        import json, os, sys
        import pyarrow as pa, pyarrow.parquet as pq
        root = sys.argv[1]
        cube = {"ktk_cube_dimension_columns": ["x"], "ktk_cube_partition_columns": ["p"], "ktk_cube_is_seed": True}
        uuid = "pc++seed"
        label = "p=1/" + "a" * 32
        path = os.path.join(root, uuid, "table", label + ".parquet")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        n = 40
        table = pa.table({
            "x": pa.array(range(n), pa.int64()),
            "v": pa.array([float("nan") if i % 13 == 0 else (None if i % 7 == 0 else float(i)) for i in range(n)]),
            "u": pa.array([2**64 - 1 - i if i >= 30 else i for i in range(n)], pa.uint64()),
            "s": pa.array(["é" if i >= 35 else "a%02d" % i for i in range(n)]),
            "gone": pa.nulls(n),
        })
        pq.write_table(table, path, row_group_size=5)
        # the dataset's schema types 'gone' as int64; this file has it as Parquet's null type (all None)
        fields = [f if f.name != "gone" else pa.field("gone", pa.int64()) for f in table.schema]
        pq.write_metadata(pa.schema([("p", pa.int64())] + fields),
                          os.path.join(root, uuid, "table", "_common_metadata"))
        key = uuid + "/indices/x/2024-01-01T00%3A00%3A00.by-dataset-index.parquet"
        os.makedirs(os.path.dirname(os.path.join(root, key)), exist_ok=True)
        pq.write_table(pa.table({"x": pa.array(range(n), pa.int64()),
                                 "partition": pa.array([[label]] * n, pa.list_(pa.string()))}),
                       os.path.join(root, key))
        meta = {"dataset_metadata_version": 4, "dataset_uuid": uuid,
                "partitions": {label: {"files": {"table": uuid + "/table/" + label + ".parquet"}}},
                "partition_keys": ["p"], "indices": {"x": key}, "metadata": cube}
        json.dump(meta, open(os.path.join(root, uuid + ".by-dataset-metadata.json"), "w"))
        """, root.toString());
    try (LocalObjectStore py = new LocalObjectStore(root)) {
      // pyarrow keeps NaN out of the bounds and does not count it: NaN rows (0, 13, 26, 39) qualify for
      // v > 30 wherever they are, so no group is pruned; for v < 3 NaN does not qualify
      assertPyarrow(py, "v > 30", List.of(0L, 13L, 26L, 31L, 32L, 33L, 34L, 36L, 37L, 38L, 39L), 0);
      assertPyarrow(py, "v < 3", List.of(1L, 2L), 7);
      // unsigned: the big values are above 2^63, not negative
      assertPyarrow(py, "u > 100", List.of(30L, 31L, 32L, 33L, 34L, 35L, 36L, 37L, 38L, 39L), 6);
      // code point order: 'é' is above every 'a..'
      assertPyarrow(py, "s >= 'b'", List.of(35L, 36L, 37L, 38L, 39L), 7);
      // a column of Parquet's null type in a file holds only nulls: nothing qualifies, nothing is read
      assertPyarrow(py, "gone == 1", List.of(), 8);
    }
  }

  private static void assertPyarrow(LocalObjectStore store, String where, List<Long> xs, int prunedGroups)
      throws IOException {
    QueryPlan plan = CubeSnapshot.latest(store, "pc").plan(CubeQuery.builder().where(where).columns("x").build());
    CubeReader pruning = new CubeReader(store, plan, true);
    CubeReader plain = new CubeReader(store, plan, false);
    List<Object> pruned = new ArrayList<>();
    List<Object> all = new ArrayList<>();
    pruning.rows().forEachRemaining(row -> pruned.add(row.get(0)));
    plain.rows().forEachRemaining(row -> all.add(row.get(0)));
    assertThat(all).as(where).isEqualTo(List.copyOf(xs));
    assertThat(pruned).as(where).isEqualTo(all);
    assertThat(pruning.rowGroups().pruned()).as(where).isEqualTo(prunedGroups);
  }
}
