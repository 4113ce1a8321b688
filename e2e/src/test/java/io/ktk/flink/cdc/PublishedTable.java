package io.ktk.flink.cdc;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.state.testing.PyChecks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;

/**
 * Reads the published plateau view of a dataset as plateau does (its metadata JSON, each file it
 * lists, partition values from the labels) with pyarrow, and the same files with DuckDB, and checks
 * that both hold exactly the expected rows, with no key twice and no {@code __ktk_deleted} column.
 * Partition columns are compared as strings.
 */
public final class PublishedTable {
  private static final String SCRIPT = """
      import duckdb, urllib.parse
      import pyarrow as pa, pyarrow.parquet as pq
      root, uuid, spec_path = sys.argv[1], sys.argv[2], sys.argv[3]
      spec = json.load(open(spec_path))
      columns, key = spec["columns"], spec["key"]
      expected = sorted(tuple(r) for r in spec["expected"])
      meta = json.load(open(root + "/" + uuid + ".by-dataset-metadata.json"))
      files = {label: part["files"]["table"] for label, part in meta["partitions"].items()}
      def differ(got):
          g, e = set(got), set(expected)
          return f"{len(got)} rows, {len(expected)} expected; extra {sorted(g - e)[:3]}, missing {sorted(e - g)[:3]}"
      def by_pyarrow():
          tables = []
          for label, file in files.items():
              t = pq.read_table(root + "/" + file)
              if "__ktk_deleted" in t.column_names:
                  return False, f"{label} has __ktk_deleted"
              for segment in label.split("/")[:-1]:
                  name, value = segment.split("=", 1)
                  t = t.append_column(name, pa.array([urllib.parse.unquote(value)] * t.num_rows, pa.string()))
              tables.append(t.select(columns))
          got = sorted(zip(*[pa.concat_tables(tables).column(c).to_pylist() for c in columns])) if tables else []
          keys = [tuple(r[columns.index(c)] for c in key) for r in got]
          if len(set(keys)) != len(keys):
              return False, f"{len(keys) - len(set(keys))} keys twice"
          return got == expected, differ(got)
      check("pyarrow", by_pyarrow)
      def by_duckdb():
          paths = [root + "/" + f for f in files.values()]
          got = sorted(duckdb.sql("SELECT " + ", ".join(columns) + " FROM read_parquet(" + repr(paths)
                                  + ", hive_partitioning = true)").fetchall()) if paths else []
          return got == expected, differ(got)
      check("duckdb", by_duckdb)
      """;

  private PublishedTable() {}

  public static void assertRows(Path root, String uuid, List<String> columns, List<String> key,
      Collection<List<Object>> expected, Path work) throws IOException {
    ObjectMapper json = new ObjectMapper();
    ObjectNode spec = json.createObjectNode();
    columns.forEach(spec.putArray("columns")::add);
    key.forEach(spec.putArray("key")::add);
    ArrayNode rows = spec.putArray("expected");
    expected.forEach(row -> rows.add(json.valueToTree(row)));
    Files.createDirectories(work);
    Path file = work.resolve(uuid + "-expected.json");
    json.writeValue(file.toFile(), spec);
    PyChecks checks = PyChecks.run(SCRIPT, root.toString(), uuid, file.toString());
    checks.assertOk("pyarrow");
    checks.assertOk("duckdb");
  }
}
