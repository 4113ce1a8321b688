package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Mistakes on the {@code ktk ingest} command line: exit code 2 and a message, before anything runs. */
class IngestUsageTest {
  @TempDir Path dir;

  private KtkRun ingest(String... more) throws Exception {
    Path input = Files.writeString(dir.resolve("in.jsonl"), "{\"a\": 1}\n");
    List<String> args = new ArrayList<>(List.of("ingest", "--store", dir.resolve("store").toUri().toString(),
        "--dataset", "events", "--input", input.toString()));
    args.addAll(List.of(more));
    return ktk(args.toArray(String[]::new));
  }

  private void assertUsage(KtkRun run, String message) {
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.USAGE);
    assertThat(run.err()).contains(message);
    assertThat(run.out()).isEmpty();
    assertThat(dir.resolve("store")).doesNotExist();
  }

  @Test
  void missingSchema() throws Exception {
    assertUsage(ingest(), "Missing required option: '--schema=COLUMNS'");
  }

  @Test
  void syntaxErrorInSchema() throws Exception {
    assertUsage(ingest("--schema", "a BIGINT,, b STRING"),
        "Invalid value for option '--schema': 'a BIGINT,, b STRING' is not a list of columns with Flink SQL types "
            + "(Could not parse type at position");
  }

  @Test
  void unknownTypeInSchema() throws Exception {
    assertUsage(ingest("--schema", "a BIGINT, b STRNG"), "'STRNG' is not a type (types: BOOLEAN, TINYINT");
  }

  @Test
  void typeTheSinkCannotWrite() throws Exception {
    assertUsage(ingest("--schema", "a BIGINT, m MAP<STRING, INT>"), "MAP");
  }

  @Test
  void keywordsAsColumnNamesNeedNoQuotes() throws Exception {
    assertThat(SchemaText.parse("day DATE, value DOUBLE, `time` TIME(3), r ROW<`date` DATE>").getFieldNames())
        .containsExactly("day", "value", "time", "r");
  }

  @Test
  void partitionColumnNotInSchema() throws Exception {
    assertUsage(ingest("--schema", "a BIGINT", "--partition-on", "p"),
        "Invalid value for option '--partition-on': 'p' is not a column of --schema (columns: a)");
  }

  @Test
  void inputThatIsNoFile() throws Exception {
    assertUsage(ktk("ingest", "--store", dir.resolve("store").toUri().toString(), "--dataset", "events", "--schema",
        "a BIGINT", "--input", dir.resolve("missing.jsonl").toString()), "Invalid value for option '--input'");
  }

  @Test
  void deadLetterFileWithoutDeadLetterPolicy() throws Exception {
    assertUsage(ingest("--schema", "a BIGINT", "--dead-letter", dir.resolve("x.jsonl").toString()),
        "Option '--dead-letter' needs '--on-invalid dead-letter'");
  }

  @Test
  void unknownOnInvalidPolicyAndFormat() throws Exception {
    assertUsage(ingest("--schema", "a BIGINT", "--on-invalid", "skip"), "'skip' is not fail or dead-letter");
    assertUsage(ingest("--schema", "a BIGINT", "--format", "parquet"), "Invalid value for option '--format'");
  }

  @Test
  void checkpointDirectoryThatHoldsSomethingElse() throws Exception {
    Path other = Files.createDirectories(dir.resolve("other"));
    Files.writeString(other.resolve("notes.txt"), "mine");

    KtkRun run = ingest("--schema", "a BIGINT", "--checkpoint-dir", other.toString());

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.USAGE);
    assertThat(run.err()).contains("is not empty and holds no ingest.json of an ingest");
  }

  @Test
  void helpHidesTheTestHook() {
    KtkRun help = ktk("ingest", "--help");

    assertThat(help.exitCode()).isZero();
    assertThat(help.out()).contains("--checkpoint-dir=DIR").contains("--on-invalid=fail|dead-letter")
        .doesNotContain("inject");
  }
}
