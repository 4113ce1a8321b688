package io.ktk.flink.sink;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.commit.PlateauPublisher;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.PyChecks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
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
   * partition values from each label), with pandas and with DuckDB ({@code read_parquet} of the
   * listed files with hive partitioning), and checks that each holds exactly the expected rows: no
   * key twice, no deleted key, no {@code __ktk_deleted} column, every value equal. Partition
   * columns are compared as strings.
   *
   * @param columns the columns compared, in the order of the expected rows' values
   * @param key the primary key's columns
   * @param expected per view, the rows expected
   */
  static void assertViews(Path root, List<View> views, List<String> columns, List<String> key,
      List<? extends Collection<List<Object>>> expected, Path work) throws IOException {
    ObjectMapper json = new ObjectMapper();
    ObjectNode spec = json.createObjectNode();
    columns.forEach(spec.putArray("columns")::add);
    key.forEach(spec.putArray("key")::add);
    ArrayNode samples = spec.putArray("samples");
    for (int i = 0; i < views.size(); i++) {
      ObjectNode sample = samples.addObject();
      sample.put("version", views.get(i).version());
      ObjectNode files = sample.putObject("files");
      views.get(i).files().forEach(files::put);
      ArrayNode rows = sample.putArray("expected");
      for (List<Object> row : expected.get(i)) {
        rows.add(json.valueToTree(row));
      }
    }
    Path specFile = work.resolve("views.json");
    Files.createDirectories(work);
    json.writeValue(specFile.toFile(), spec);
    PyChecks checks = PyChecks.run(SCRIPT, root.toString(), specFile.toString());
    for (View view : views) {
      for (String reader : List.of("pyarrow", "pandas", "duckdb")) {
        checks.assertOk(reader + "@" + view.version());
      }
    }
  }

  private static final String SCRIPT = """
      import duckdb, urllib.parse
      import pyarrow as pa, pyarrow.parquet as pq
      root, spec_path = sys.argv[1], sys.argv[2]
      spec = json.load(open(spec_path))
      columns, key = spec["columns"], spec["key"]
      def label_values(label):
          return dict((s.split("=", 1)[0], urllib.parse.unquote(s.split("=", 1)[1])) for s in label.split("/")[:-1])
      def differ(got, expected):
          g, e = set(got), set(expected)
          return f"{len(got)} rows, {len(expected)} expected; extra {sorted(g - e)[:3]}, missing {sorted(e - g)[:3]}"
      for sample in spec["samples"]:
          v = sample["version"]
          expected = sorted(tuple(r) for r in sample["expected"])
          tables = []
          for label, file in sample["files"].items():
              t = pq.read_table(root + "/" + file)
              for name, value in label_values(label).items():
                  t = t.append_column(name, pa.array([value] * t.num_rows, pa.string()))
              tables.append(t)
          table = pa.concat_tables([t.select(columns) for t in tables]) if tables else None
          def by_pyarrow():
              bad = [l for l, f in sample["files"].items() if "__ktk_deleted" in pq.read_schema(root + "/" + f).names]
              if bad:
                  return False, f"files with __ktk_deleted: {bad[:3]}"
              got = sorted(zip(*[table.column(c).to_pylist() for c in columns])) if table else []
              return got == expected, differ(got, expected)
          check(f"pyarrow@{v}", by_pyarrow)
          def by_pandas():
              df = table.to_pandas() if table else None
              n = 0 if df is None else len(df)
              dup = 0 if df is None else int(df.duplicated(key).sum())
              keys = set() if df is None else set(zip(*[df[c] for c in key]))
              at = [columns.index(c) for c in key]
              return dup == 0 and n == len(expected) and keys == {tuple(r[i] for i in at) for r in expected}, \\
                  f"{n} rows, {len(expected)} expected, {dup} keys twice"
          check(f"pandas@{v}", by_pandas)
          def by_duckdb():
              paths = [root + "/" + f for f in sample["files"].values()]
              if not paths:
                  return expected == [], "no files"
              got = sorted(duckdb.sql("SELECT " + ", ".join(columns) + " FROM read_parquet(" + repr(paths)
                                      + ", hive_partitioning = true, union_by_name = true)").fetchall())
              return got == expected, differ(got, expected)
          check(f"duckdb@{v}", by_duckdb)
      """;
}
