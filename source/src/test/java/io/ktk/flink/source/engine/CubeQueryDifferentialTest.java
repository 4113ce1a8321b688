package io.ktk.flink.source.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.InvalidQueryException;
import io.ktk.flink.source.query.QuerySemantics;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.Python;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random cubes and random queries, answered by the planner and reader and by DuckDB SQL over the
 * same Parquet files ({@link RandomQuery} states the semantics in SQL), each query with this
 * project's semantics and with Kartothek's. Seeded: {@code
 * -Dktk.seed=<n>} replays a run, {@code -Dktk.cubes=<n>} changes its size; a failing case prints its
 * seed, the cube (every file's rows), the query, the SQL and both results.
 */
class CubeQueryDifferentialTest {
  private static final int QUERIES_PER_CUBE = 6;
  private static final String DUCKDB = """
      import duckdb, json, math, struct, sys, datetime
      cases = json.load(open(sys.argv[1]))
      def canon(v):
          if v is None:
              return "null"
          if isinstance(v, bool):
              return "true" if v else "false"
          if isinstance(v, int):
              return str(v)
          if isinstance(v, float):
              # -0.0 == 0.0, and DuckDB's joins and sorts turn -0.0 into 0.0
              return "nan" if math.isnan(v) else str(struct.unpack(">q", struct.pack(">d", v + 0.0))[0])
          if isinstance(v, str):
              return v.encode("utf-8").hex()
          if isinstance(v, (datetime.date, datetime.datetime)):
              return v.isoformat()
          if isinstance(v, (bytes, bytearray)):
              return bytes(v).hex()
          raise TypeError(type(v))
      out = {}
      con = duckdb.connect()
      # row-group statistics as plateau reads them (pyarrow), for Kartothek's skipping of row groups
      import os, pyarrow.parquet as pq
      stats = []
      for folder, _, names in os.walk(sys.argv[3]):
          for name in names:
              if not name.endswith(".parquet"):
                  continue
              path = os.path.join(folder, name)
              metadata = pq.ParquetFile(path).metadata
              first = 0
              for g in range(metadata.num_row_groups):
                  group = metadata.row_group(g)
                  for c in range(group.num_columns):
                      column = group.column(c)
                      s = column.statistics
                      if s is not None and s.has_min_max:
                          stats.append((path, column.path_in_schema, first, group.num_rows, canon(s.min), canon(s.max)))
                  first += group.num_rows
      con.execute("CREATE TABLE rowgroups (fname VARCHAR, col VARCHAR, first_row BIGINT, num_rows BIGINT,"
                  " min_val VARCHAR, max_val VARCHAR)")
      if stats:
          con.executemany("INSERT INTO rowgroups VALUES (?, ?, ?, ?, ?, ?)", stats)
      # Parquet writers leave NaN out of float min/max statistics; DuckDB 1.5 prunes row groups by
      # them anyway and loses NaN rows (a file of [NaN, -1.5] has max -1.5, so 'd > 0.5' skips it).
      # The reference must see every row.
      con.execute("SET disabled_optimizers = 'filter_pushdown,statistics_propagation'")
      for case in cases:
          try:
              rows = con.sql(case["sql"]).fetchall()
              out[case["id"]] = {"rows": [[canon(v) for v in row] for row in rows]}
          except Exception as e:
              out[case["id"]] = {"error": str(e)}
      json.dump(out, open(sys.argv[2], "w"))
      """;

  @TempDir Path dir;

  private record Case(String id, long seed, RandomCube cube, RandomQuery query, String sql, List<List<String>> actual,
      String error) {}

  @Test
  void randomCubeQueriesReturnWhatDuckDbComputesOverTheSameFiles() throws IOException {
    long seed = Long.getLong("ktk.seed", 20240611L);
    int cubes = Integer.getInteger("ktk.cubes", 40);
    List<Case> cases = new ArrayList<>();
    long prunedRowGroups = 0;
    int subsetPartitioned = 0;
    int unpartitioned = 0;
    for (int c = 0; c < cubes; c++) {
      long cubeSeed = seed * 1_000_003L + c;
      Random random = new Random(cubeSeed);
      Path root = dir.resolve("cube" + c);
      ObjectStore store = new LocalObjectStore(root);
      RandomCube cube = RandomCube.write(random, store, "c" + c);
      for (RandomCube.Dataset dataset : cube.datasets) {
        subsetPartitioned += dataset.partitions().size() < cube.partitionColumns.size() ? 1 : 0;
        unpartitioned += dataset.partitions().isEmpty() ? 1 : 0;
      }
      CubeSnapshot snapshot = CubeSnapshot.latest(store, cube.spec.name());
      for (int q = 0; q < QUERIES_PER_CUBE; q++) {
        RandomQuery generated = RandomQuery.generate(cube, random);
        // each query with this project's semantics and with Kartothek's
        for (QuerySemantics semantics : QuerySemantics.values()) {
          RandomQuery query = generated.with(semantics);
          if (semantics == QuerySemantics.KARTOTHEK && query.hasNaNLiteral()) {
            assertThatThrownBy(() -> snapshot.plan(query.toQuery())).isInstanceOf(InvalidQueryException.class)
                .hasMessageContaining("with nan");
            continue;
          }
          List<List<String>> actual = null;
          String error = null;
          try {
            QueryPlan plan = snapshot.plan(query.toQuery());
            actual = new ArrayList<>();
            // on 1, 2 or 3 threads: partitions read ahead in parallel must come back in the same order
            CubeReader reader = new CubeReader(store, plan, true, 1 + q % 3);
            Iterator<List<Object>> rows = reader.rows();
            while (rows.hasNext()) {
              actual.add(rows.next().stream().map(RandomCube::canonical).toList());
            }
            prunedRowGroups += reader.rowGroups().pruned();
          } catch (RuntimeException e) {
            error = e.toString();
          }
          String id = c + "." + q + (semantics == QuerySemantics.KARTOTHEK ? "k" : "");
          cases.add(new Case(id, cubeSeed, cube, query, query.sql(root), actual, error));
        }
      }
    }

    ObjectMapper json = new ObjectMapper();
    ArrayNode input = json.createArrayNode();
    for (Case c : cases) {
      ObjectNode node = input.addObject();
      node.put("id", c.id());
      node.put("sql", c.sql());
    }
    Path in = dir.resolve("cases.json");
    Path out = dir.resolve("results.json");
    Files.write(in, json.writeValueAsBytes(input));
    Python.run(DUCKDB, in.toString(), out.toString(), dir.toString());
    JsonNode results = json.readTree(out.toFile());

    int nonEmpty = 0;
    for (Case c : cases) {
      JsonNode result = results.get(c.id());
      String context = "case " + c.id() + " (-Dktk.seed=" + seed + ", cube seed " + c.seed() + ")\n" + c.cube().description
          + c.query() + "\nSQL: " + c.sql();
      assertThat(result.has("error")).as("DuckDB failed: %s\n%s", result.path("error").asText(), context).isFalse();
      List<List<String>> expected = new ArrayList<>();
      result.get("rows").forEach(row -> {
        List<String> values = new ArrayList<>();
        row.forEach(v -> values.add(v.asText()));
        expected.add(values);
      });
      assertThat(c.error()).as("our query failed\n%s", context).isNull();
      assertThat(c.actual()).as("rows differ from DuckDB's\n%s\nexpected: %s\nactual:   %s", context, expected, c.actual())
          .isEqualTo(expected);
      if (!expected.isEmpty()) {
        nonEmpty++;
      }
    }
    assertThat(cases).hasSizeGreaterThanOrEqualTo(400);
    // the generator must produce mostly non-trivial results, or the comparison proves little
    assertThat(nonEmpty).isGreaterThan(cases.size() / 2);
    // enrichments partitioned by some of the partition columns (or none) must take part
    assertThat(subsetPartitioned).as("enrichments partitioned by a subset").isGreaterThan(cubes / 4);
    assertThat(unpartitioned).as("enrichments without partition columns").isGreaterThan(cubes / 20);
    // and row groups must be pruned, or the comparison says nothing about pruning
    assertThat(prunedRowGroups).as("row groups pruned over all cases").isGreaterThan(cases.size());
  }
}
