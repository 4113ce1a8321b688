package io.ktk.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.ingest.CheckpointDirectoryLock;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.DatasetKeys;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.testing.Python;
import java.io.BufferedWriter;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code ./ktk ingest} processes at once (on this test's class path, {@code KTK_CLASSPATH}):
 * with the same checkpoint directory the second is refused while the first runs; into the same
 * dataset each counts only its own records.
 */
class IngestConcurrencyTest {
  @TempDir Path dir;

  private Process ingest(String name, String... more) throws Exception {
    List<String> command = new ArrayList<>(List.of(Python.repoRoot().resolve("ktk").toString(), "ingest",
        "--store", dir.resolve("store").toUri().toString(), "--dataset", "events", "--schema", "id BIGINT, p STRING",
        "--partition-on", "p", "--checkpoint-interval", "200ms", "--parallelism", "2"));
    command.addAll(List.of(more));
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
        .redirectOutput(dir.resolve(name + ".out").toFile()).redirectError(dir.resolve(name + ".err").toFile());
    builder.environment().put("KTK_CLASSPATH", System.getProperty("java.class.path"));
    return builder.start();
  }

  private String err(String name) throws Exception {
    Path file = dir.resolve(name + ".err");
    return Files.exists(file) ? Files.readString(file) : "";
  }

  private String out(String name) throws Exception {
    return Files.readString(dir.resolve(name + ".out"));
  }

  private Path input(String name, long from, long count) throws Exception {
    Path file = dir.resolve(name);
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (long i = from; i < from + count; i++) {
        out.write("{\"id\":" + i + ",\"p\":\"p" + (i % 4) + "\"}\n");
      }
    }
    return file;
  }

  private long committedVersions() throws Exception {
    return new LogReader(new LocalObjectStore(dir.resolve("store")), "events").latest().version() + 1;
  }

  /** Record count, distinct ids, smallest and largest id, as pyarrow reads the published dataset. */
  private String ids() {
    return Python.run("""
        import json, os, sys
        import numpy as np, pyarrow.parquet as pq
        root = sys.argv[1]
        meta = json.load(open(os.path.join(root, "events.by-dataset-metadata.json")))
        ids = np.concatenate([pq.read_table(os.path.join(root, part["files"]["table"]), columns=["id"])
                              .column(0).to_numpy() for part in meta["partitions"].values()])
        print(len(ids), len(np.unique(ids)), ids.min(), ids.max())
        """, dir.resolve("store").toString()).strip();
  }

  private void waitUntil(Process running, String name, java.util.concurrent.Callable<Boolean> condition)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (!condition.call()) {
      assertThat(running.isAlive()).as("%s is still running; stderr: %s", name, err(name)).isTrue();
      assertThat(System.nanoTime()).as("the condition within 5 minutes").isLessThan(deadline);
      running.waitFor(50, TimeUnit.MILLISECONDS); // a bounded poll
    }
  }

  @Test
  void aSecondIngestWithTheSameCheckpointDirectoryIsRefusedWhileTheFirstWaitsForItsInput() throws Exception {
    Path checkpoints = dir.resolve("checkpoints");
    Path lockFile = checkpoints.resolve(CheckpointDirectoryLock.FILE);
    // The first reads stdin, which stays open until the test writes it: it holds the directory until then.
    Process first = ingest("first", "--checkpoint-dir", checkpoints.toString());
    waitUntil(first, "first", () -> Files.exists(lockFile) && Files.readString(lockFile).strip()
        .equals(String.valueOf(first.pid())));

    Process second = ingest("second", "--checkpoint-dir", checkpoints.toString());
    second.getOutputStream().close();
    assertThat(second.waitFor(2, TimeUnit.MINUTES)).as("the second ended").isTrue();

    assertThat(second.exitValue()).as(err("second")).isEqualTo(Ktk.ERROR);
    assertThat(err("second")).startsWith("Cannot use checkpoint directory " + checkpoints + ": another ktk ingest "
        + "(process " + first.pid() + ") is running with it.");
    assertThat(first.isAlive()).as("the first, still waiting for its input").isTrue();
    try (OutputStream stdin = first.getOutputStream()) {
      Files.copy(input("in.jsonl", 0, 20_000), stdin);
    }
    assertThat(first.waitFor(5, TimeUnit.MINUTES)).as("the first ended").isTrue();
    assertThat(first.exitValue()).as(err("first")).isZero();
    assertThat(out("first")).contains("20000 records read, 20000 committed, 0 rejected");
    assertThat(ids()).isEqualTo("20000 20000 0 19999");

    Process third = ingest("third", "--checkpoint-dir", checkpoints.toString());
    third.getOutputStream().close();
    assertThat(third.waitFor(2, TimeUnit.MINUTES)).isTrue();
    assertThat(err("third")).as("the lock is gone with the first").contains("that ingest ran to its end");
  }

  @Test
  void theSameIngestStartedTwiceRunsOnceAndStoresEachRecordOnce() throws Exception {
    Path input = input("in.jsonl", 0, 1_000_000);
    Path checkpoints = dir.resolve("checkpoints");
    String[] args = {"--input", input.toString(), "--checkpoint-dir", checkpoints.toString()};
    Process first = ingest("first", args);
    waitUntil(first, "first", () -> committedVersions() >= 2);

    Process second = ingest("second", args);
    assertThat(second.waitFor(10, TimeUnit.MINUTES)).as("the second ended").isTrue();
    assertThat(second.exitValue()).as(err("second")).isEqualTo(Ktk.ERROR);
    assertThat(err("second")).startsWith("Cannot use checkpoint directory " + checkpoints + ": another ktk ingest "
        + "(process " + first.pid() + ") is running with it.");
    assertThat(first.isAlive()).as("the first still runs when the second ends (else the input is too small "
        + "for this test)").isTrue();

    assertThat(first.waitFor(10, TimeUnit.MINUTES)).as("the first ended").isTrue();
    assertThat(first.exitValue()).as(err("first")).isZero();
    assertThat(out("first")).contains("1000000 records read, 1000000 committed, 0 rejected");
    assertThat(ids()).isEqualTo("1000000 1000000 0 999999");
  }

  @Test
  void twoIngestsIntoOneDatasetEachCountOnlyWhatTheyCommitted() throws Exception {
    Process first = ingest("first", "--input", input("a.jsonl", 0, 300_000).toString());
    Process second = ingest("second", "--input", input("b.jsonl", 300_000, 300_000).toString());
    assertThat(first.waitFor(10, TimeUnit.MINUTES)).as("the first ended").isTrue();
    assertThat(second.waitFor(10, TimeUnit.MINUTES)).as("the second ended").isTrue();

    assertThat(first.exitValue()).as(err("first")).isZero();
    assertThat(out("first")).contains("300000 records read, 300000 committed, 0 rejected");
    assertThat(second.exitValue()).as(err("second")).isZero();
    assertThat(out("second")).contains("300000 records read, 300000 committed, 0 rejected");
    assertThat(ids()).isEqualTo("600000 600000 0 599999");
    // Each committed between two commits of the other, so counting the dataset's growth would be wrong for both.
    String writers = writersInLogOrder();
    assertThat(writers).as("the ingests (a, b) of the log's versions").containsPattern("a.*b.*a").containsPattern(
        "b.*a.*b");
  }

  /** The log's versions as a letter per ingest (writer id prefix): a for the first seen, b for the next. */
  private String writersInLogOrder() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir.resolve("store"));
    List<String> prefixes = new ArrayList<>();
    StringBuilder order = new StringBuilder();
    for (long version = 0; ; version++) {
      byte[] entry;
      try {
        entry = store.get(DatasetKeys.logEntryKey("events", version));
      } catch (NoSuchObjectException e) {
        return order.toString();
      }
      String writer = IngestInput.JSON.readTree(entry).path("writer_id").asText();
      String prefix = writer.substring(0, "ktk-ingest-".length() + 13);
      if (!prefixes.contains(prefix)) {
        prefixes.add(prefix);
      }
      order.append((char) ('a' + prefixes.indexOf(prefix)));
    }
  }
}
