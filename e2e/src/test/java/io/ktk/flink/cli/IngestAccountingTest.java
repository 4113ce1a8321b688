package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.ingest.IngestManifest;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.store.LocalObjectStore;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code ktk ingest} says about the records it committed: when an invalid record stops it
 * after earlier checkpoints were committed, and when its numbers do not add up.
 */
class IngestAccountingTest {
  private static final Pattern COMMITTED = Pattern.compile(
      "Before it stopped, this ingest committed (\\d+) records to dataset 'events' in \\S+, which stay there: the "
          + "first \\1 records of \\S+, up to line \\1\\. ");

  @TempDir Path dir;

  private KtkRun ingest(String... more) {
    List<String> args = new ArrayList<>(List.of("ingest", "--store", dir.resolve("store").toUri().toString(),
        "--dataset", "events", "--schema", "id BIGINT NOT NULL, p STRING", "--partition-on", "p", "--parallelism", "2",
        "--checkpoint-interval", "100ms"));
    args.addAll(List.of(more));
    return ktk(args.toArray(String[]::new));
  }

  /** {@code count} JSON lines of ids 0, 1, ...; the line of id {@code invalid} has a string id. */
  private Path input(long count, long invalid) throws Exception {
    Path file = dir.resolve("in.jsonl");
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (long i = 0; i < count; i++) {
        out.write(i == invalid ? "{\"id\":\"x\",\"p\":\"a\"}\n" : "{\"id\":" + i + ",\"p\":\"p" + (i % 3) + "\"}\n");
      }
    }
    return file;
  }

  private DatasetState state() throws Exception {
    return new LogReader(new LocalObjectStore(dir.resolve("store")), "events").latest();
  }

  private List<Long> storedIds() {
    KtkRun read = ktk("read", "--store", dir.resolve("store").toUri().toString(), "--dataset", "events", "--format",
        "csv", "--columns", "id");
    assertThat(read.exitCode()).as(read.toString()).isZero();
    return read.out().lines().skip(1).map(Long::parseLong).sorted().toList();
  }

  @Test
  void anInvalidLastLineSaysWhatWasCommittedBeforeAndThatItStays() throws Exception {
    long count = 400_000;
    Path input = input(count, count - 1);

    KtkRun run = ingest("--input", input.toString());

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.ERROR);
    assertThat(run.err()).startsWith("Cannot ingest line 400000 of " + input + ": column 'id' holds \"x\"");
    Matcher said = COMMITTED.matcher(run.err());
    assertThat(said.find()).as("the message says what was committed: %s", run.err()).isTrue();
    long committed = Long.parseLong(said.group(1));
    assertThat(committed).as("checkpoints were committed before the last line").isPositive();
    assertThat(run.err()).contains("To add the rest, ingest only the records after line " + committed + ": the "
        + "whole input again would commit the first " + committed + " twice.");
    assertThat(storedIds()).as("the stored ids are the first records, as said")
        .isEqualTo(LongStream.range(0, committed).boxed().toList());
  }

  @Test
  void anIngestStoppedByAnInvalidRecordGoesOnWithDeadLettersFromItsLastCheckpoint() throws Exception {
    long count = 400_000;
    long invalid = 300_000;
    Path input = input(count, invalid);
    Path checkpoints = dir.resolve("checkpoints");
    Path deadLetters = dir.resolve("rejected.jsonl");

    KtkRun run = ingest("--input", input.toString(), "--checkpoint-dir", checkpoints.toString());

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.ERROR);
    assertThat(run.err()).startsWith("Cannot ingest line " + (invalid + 1) + " of " + input)
        .contains("Run the same command again to go on from the last checkpoint without committing anything twice; "
            + "to set invalid records aside, add --on-invalid dead-letter");

    KtkRun resumed = ingest("--input", input.toString(), "--checkpoint-dir", checkpoints.toString(),
        "--on-invalid", "dead-letter", "--dead-letter", deadLetters.toString());

    assertThat(resumed.exitCode()).as(resumed.toString()).isZero();
    assertThat(resumed.out()).contains(count + " records read, " + (count - 1) + " committed, 1 rejected");
    assertThat(Files.readAllLines(deadLetters)).singleElement().asString().contains("\"line\":" + (invalid + 1));
    List<Long> expected = new ArrayList<>(LongStream.range(0, count).boxed().toList());
    expected.remove(invalid);
    assertThat(storedIds()).isEqualTo(expected);

    KtkRun failAgain = ingest("--input", input.toString(), "--checkpoint-dir", checkpoints.toString());
    assertThat(failAgain.err()).contains("that ingest ran to its end;");
  }

  @Test
  void recordsThatDoNotAddUpFailTheIngestAndARerunIsRefusedSayingSo() throws Exception {
    Path input = input(3_000, 1_234);
    Path checkpoints = dir.resolve("checkpoints");
    Path deadLetters = dir.resolve("rejected.jsonl");
    String[] args = {"--input", input.toString(), "--checkpoint-dir", checkpoints.toString(), "--on-invalid",
        "dead-letter", "--dead-letter", deadLetters.toString()};
    assertThat(ingest(args).exitCode()).isZero();

    // Lay out a stop right after the job whose committed dead letter got lost: the manifest says the
    // job ran to its end, and there is no part file to collect.
    Path manifest = checkpoints.resolve(IngestManifest.FILE);
    ObjectNode fields = (ObjectNode) IngestInput.JSON.readTree(manifest.toFile());
    IngestInput.JSON.writeValue(manifest.toFile(), fields.put("finished", false).put("jobFinished", true));
    Files.delete(deadLetters);

    KtkRun again = ingest(args);

    assertThat(again.exitCode()).as(again.toString()).isEqualTo(Ktk.ERROR);
    assertThat(again.out()).contains("3000 records read, 2999 committed, 0 rejected");
    assertThat(again.err()).contains("Cannot account for every record of " + input + " in dataset 'events' in ")
        .contains("(3000 read, 2999 committed, 0 rejected: 1 missing). Only the commits of this ingest count")
        .contains("The checkpoint directory " + checkpoints + " is kept as it is, marked finished")
        .doesNotContain("another writer");

    KtkRun rerun = ingest(args);
    assertThat(rerun.exitCode()).isEqualTo(Ktk.ERROR);
    assertThat(rerun.err()).contains("that ingest ran to its end, but its records did not add up (3000 read, 2999 "
        + "committed, 0 rejected: 1 missing), which running it again would not repair");
    assertThat(state().files().values().stream().mapToLong(DataFile::rows).sum()).isEqualTo(2999);
  }
}
