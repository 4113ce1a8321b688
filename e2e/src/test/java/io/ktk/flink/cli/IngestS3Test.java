package io.ktk.flink.cli;

import static io.ktk.flink.cli.IngestInput.SCHEMA;
import static io.ktk.flink.cli.IngestInput.assertSameRows;
import static io.ktk.flink.cli.IngestInput.canonicalLines;
import static io.ktk.flink.cli.IngestInput.canonicalRows;
import static io.ktk.flink.cli.KtkRun.ktk;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.state.testing.S3Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code ktk ingest} into S3 (s3proxy): the rows come back from {@code ktk read} and pyarrow, once each. */
class IngestS3Test {
  @RegisterExtension static final S3Proxy S3 = S3Proxy.inMemory();

  @TempDir Path dir;

  private static List<String> storeArgs(String prefix) {
    List<String> args = new ArrayList<>(List.of("--store", S3.url(prefix)));
    S3.options().forEach((key, value) -> args.addAll(List.of("--store-option", key + "=" + value)));
    return args;
  }

  private static KtkRun ingest(String prefix, String... more) {
    List<String> args = new ArrayList<>(List.of("ingest"));
    args.addAll(storeArgs(prefix));
    args.addAll(List.of("--dataset", "events", "--schema", SCHEMA, "--partition-on", "p", "--index-on", "day",
        "--parallelism", "2"));
    args.addAll(List.of(more));
    return ktk(args.toArray(String[]::new));
  }

  private static List<String> readBack(String prefix) {
    List<String> args = new ArrayList<>(List.of("read"));
    args.addAll(storeArgs(prefix));
    args.addAll(List.of("--dataset", "events", "--format", "jsonl"));
    KtkRun read = ktk(args.toArray(String[]::new));
    assertThat(read.exitCode()).as(read.toString()).isZero();
    return canonicalLines(read.out());
  }

  private static List<String> pyarrow(String prefix) {
    return canonicalLines(IngestInput.pyarrowRows("events", "s3", S3Proxy.BUCKET + "/" + prefix, S3Proxy.ACCESS_KEY,
        S3Proxy.SECRET_KEY, S3.endpoint().toString()));
  }

  @Test
  void jsonLinesAndCsvIntoS3ComeBackFromReadAndPyarrowAgrees() throws Exception {
    List<ObjectNode> jsonRows = IngestInput.rows(0, 2000);
    KtkRun json = ingest("json", "--input", IngestInput.writeJsonLines(dir.resolve("in.jsonl"), jsonRows).toString());
    assertThat(json.exitCode()).as(json.toString()).isZero();
    List<String> jsonRead = readBack("json");
    assertSameRows(jsonRead, canonicalRows(jsonRows), "ktk read against the JSON lines");
    assertSameRows(pyarrow("json"), jsonRead, "pyarrow against ktk read (JSON lines)");

    List<ObjectNode> csvRows = IngestInput.rows(5000, 2000);
    KtkRun csv = ingest("csv", "--format", "csv", "--input",
        IngestInput.writeCsv(dir.resolve("in.csv"), csvRows).toString());
    assertThat(csv.exitCode()).as(csv.toString()).isZero();
    List<String> csvRead = readBack("csv");
    assertSameRows(csvRead, canonicalRows(csvRows), "ktk read against the CSV");
    assertSameRows(pyarrow("csv"), csvRead, "pyarrow against ktk read (CSV)");
  }

  /**
   * The whole path on s3proxy: ingest with failures injected at three lines (each fails the job
   * once, so it restarts from its last checkpoint and replays), then every row checked.
   * (The same path into a cube, read back with 'ktk query': {@link IngestCubeS3Test}.)
   */
  @Test
  void ingestWithInjectedFailuresThenEveryRowOnce() throws Exception {
    int count = 30_000;
    List<ObjectNode> rows = IngestInput.rows(0, count);
    Path input = IngestInput.writeJsonLines(dir.resolve("in.jsonl"), rows);

    KtkRun run = ingest("failures", "--input", input.toString(), "--checkpoint-interval", "100ms",
        "--inject-failures-at", "4000,15000,26000");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).contains(count + " records read, " + count + " committed, 0 rejected");
    List<String> read = readBack("failures");
    Map<Long, Integer> seen = new HashMap<>();
    for (String row : read) {
      seen.merge(IngestInput.JSON.readTree(row).get("id").asLong(), 1, Integer::sum);
    }
    assertThat(seen).as("ids").hasSize(count);
    assertThat(seen.entrySet()).filteredOn(e -> e.getValue() != 1).as("ids more than once").isEmpty();
    assertSameRows(read, canonicalRows(rows), "every row, as in the input");
  }
}
