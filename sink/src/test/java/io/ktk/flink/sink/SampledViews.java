package io.ktk.flink.sink;

import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.PyChecks;
import io.ktk.flink.state.testing.S3Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads the published plateau view of a dataset of {@link TestRows} with pyarrow, as plateau
 * does, every few seconds while others write, compact and collect garbage: the metadata JSON of
 * the moment, then every file it lists, from s3proxy. (A view's files outlive it by the log's
 * retention at least, so a reader slower than the retention may find one gone.) Each view must be readable, hold no id twice,
 * have each file's rows in its partition, and hold every id the view read before held.
 */
final class SampledViews implements Runnable {
  private static final String SCRIPT = """
      import urllib.parse
      import numpy as np, pyarrow.parquet as pq, pyarrow.fs as pafs
      view, base, previous, current = sys.argv[1:5]
      fs = pafs.S3FileSystem(access_key=sys.argv[5], secret_key=sys.argv[6], endpoint_override=sys.argv[7],
                             scheme="http", region="us-east-1")
      # The view of the moment, read once Python and pyarrow are loaded, as a plateau reader does.
      with fs.open_input_stream(base + "/" + view) as f:
          meta = json.load(f)
      ids, bad, missing = [], [], []
      for label, part in meta["partitions"].items():
          try:
              table = pq.read_table(base + "/" + part["files"]["table"], filesystem=fs)
          except OSError as e:  # FileNotFoundError, or a GetObject that found nothing
              if not isinstance(e, FileNotFoundError) and "NOT_FOUND" not in str(e):
                  raise
              missing.append(part["files"]["table"])
              continue
          p = urllib.parse.unquote(label.split("/")[0].split("=")[1])
          id_ = table.column("id").to_numpy()
          ids.append(id_)
          if not np.all(id_ % 7 == int(p[1:])):
              bad.append(label)
      all_ids = np.concatenate(ids) if ids else np.array([], dtype=np.int64)
      np.save(current, all_ids)
      check("files", lambda: (not missing, f"{len(missing)} files of {len(meta['partitions'])} are gone: {missing[:3]}"))
      check("partitions", lambda: (not bad, bad[:5]))
      check("unique", lambda: (len(np.unique(all_ids)) == len(all_ids), f"{len(all_ids) - len(np.unique(all_ids))} duplicates"))
      if previous != "-":
          before = np.load(previous)
          check("superset", lambda: (np.isin(before, all_ids).all(), f"{(~np.isin(before, all_ids)).sum()} ids of the view before are missing"))
      check("version", lambda: (True, meta["metadata"]["ktk_flink_log_version"]))
      """;

  private final ObjectStore store;
  private final S3Proxy s3;
  private final String prefix;
  private final String uuid;
  private final AtomicBoolean stop;
  private final Path work;
  private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
  private final List<String> versions = Collections.synchronizedList(new ArrayList<>());
  /** Views whose version expired while pyarrow read them (a file was gone). */
  private final List<String> outlived = Collections.synchronizedList(new ArrayList<>());

  SampledViews(ObjectStore store, S3Proxy s3, String prefix, String uuid, AtomicBoolean stop, Path work) {
    this.store = store;
    this.s3 = s3;
    this.prefix = prefix;
    this.uuid = uuid;
    this.stop = stop;
    this.work = work;
  }

  @Override
  public void run() {
    String previous = "-";
    for (int sample = 0; !stop.get(); sample++) {
      try {
        TimeUnit.SECONDS.sleep(2); // pacing: a Python run costs a second or two of a shared CPU
        if (store.head(DatasetKeys.metadataJsonKey(uuid)).isEmpty()) {
          continue; // nothing published yet
        }
        String current = work.resolve("ids-" + sample + ".npy").toString();
        PyChecks checks = PyChecks.run(SCRIPT, DatasetKeys.metadataJsonKey(uuid), S3Proxy.BUCKET + "/" + prefix,
            previous, current,
            S3Proxy.ACCESS_KEY, S3Proxy.SECRET_KEY, s3.endpoint().toString());
        List<String> names = new ArrayList<>(List.of("files", "partitions", "unique", "version"));
        if (!previous.equals("-")) {
          names.add("superset");
        }
        boolean filesGone = false;
        try {
          checks.assertOk("files");
        } catch (AssertionError e) {
          filesGone = true;
        }
        if (filesGone) {
          DatasetState latest = new LogReader(store, uuid).latest();
          if (Long.parseLong(checks.detail("version")) < latest.retainedFrom()) {
            outlived.add(checks.detail("version"));
            continue; // the view's version expired while pyarrow read it: its files may go, nothing to check
          }
        }
        for (String name : names) {
          try {
            checks.assertOk(name);
          } catch (AssertionError e) {
            DatasetState latest = new LogReader(store, uuid).latest();
            problems.add("view " + sample + " of version " + checks.detail("version") + ": " + e.getMessage()
                + " (the log is at version " + latest.version() + ", retained from " + latest.retainedFrom() + ")");
          }
        }
        versions.add(checks.detail("version"));
        previous = current;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (Exception e) {
        problems.add("view " + sample + " could not be read: " + e);
      }
    }
  }

  /** The versions of views that expired while they were read. */
  List<String> outlived() {
    return List.copyOf(outlived);
  }

  /** The log versions of the views read. */
  List<String> versions() {
    return List.copyOf(versions);
  }

  List<String> problems() {
    return List.copyOf(problems);
  }
}
