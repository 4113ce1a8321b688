package io.ktk.flink.cli;

import static io.ktk.flink.cli.IngestInput.SCHEMA;
import static io.ktk.flink.cli.IngestInput.assertSameRows;
import static io.ktk.flink.cli.IngestInput.canonicalLines;
import static io.ktk.flink.cli.IngestInput.canonicalRows;
import static io.ktk.flink.cli.KtkRun.ktk;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.ingest.IngestManifest;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.store.LocalObjectStore;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ktk ingest} into a local directory: what goes in comes out of {@code ktk read} and pyarrow. */
class IngestCommandTest {
  @TempDir Path dir;

  private String store() {
    return dir.resolve("store").toUri().toString();
  }

  private KtkRun ingest(String... more) {
    List<String> args = new ArrayList<>(List.of("ingest", "--store", store(), "--dataset", "events", "--schema",
        SCHEMA, "--partition-on", "p", "--index-on", "day", "--parallelism", "2", "--checkpoint-interval", "200ms"));
    args.addAll(List.of(more));
    return ktk(args.toArray(String[]::new));
  }

  private List<String> readBack() {
    KtkRun read = ktk("read", "--store", store(), "--dataset", "events", "--format", "jsonl");
    assertThat(read.exitCode()).as(read.toString()).isZero();
    return canonicalLines(read.out());
  }

