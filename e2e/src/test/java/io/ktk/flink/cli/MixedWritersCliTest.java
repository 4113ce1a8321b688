package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.Python;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dataset written by {@code ktk ingest} and appended to the way plateau's {@code
 * update_dataset_from_dataframes} does it (a new Parquet file, a new index file, the metadata JSON
 * rewritten with its metadata kept; done here with pyarrow): the next ingest adopts plateau's rows
 * instead of dropping them from the view, {@code ktk adopt} does the same for an idle dataset, and
 * {@code ktk gc} never deletes plateau's file.
 */
class MixedWritersCliTest {
  /** plateau's append: one file of rows (id, c) under partition p=VALUE, the index on c updated. */
  private static final String PLATEAU_APPEND = """
      import datetime, json, os, sys, uuid
      import pyarrow as pa, pyarrow.parquet as pq
      root, ds, p, first, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
      meta_path = os.path.join(root, ds + ".by-dataset-metadata.json")
      meta = json.load(open(meta_path))
      label = "p=" + p + "/" + uuid.uuid4().hex
      key = ds + "/table/" + label + ".parquet"
      ids = list(range(first, first + count))
      os.makedirs(os.path.dirname(os.path.join(root, key)), exist_ok=True)
      pq.write_table(pa.table({"c": pa.array([i % 5 for i in ids], pa.int64()),
                               "id": pa.array(ids, pa.int64())}), os.path.join(root, key))
      meta["partitions"][label] = {"files": {"table": key}}
      for column, index_key in list(meta.get("indices", {}).items()):
          index = pq.read_table(os.path.join(root, index_key)).to_pydict()
          labels = dict(zip(index[column], index["partition"]))
          for i in ids:
              labels.setdefault(i % 5, [])
              if label not in labels[i % 5]:
                  labels[i % 5].append(label)
          new_key = ds + "/indices/" + column + "/" + datetime.datetime.now().isoformat().replace(":", "%3A") \\
              + ".by-dataset-index.parquet"
          values = sorted(labels)
          pq.write_table(pa.table({column: pa.array(values, pa.int64()),
                                   "partition": pa.array([labels[v] for v in values], pa.list_(pa.string()))}),
                         os.path.join(root, new_key))
          meta["indices"][column] = new_key
      json.dump(meta, open(meta_path, "w"))
      print(label)
      """;

  @TempDir Path dir;
  @TempDir Path work;

  private KtkRun ingest(int first, int count) throws IOException {
    Path input = work.resolve("input-" + first + ".jsonl");
    StringBuilder lines = new StringBuilder();
    for (int id = first; id < first + count; id++) {
      lines.append("{\"id\": ").append(id).append(", \"p\": \"a\", \"c\": ").append(id % 5).append("}\n");
    }
    Files.writeString(input, lines);
    return ktk("ingest", "--store", dir.toUri().toString(), "--dataset", "events", "--schema",
        "id BIGINT, p STRING, c BIGINT", "--partition-on", "p", "--index-on", "c", "--input", input.toString());
  }

  private List<String> ids() {
    KtkRun read = ktk("read", "--store", dir.toUri().toString(), "--dataset", "events", "--columns", "id");
    assertThat(read.exitCode()).as(read.toString()).isZero();
    return read.out().lines().skip(1).sorted().toList();
  }

  @Test
  void plateausAppendSurvivesTheNextIngestAndGc() throws IOException {
    KtkRun first = ingest(0, 10);
    assertThat(first.exitCode()).as(first.toString()).isZero();
    String label = Python.run(PLATEAU_APPEND, dir.toString(), "events", "b", "100", "5").strip();

    KtkRun second = ingest(10, 10);
    assertThat(second.exitCode()).as(second.toString()).isZero();
    assertThat(ids()).hasSize(25).contains("100", "104");
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetMetadata view = DatasetMetadata.load(store, "events").orElseThrow();
      assertThat(view.fileKeys()).containsKey(label);
    }
    KtkRun byIndex = ktk("read", "--store", dir.toUri().toString(), "--dataset", "events", "--columns", "id",
        "--where", "c == 3");
    assertThat(byIndex.out().lines().skip(1).sorted()).containsExactly("103", "13", "18", "3", "8");

    KtkRun gc = ktk("gc", "--store", dir.toUri().toString(), "--dataset", "events", "--older-than", "0s", "--force");
    assertThat(gc.exitCode()).as(gc.toString()).isZero();
    assertThat(gc.out()).doesNotContain(label);
    assertThat(ids()).hasSize(25);
    KtkRun validate = ktk("validate", "--store", dir.toUri().toString(), "--dataset", "events");
    assertThat(validate.exitCode()).as(validate.toString()).isZero();
  }

  @Test
  void anIdleDatasetAdoptsPlateausAppendOnRequest() throws IOException {
    assertThat(ingest(0, 10).exitCode()).isZero();
    Python.run(PLATEAU_APPEND, dir.toString(), "events", "a", "50", "3");
    assertThat(ids()).as("the log does not know plateau's file yet").hasSize(10);

    KtkRun adopt = ktk("adopt", "--store", dir.toUri().toString(), "--dataset", "events");
    assertThat(adopt.exitCode()).as(adopt.toString()).isZero();
    assertThat(adopt.out()).contains("adopted another writer's change as version 1");
    assertThat(ids()).hasSize(13).contains("50", "51", "52");
    KtkRun again = ktk("adopt", "--store", dir.toUri().toString(), "--dataset", "events");
    assertThat(again.out()).contains("nothing to adopt");
  }
}
