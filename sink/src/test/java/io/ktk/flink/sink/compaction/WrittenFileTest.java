package io.ktk.flink.sink.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ktk.flink.sink.compaction.CompactionResult.Outcome;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.PyChecks;
import io.ktk.flink.state.testing.TestDataset;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pages compaction writes, checked by pyarrow and DuckDB: many pages per chunk, dictionaries
 * that outgrow their limit (the chunk goes on plainly), a dictionary of one entry (ids of zero
 * bits), nulls, and page and chunk statistics that readers prune with.
 */
class WrittenFileTest {
  private static final Schema SCHEMA = new Schema(List.of(
      TestDataset.field("p", ArrowType.Utf8.INSTANCE),
      TestDataset.field("id", new ArrowType.Int(64, true)),
      TestDataset.field("g", new ArrowType.Int(64, true)),
      TestDataset.field("k", ArrowType.Utf8.INSTANCE),
      TestDataset.field("v", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      TestDataset.field("s", ArrowType.Utf8.INSTANCE),
      TestDataset.field("b", ArrowType.Bool.INSTANCE),
      TestDataset.field("d", new ArrowType.Date(DateUnit.DAY)),
      TestDataset.field("dec", new ArrowType.Decimal(12, 3, 128)),
      TestDataset.field("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))));
  private static final int APPENDS = 10;
  private static final long ROWS = 30_000;

  private static final String CHECK = """
      import duckdb, pyarrow as pa, pyarrow.compute as pc, pyarrow.parquet as pq
      root, inputs, output = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
      out = pq.read_table(root + "/" + output)
      schema = out.schema
      def load(f):
          table = pq.read_table(root + "/" + f)
          return pa.table([table.column(c.name).cast(c.type) for c in schema], schema=schema)
      before = pa.concat_tables([load(f) for f in inputs])
      check("rows", lambda: (before.equals(out), "%d rows before, %d after" % (before.num_rows, out.num_rows)))
      meta = pq.ParquetFile(root + "/" + output).metadata
      def stats_ok():
          bad = []
          for g in range(meta.num_row_groups):
              group = out.slice(sum(meta.row_group(i).num_rows for i in range(g)), meta.row_group(g).num_rows)
              for c in range(meta.num_columns):
                  column = meta.row_group(g).column(c)
                  name = column.path_in_schema
                  st = column.statistics
                  values = group.column(name)
                  if st.null_count != values.null_count:
                      bad.append((name, "nulls", st.null_count, values.null_count))
                  minmax = pc.min_max(values).as_py()
                  if st.has_min_max and (st.min, st.max) != (minmax["min"], minmax["max"]):
                      bad.append((name, st.min, st.max, minmax))
          return not bad, bad
      check("statistics", stats_ok)
      encodings = {meta.row_group(0).column(c).path_in_schema: set(meta.row_group(0).column(c).encodings)
                   for c in range(meta.num_columns)}
      check("fallback", lambda: ({"PLAIN", "PLAIN_DICTIONARY"} <= encodings["g"]
                                 and {"PLAIN", "PLAIN_DICTIONARY"} <= encodings["s"], encodings))
      check("one entry", lambda: ("PLAIN_DICTIONARY" in encodings["k"], encodings))
      con = duckdb.connect()
      got = con.execute("SELECT count(*), sum(id), count(v), sum(v), count(s), min(s), max(s), count(b), "
                        "sum(dec), max(ts) FROM read_parquet('%s')" % (root + "/" + output)).fetchone()
      want = (out.num_rows, pc.sum(out["id"]).as_py(), out.num_rows - out["v"].null_count, pc.sum(out["v"]).as_py(),
              out.num_rows - out["s"].null_count, pc.min(out["s"]).as_py(), pc.max(out["s"]).as_py(),
              out.num_rows - out["b"].null_count, pc.sum(out["dec"]).as_py(), pc.max(out["ts"]).as_py())
      check("duckdb", lambda: (got[:3] == want[:3] and abs(got[3] - want[3]) < 1e-6 * abs(want[3]) and got[4:] == want[4:],
                               (got, want)))
      pruned = con.execute("SELECT count(*) FROM read_parquet('%s') WHERE id BETWEEN 123456 AND 125455"
                           % (root + "/" + output)).fetchone()[0]
      check("duckdb filter", lambda: (pruned == 2000, pruned))
      """;

  @TempDir Path dir;

  private static List<Object> row(long id) {
    // g and s repeat within a file (its writer keeps their dictionaries) but not across files: together
    // they outgrow a dictionary page
    long file = id / ROWS;
    return Arrays.asList("a", id, file * 100_000 + id % 15_000, "same", id % 7 == 0 ? null : id * 0.25,
        id % 5 == 0 ? null : "value-" + (file * 100_000 + id % 10_000),
        id % 3 == 0 ? null : id % 2 == 0, LocalDate.of(2024, 1, 1).plusDays(id % 1000),
        BigDecimal.valueOf(id * 7 - 1_000_000, 3), LocalDateTime.of(2024, 1, 1, 0, 0).plusNanos(id * 1000));
  }

  @Test
  void pyarrowAndDuckDbReadTheSameRowsAndStatisticsMatchThem() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      TestDataset dataset = new TestDataset(store, "big", SCHEMA, List.of("p"), List.of());
      for (int append = 0; append < APPENDS; append++) {
        List<List<Object>> rows = new ArrayList<>();
        for (long id = append * ROWS; id < (append + 1) * ROWS; id++) {
          rows.add(row(id));
        }
        dataset.append(rows);
      }
      List<String> inputs = dataset.filesInReadOrder("p=a").stream().map(f -> f.key("big")).toList();
      List<List<Object>> before = dataset.rows();

      Compactor compactor = Compactor.of(store, "big", CompactionSettings.defaults().withMinInputFiles(2));
      CompactionResult result = compactor.compact(compactor.plan());

      assertThat(result.partitions()).singleElement()
          .satisfies(partition -> assertThat(partition.outcome()).isEqualTo(Outcome.COMMITTED));
      assertThat(dataset.rows()).isEqualTo(before);
      DataFile output = dataset.state().files().values().iterator().next();
      PyChecks checks = PyChecks.run(CHECK, dir.toString(), new ObjectMapper().writeValueAsString(inputs),
          output.key("big"));
      for (String check : List.of("rows", "statistics", "fallback", "one entry", "duckdb", "duckdb filter")) {
        checks.assertOk(check);
      }
    }
  }
}