  @Test
  void jsonLinesComeBackFromReadAndPyarrowAgrees() throws Exception {
    List<ObjectNode> rows = IngestInput.rows(0, 3000);
    Path input = IngestInput.writeJsonLines(dir.resolve("in.jsonl"), rows);

    KtkRun run = ingest("--input", input.toString());

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).contains("3000 records read, 3000 committed, 0 rejected");
    List<String> read = readBack();
    assertSameRows(read, canonicalRows(rows), "ktk read against the input");
    assertSameRows(canonicalLines(IngestInput.pyarrowRows("events", "local", dir.resolve("store").toString())), read,
        "pyarrow against ktk read");
  }

  @Test
  void csvWithQuotedLineBreaksComesBackFromReadAndPyarrowAgrees() throws Exception {
    List<ObjectNode> rows = IngestInput.rows(0, 2000);
    Path input = IngestInput.writeCsv(dir.resolve("in.csv"), rows);

    KtkRun run = ingest("--input", input.toString(), "--format", "csv");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).contains("2000 records read, 2000 committed, 0 rejected");
    List<String> read = readBack();
    assertSameRows(read, canonicalRows(rows), "ktk read against the input");
    assertSameRows(canonicalLines(IngestInput.pyarrowRows("events", "local", dir.resolve("store").toString())), read,
        "pyarrow against ktk read");
  }

  @Test
  void anInvalidRecordFailsTheIngestNamingItsLine() throws Exception {
    List<ObjectNode> rows = IngestInput.rows(0, 100);
    rows.get(41).put("day", "2024-02-30");
    Path input = IngestInput.writeJsonLines(dir.resolve("in.jsonl"), rows);

    KtkRun run = ingest("--input", input.toString());

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.ERROR);
    assertThat(run.err()).startsWith("Cannot ingest line 42 of " + input + ": column 'day' holds \"2024-02-30\", "
        + "which is not a DATE");
  }

  @Test
  void aRecordTheDatasetRefusesFailsTheIngest() throws Exception {
    List<ObjectNode> rows = IngestInput.rows(0, 100);
    rows.get(10).putNull("p");
    Path input = IngestInput.writeJsonLines(dir.resolve("in.jsonl"), rows);

    KtkRun run = ingest("--input", input.toString());

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.ERROR);
    assertThat(run.err()).contains("column 'p' is a partition column and may not be null");
  }

  @Test
  void deadLetterWritesEveryRejectedRecordWithItsReasonAndCommitsTheRest() throws Exception {
    List<ObjectNode> rows = IngestInput.rows(0, 500);
    rows.get(9).put("id", "ten");                  // line 10: not a BIGINT
    rows.get(99).putNull("p");                     // line 100: refused by the sink (partition value null)
    rows.get(199).put("unknown", 1);               // line 200: no such column
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < rows.size(); i++) {
      text.append(i == 299 ? "{not json" : rows.get(i).toString()).append('\n'); // line 300: no JSON
    }
    Path input = Files.writeString(dir.resolve("in.jsonl"), text);
    Path deadLetters = dir.resolve("rejected.jsonl");

    KtkRun run = ingest("--input", input.toString(), "--on-invalid", "dead-letter", "--dead-letter",
        deadLetters.toString());

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).contains("500 records read, 496 committed, 4 rejected").contains(deadLetters.toString());
    List<JsonNode> letters = new ArrayList<>();
    for (String line : Files.readAllLines(deadLetters)) {
      letters.add(IngestInput.JSON.readTree(line));
    }
    assertThat(letters).hasSize(4);
    assertThat(letters).anySatisfy(letter -> {
      assertThat(letter.path("line").asLong()).isEqualTo(10);
      assertThat(letter.get("record").asText()).isEqualTo(rows.get(9).toString());
      assertThat(letter.get("reason").asText()).contains("column 'id' holds \"ten\", which is not a BIGINT");
    });
    assertThat(letters).anySatisfy(letter -> {
      assertThat(letter.has("line")).isFalse();
      assertThat(letter.get("record").asText()).contains("99");
      assertThat(letter.get("reason").asText()).contains("column 'p' is a partition column and may not be null");
    });
    assertThat(letters).anySatisfy(letter -> {
      assertThat(letter.path("line").asLong()).isEqualTo(200);
      assertThat(letter.get("reason").asText()).contains("field 'unknown' is not a column");
    });
    assertThat(letters).anySatisfy(letter -> {
      assertThat(letter.path("line").asLong()).isEqualTo(300);
      assertThat(letter.get("record").asText()).isEqualTo("{not json");
      assertThat(letter.get("reason").asText()).contains("the line is not JSON");
    });
    List<ObjectNode> valid = new ArrayList<>(rows);
    for (int line : new int[] {300, 200, 100, 10}) {
      valid.remove(line - 1);
    }
    assertSameRows(readBack(), canonicalRows(valid), "ktk read against the valid input");
  }

  @Test
  void anIngestStoppedAfterItsJobCollectsItsDeadLettersWithoutRunningTheJobAgain() throws Exception {
    List<ObjectNode> rows = IngestInput.rows(0, 300);
    rows.get(4).put("id", "five");
    rows.get(49).put("id", "fifty");
    StringBuilder text = new StringBuilder();
    rows.forEach(row -> text.append(row).append('\n'));
    Path input = Files.writeString(dir.resolve("in.jsonl"), text);
    Path deadLetters = dir.resolve("rejected.jsonl");
    Path checkpoints = dir.resolve("checkpoints");
    String[] args = {"--input", input.toString(), "--on-invalid", "dead-letter", "--dead-letter", deadLetters.toString(),
        "--checkpoint-dir", checkpoints.toString()};
    KtkRun run = ingest(args);
    assertThat(run.exitCode()).as(run.toString()).isZero();
    List<String> letters = Files.readAllLines(deadLetters);
    assertThat(letters).hasSize(2);

    // Lay out what a stop right after the job leaves: the job marked finished in the manifest, the
    // committed dead letters still in their part file, the dead-letter file without them.
    IngestManifest manifest = IngestManifest.load(checkpoints).orElseThrow();
    new IngestManifest(manifest.version(), manifest.store(), manifest.dataset(), manifest.input(),
        manifest.inputBytes(), manifest.format(), manifest.schema(), manifest.partitionOn(), manifest.indexOn(),
        manifest.rowsBefore(), manifest.spooled(), false, manifest.dimensionColumns(), manifest.seed(), true,
        manifest.writerIdPrefix(), manifest.versionBefore(), manifest.onInvalid(), null)
        .save(checkpoints);
    Path parts = Files.createDirectories(checkpoints.resolve("dead-letter-parts"));
    Files.write(parts.resolve("part-0.jsonl"), letters);
    Files.delete(deadLetters);

    KtkRun again = ingest(args);

    assertThat(again.exitCode()).as(again.toString()).isZero();
    assertThat(again.out()).contains("300 records read, 298 committed, 2 rejected");
    assertThat(Files.readAllLines(deadLetters)).isEqualTo(letters);
    assertThat(DatasetSnapshot.latest(new LocalObjectStore(dir.resolve("store")), "events").rows()).isEqualTo(298);
    assertThat(ingest(args).err()).contains("that ingest ran to its end");
  }

  @Test
  void stdinIsSpooledIntoTheCheckpointDirectoryAndAFinishedIngestIsNotRepeated() throws Exception {
    List<ObjectNode> rows = IngestInput.rows(0, 1000);
    StringBuilder text = new StringBuilder();
    rows.forEach(row -> text.append(row).append('\n'));
    Path checkpoints = dir.resolve("checkpoints");

    KtkRun run = withStdin(text.toString(), () -> ingest("--checkpoint-dir", checkpoints.toString()));

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).contains("1000 records read, 1000 committed, 0 rejected");
    assertSameRows(readBack(), canonicalRows(rows), "ktk read against stdin");

    KtkRun again = withStdin(text.toString(), () -> ingest("--checkpoint-dir", checkpoints.toString()));
    assertThat(again.exitCode()).as(again.toString()).isEqualTo(Ktk.ERROR);
    assertThat(again.err()).contains("that ingest ran to its end");
    assertThat(DatasetSnapshot.latest(new LocalObjectStore(dir.resolve("store")), "events").rows()).isEqualTo(1000);
  }

  @Test
  void aCheckpointDirectoryOfAnotherIngestIsBadUsage() throws Exception {
    Path input = IngestInput.writeJsonLines(dir.resolve("in.jsonl"), IngestInput.rows(0, 10));
    Path checkpoints = dir.resolve("checkpoints");
    assertThat(ingest("--input", input.toString(), "--checkpoint-dir", checkpoints.toString()).exitCode()).isZero();

    KtkRun other = ktk("ingest", "--store", store(), "--dataset", "other", "--schema", SCHEMA, "--input",
        input.toString(), "--checkpoint-dir", checkpoints.toString());

    assertThat(other.exitCode()).as(other.toString()).isEqualTo(Ktk.USAGE);
    assertThat(other.err()).contains("holds the checkpoints of another ingest")
        .contains("--dataset was 'events', now 'other'");
  }

  private static KtkRun withStdin(String text, java.util.function.Supplier<KtkRun> run) {
    InputStream original = System.in;
    System.setIn(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    try {
      return run.get();
    } finally {
      System.setIn(original);
    }
  }
}
