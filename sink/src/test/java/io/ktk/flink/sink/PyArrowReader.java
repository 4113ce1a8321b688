package io.ktk.flink.sink;

import io.ktk.flink.state.testing.PyChecks;
import io.ktk.flink.state.testing.S3Proxy;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads a dataset with pyarrow the way plateau does (the published metadata JSON, then each data
 * file with the partition value from its label) and checks that it holds rows {@code 0 .. n - 1}
 * of {@link TestRows} exactly once, that {@code _common_metadata} has the dataset's schema and
 * that the index of {@code c} lists the files of each value.
 */
final class PyArrowReader {
  private static final String SCRIPT = """
      import json, sys, urllib.parse
      import numpy as np, pyarrow as pa, pyarrow.parquet as pq, pyarrow.fs as pafs
      kind, base, uuid, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
      if kind == "local":
          fs = pafs.LocalFileSystem()
      else:
          fs = pafs.S3FileSystem(access_key=sys.argv[5], secret_key=sys.argv[6], endpoint_override=sys.argv[7],
                                 scheme="http", region="us-east-1")
      def read_json(key):
          with fs.open_input_stream(base + "/" + key) as f:
              return json.loads(f.read())
      meta = read_json(uuid + ".by-dataset-metadata.json")
      ids, labels_by_c, bad = [], {}, []
      for label, part in meta["partitions"].items():
          table = pq.read_table(base + "/" + part["files"]["table"], filesystem=fs)
          p = urllib.parse.unquote(label.split("/")[0].split("=")[1])
          id_ = table.column("id").to_numpy()
          ids.append(id_)
          if not np.all(id_ % 7 == int(p[1:])):
              bad.append(label)
          for c in set(table.column("c").to_pylist()):
              labels_by_c.setdefault(c, set()).add(label)
      all_ids = np.concatenate(ids) if ids else np.array([], dtype=np.int64)
      check("count", lambda: (len(all_ids) == count, f"{len(all_ids)} rows for {count}"))
      check("unique", lambda: (len(np.unique(all_ids)) == len(all_ids), f"{len(all_ids) - len(np.unique(all_ids))} duplicates"))
      check("range", lambda: (len(all_ids) == 0 or (all_ids.min() == 0 and all_ids.max() == count - 1), "ids out of range"))
      check("partitions", lambda: (not bad, bad[:5]))
      schema = pq.read_schema(base + "/" + uuid + "/table/_common_metadata", filesystem=fs)
      expected = pa.schema([("p", pa.string()), ("c", pa.int64()), ("id", pa.int64()), ("s", pa.string()),
                            ("ts", pa.timestamp("us")), ("v", pa.float64())])
      check("common_metadata", lambda: (schema.remove_metadata().equals(expected), str(schema)))
      index = pq.read_table(base + "/" + meta["indices"]["c"], filesystem=fs).to_pylist()
      found = {r["c"]: set(r["partition"]) for r in index}
      check("index", lambda: (found == labels_by_c, "index differs from the files"))
      """;

  private PyArrowReader() {}

  static void assertExactlyOnce(Path root, String uuid, long count) {
    assertChecks(PyChecks.run(SCRIPT, "local", root.toString(), uuid, Long.toString(count)));
  }

  static void assertExactlyOnce(S3Proxy s3, String prefix, String uuid, long count) {
    assertChecks(PyChecks.run(SCRIPT, "s3", S3Proxy.BUCKET + "/" + prefix, uuid, Long.toString(count), S3Proxy.ACCESS_KEY,
        S3Proxy.SECRET_KEY, s3.endpoint().toString()));
  }

  private static void assertChecks(PyChecks checks) {
    for (String check : List.of("count", "unique", "range", "partitions", "common_metadata", "index")) {
      checks.assertOk(check);
    }
  }
}
