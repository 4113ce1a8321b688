package io.ktk.flink.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.sink.Changelogs.Row;
import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.commit.PlateauPublisher;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.PyChecks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Watches the published plateau view of a dataset while a job writes it: every view seen (the log
 * version it shows and the files it lists) is kept, so that each can be read afterwards as plateau,
 * pandas and DuckDB read it (the files never change) and compared with the table the test expects
 * at that version.
 */
final class PublishedViews implements AutoCloseable {
  /** A view: the log version whose state it shows, and its files (label to store key). */
  record View(long version, Map<String, String> files) {}

  private final ObjectStoreFactory storeFactory;
  private final String uuid;
  private final List<View> views = new CopyOnWriteArrayList<>();
  private final Thread thread;
  private volatile boolean stopped;
  private volatile Throwable failure;

  PublishedViews(ObjectStoreFactory store, String uuid) {
    this.storeFactory = store;
    this.uuid = uuid;
    this.thread = new Thread(this::watch, "view watcher " + uuid);
    this.thread.setDaemon(true);
    this.thread.start();
  }

  private void watch() {
    try (ObjectStore store = storeFactory.open()) {
      long last = -1;
      while (true) {
        boolean lastLook = stopped; // after close, one more look: the job's last publication
        Optional<DatasetMetadata> view = DatasetMetadata.load(store, uuid);
        if (view.isPresent()) {
          long version = view.get().metadata().get(PlateauPublisher.LOG_VERSION_KEY).asLong();
          if (version != last) {
            views.add(new View(version, new TreeMap<>(view.get().fileKeys())));
            last = version;
          }
        }
        if (lastLook) {
          return;
        }
        Thread.sleep(100);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable e) {
      failure = e;
    }
  }

  /** The views seen so far, in the order they were published. */
  List<View> views() {
    if (failure != null) {
      throw new AssertionError("the view watcher failed", failure);
    }
    return List.copyOf(views);
  }

  @Override
  public void close() throws InterruptedException {
    stopped = true;
    thread.join();
  }

  /**
   * Reads each view under a local store root {@code root} with pyarrow (as plateau: the listed files,
   * the partition value from each label), with pandas and with DuckDB ({@code read_parquet} of the
   * listed files with hive partitioning), and checks that each holds exactly the expected table:
   * no key twice, no deleted key, no {@code __ktk_deleted} column, every value equal.
   *
   * @param expected per view, the table expected
   */
  static void assertViews(Path root, List<View> views, List<Map<Long, Row>> expected, Path work) throws IOException {
    ObjectMapper json = new ObjectMapper();
    ArrayNode spec = json.createArrayNode();
    for (int i = 0; i < views.size(); i++) {
      ObjectNode sample = spec.addObject();
      sample.put("version", views.get(i).version());
      ObjectNode files = sample.putObject("files");
      views.get(i).files().forEach(files::put);
      ArrayNode rows = sample.putArray("expected");
      for (Row row : expected.get(i).values()) {
        ArrayNode values = rows.addArray();
        values.add(row.k()).add(row.p());
        if (row.v() == null) {
          values.addNull();
        } else {
          values.add(row.v());
        }
        values.add(row.s()).add(row.seq());
      }
    }
    Path specFile = work.resolve("views.json");
    Files.createDirectories(work);
    json.writeValue(specFile.toFile(), spec);
    PyChecks checks = PyChecks.run(SCRIPT, root.toString(), specFile.toString());
    List<String> names = new ArrayList<>();
    for (JsonNode sample : spec) {
      for (String reader : List.of("pyarrow", "pandas", "duckdb")) {
        names.add(reader + "@" + sample.get("version").asLong());
      }
    }
    for (String name : names) {
      checks.assertOk(name);
    }
  }

  private static final String SCRIPT = """
      import duckdb, urllib.parse
      import pyarrow as pa, pyarrow.parquet as pq
      root, spec_path = sys.argv[1], sys.argv[2]
      spec = json.load(open(spec_path))
      def rows_of(table):
          return sorted(zip(*[table.column(c).to_pylist() for c in ["k", "p", "v", "s", "seq"]]))
      for sample in spec:
          v = sample["version"]
          expected = sorted(tuple(r) for r in sample["expected"])
          tables = []
          for label, key in sample["files"].items():
              t = pq.read_table(root + "/" + key)
              p = urllib.parse.unquote(label.split("/")[0].split("=", 1)[1])
              tables.append(t.append_column("p", pa.array([p] * t.num_rows, pa.string())))
          def by_pyarrow():
              bad = [l for l, k in sample["files"].items() if "__ktk_deleted" in pq.read_schema(root + "/" + k).names]
              if bad:
                  return False, f"files with __ktk_deleted: {bad[:3]}"
              got = rows_of(pa.concat_tables([t.select(["k", "p", "v", "s", "seq"]) for t in tables])) if tables else []
              if got == expected:
                  return True, ""
              g, e = set(got), set(expected)
              return False, f"{len(got)} rows, {len(expected)} expected; extra {sorted(g - e)[:3]}, missing {sorted(e - g)[:3]}"
          check(f"pyarrow@{v}", by_pyarrow)
          def by_pandas():
              df = pa.concat_tables([t.select(["k", "p", "v", "s", "seq"]) for t in tables]).to_pandas() if tables else None
              n = 0 if df is None else len(df)
              dup = 0 if df is None else int(df.duplicated(["k", "p"]).sum())
              keys = set() if df is None else set(zip(df["k"], df["p"]))
              return dup == 0 and n == len(expected) and keys == {(r[0], r[1]) for r in expected}, \\
                  f"{n} rows, {len(expected)} expected, {dup} keys twice"
          check(f"pandas@{v}", by_pandas)
          def by_duckdb():
              paths = [root + "/" + k for k in sample["files"].values()]
              if not paths:
                  return expected == [], "no files"
              got = duckdb.sql("SELECT k, p, v, s, seq FROM read_parquet(" + repr(paths)
                               + ", hive_partitioning = true, union_by_name = true)").fetchall()
              got = sorted(got)
              if got == expected:
                  return True, ""
              g, e = set(got), set(expected)
              return False, f"{len(got)} rows, {len(expected)} expected; extra {sorted(g - e)[:3]}, missing {sorted(e - g)[:3]}"
          check(f"duckdb@{v}", by_duckdb)
      """;
}
