package io.ktk.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.Python;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An ingest process killed with SIGKILL and started again on the same input and checkpoint
 * directory ends with each record exactly once. Both runs are {@code ./ktk ingest} processes on
 * this test's class path ({@code KTK_CLASSPATH}); {@code -Dktk.test.killRecords=N} changes the
 * input size (default 2,000,000 records).
 */
class IngestKillTest {
  private static final long RECORDS = Long.getLong("ktk.test.killRecords", 2_000_000);

  @TempDir Path dir;

  private Process start(Path input, Path checkpoints, String name) throws Exception {
    List<String> command = new ArrayList<>(List.of(Python.repoRoot().resolve("ktk").toString(), "ingest",
        "--store", dir.resolve("store").toUri().toString(), "--dataset", "events", "--schema", "id BIGINT, p STRING",
        "--partition-on", "p", "--input", input.toString(), "--checkpoint-dir", checkpoints.toString(),
        "--checkpoint-interval", "200ms", "--parallelism", "2"));
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
        .redirectOutput(dir.resolve(name + ".out").toFile()).redirectError(dir.resolve(name + ".err").toFile());
    builder.environment().put("KTK_CLASSPATH", System.getProperty("java.class.path"));
    return builder.start();
  }

  private long committedVersion() throws Exception {
    return new LogReader(new LocalObjectStore(dir.resolve("store")), "events").latest().version();
  }

  private long committedRows() throws Exception {
    DatasetState state = new LogReader(new LocalObjectStore(dir.resolve("store")), "events").latest();
    return state.files().values().stream().mapToLong(DataFile::rows).sum();
  }

  @Test
  void killedIngestStartedAgainEndsWithEachRecordOnce() throws Exception {
    Path input = dir.resolve("in.jsonl");
    try (BufferedWriter out = Files.newBufferedWriter(input, StandardCharsets.UTF_8)) {
      for (long i = 0; i < RECORDS; i++) {
        out.write("{\"id\":" + i + ",\"p\":\"p" + (i % 4) + "\"}\n");
      }
    }
    Path checkpoints = dir.resolve("checkpoints");

    Process first = start(input, checkpoints, "first");
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (committedVersion() < 2) {
      assertThat(first.isAlive()).as("the first run is still running; stderr: %s",
          Files.exists(dir.resolve("first.err")) ? Files.readString(dir.resolve("first.err")) : "").isTrue();
      assertThat(System.nanoTime()).as("two versions committed within 5 minutes").isLessThan(deadline);
      first.waitFor(50, TimeUnit.MILLISECONDS); // a bounded poll of the commit log
    }
    first.destroyForcibly(); // SIGKILL on Linux: no shutdown hooks, no cleanup
    assertThat(first.waitFor(1, TimeUnit.MINUTES)).isTrue();
    long rowsAfterKill = committedRows();
    assertThat(rowsAfterKill).as("rows committed when killed").isLessThan(RECORDS);

    Process second = start(input, checkpoints, "second");
    assertThat(second.waitFor(20, TimeUnit.MINUTES)).as("the second run finished").isTrue();
    String err = Files.readString(dir.resolve("second.err"));
    assertThat(second.exitValue()).as(err).isZero();
    assertThat(err).contains("Resuming the ingest from checkpoint");
    assertThat(Files.readString(dir.resolve("second.out")))
        .contains(RECORDS + " records read, " + RECORDS + " committed, 0 rejected");

    String ids = Python.run("""
        import json, os, sys
        import numpy as np, pyarrow.parquet as pq
        root = sys.argv[1]
        meta = json.load(open(os.path.join(root, "events.by-dataset-metadata.json")))
        ids = np.concatenate([pq.read_table(os.path.join(root, part["files"]["table"]), columns=["id"])
                              .column(0).to_numpy() for part in meta["partitions"].values()])
        print(len(ids), len(np.unique(ids)), ids.min(), ids.max())
        """, dir.resolve("store").toString());
    assertThat(ids.strip()).as("records, distinct ids, smallest and largest id (killed with %s rows committed)",
        rowsAfterKill).isEqualTo(RECORDS + " " + RECORDS + " 0 " + (RECORDS - 1));
  }
}
