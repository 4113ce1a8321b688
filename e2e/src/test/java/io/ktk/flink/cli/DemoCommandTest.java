package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.demo.DemoJob;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.Python;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** README's main command: the demo job on an embedded Flink into a local directory. */
class DemoCommandTest {
  @TempDir Path dir;

  @Test
  void demoStreamsEveryReadingOnceAndPlateauReadersAgree() throws Exception {
    KtkRun first = ktk("demo", "--store", dir.toUri().toString(), "--records", "20000", "--checkpoint-interval", "200ms");
    assertThat(first.exitCode()).as(first.toString()).isZero();
    assertThat(first.out()).contains("20000 rows").contains("./ktk read");

    KtkRun second = ktk("demo", "--store", dir.toUri().toString(), "--records", "5000");
    assertThat(second.exitCode()).as(second.toString()).isZero();
    DatasetSnapshot snapshot = DatasetSnapshot.latest(new LocalObjectStore(dir), DemoJob.DATASET);
    assertThat(snapshot.rows()).as("a second run appends").isEqualTo(25_000);
    assertThat(snapshot.partitions()).hasSize(7);

    // pyarrow, reading the files the published metadata names: every event of both runs, no more.
    String counts = Python.run("""
        import json, os, sys, collections
        import pyarrow.parquet as pq
        root = sys.argv[1]
        meta = json.load(open(os.path.join(root, "demo_readings.by-dataset-metadata.json")))
        ids = collections.Counter()
        for part in meta["partitions"].values():
            ids.update(pq.read_table(os.path.join(root, part["files"]["table"]), columns=["event_id"]).column(0).to_pylist())
        print(sum(ids.values()), len(ids), sum(1 for i, n in ids.items() if n == 2), max(ids), meta["indices"] != {})
        """, dir.toString());
    // Ids 0..4999 were written by both runs, 5000..19999 by the first only.
    assertThat(counts.strip()).isEqualTo("25000 20000 5000 19999 True");
  }
}
