package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Input that Java's and Jackson's lenient defaults would store as something else: each record
 * becomes a dead letter with its reason, or is stored exactly as given.
 */
class IngestInvalidInputTest {
  private static final String SCHEMA = "id BIGINT NOT NULL, f FLOAT, g DOUBLE, d DECIMAL(20, 2), day DATE, "
      + "ts TIMESTAMP(6), s STRING";

  @TempDir Path dir;

  private KtkRun ingest(Path input, String format, Path deadLetters, String... more) {
    List<String> args = new ArrayList<>(List.of("ingest", "--store", dir.resolve("store").toUri().toString(),
        "--dataset", "events", "--schema", SCHEMA, "--input", input.toString(), "--format", format,
        "--parallelism", "2", "--checkpoint-interval", "200ms", "--on-invalid", "dead-letter", "--dead-letter",
        deadLetters.toString()));
    args.addAll(List.of(more));
    return ktk(args.toArray(String[]::new));
  }

  /** The dead letters by line: their reasons. */
  private static Map<Long, String> reasons(Path deadLetters) throws Exception {
    Map<Long, String> reasons = new TreeMap<>();
    for (String line : Files.readAllLines(deadLetters)) {
      JsonNode letter = IngestInput.JSON.readTree(line);
      reasons.put(letter.path("line").asLong(), letter.get("reason").asText());
    }
    return reasons;
  }

  /** The rows {@code ktk read} prints, by id. */
  private Map<Long, JsonNode> readBack() throws Exception {
    KtkRun read = ktk("read", "--store", dir.resolve("store").toUri().toString(), "--dataset", "events", "--format",
        "jsonl");
    assertThat(read.exitCode()).as(read.toString()).isZero();
    Map<Long, JsonNode> rows = new TreeMap<>();
    for (String line : read.out().lines().filter(line -> !line.isBlank()).toList()) {
      JsonNode row = IngestInput.JSON.readTree(line);
      rows.put(row.get("id").asLong(), row);
    }
    return rows;
  }

  @Test
  void jsonLinesThatWouldBeStoredAsSomethingElseBecomeDeadLetters() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    List<String> lines = List.of(
        "{\"id\": 1, \"s\": \"fine\"}",
        "{\"id\": 2}{\"id\": 3}",                                  // two objects on one line
        "{\"id\": 4} garbage",                                     // text after the object
        "{\"id\": 5, \"s\": \"a\", \"s\": \"b\"}",                 // a field twice
        "{\"id\": 6, \"day\": \"+5881580-07-12\"}",                // beyond 32-bit days
        "{\"id\": 7, \"d\": 12345678901234567.89}",                // more digits than a double has: stored exactly
        "{\"id\": 8, \"s\": \"caf\u00e9\"}",                       // made invalid UTF-8 below
        "{\"id\": 9, \"f\": 1e39}",                                // beyond FLOAT
        "{\"id\": 10, \"g\": 1e400}",                              // beyond DOUBLE
        "{\"id\": 11, \"ts\": \"+300000-01-01T00:00:00\"}",        // beyond 64-bit microseconds
        "{\"id\": 12, \"f\": \"Infinity\", \"g\": -1.7976931348623157e308}");
    for (String line : lines) {
      byte[] encoded = (line + "\n").getBytes(StandardCharsets.UTF_8);
      if (line.contains("caf")) {
        encoded[encoded.length - 5] = (byte) 0xFF; // the first byte of é (0xC3 0xA9)
      }
      bytes.write(encoded);
    }
    Path input = Files.write(dir.resolve("in.jsonl"), bytes.toByteArray());
    Path deadLetters = dir.resolve("rejected.jsonl");

    KtkRun run = ingest(input, "jsonl", deadLetters);

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).contains("11 records read, 3 committed, 8 rejected");
    Map<Long, String> reasons = reasons(deadLetters);
    assertThat(reasons.keySet()).containsExactly(2L, 3L, 4L, 5L, 7L, 8L, 9L, 10L);
    assertThat(reasons.get(2L)).startsWith("the line has text after its JSON value, from character 10: {\"id\": 3}");
    assertThat(reasons.get(3L)).startsWith("the line has text after its JSON value, from character 10: garbage");
    assertThat(reasons.get(4L)).isEqualTo("the line gives field 's' twice in one JSON object (first \"a\"); a JSON "
        + "object gives each field once");
    assertThat(reasons.get(5L)).isEqualTo("column 'day' holds \"+5881580-07-12\", which is outside the range of a DATE "
        + "(-5877641-06-23 to +5881580-07-11: days since 1970-01-01 in 32 bits)");
    assertThat(reasons.get(7L)).isEqualTo("the record is not valid UTF-8: 0xFF at byte 20 of the record is malformed "
        + "(the input must be UTF-8)");
    assertThat(reasons.get(8L)).startsWith("column 'f' holds 1E+39, which is out of the range of a FLOAT");
    assertThat(reasons.get(9L)).startsWith("column 'g' holds 1E+400, which is out of the range of a DOUBLE");
    assertThat(reasons.get(10L)).startsWith("column 'ts' holds \"+300000-01-01T00:00:00\", which is outside the "
        + "range of a TIMESTAMP(6)");

    Map<Long, JsonNode> rows = readBack();
    assertThat(rows.keySet()).containsExactly(1L, 7L, 12L);
    assertThat(rows.get(7L).get("d").asText()).isEqualTo("12345678901234567.89");
    assertThat(rows.get(12L).get("f").asText()).isEqualTo("Infinity");
    assertThat(rows.get(12L).get("g").asDouble()).isEqualTo(-Double.MAX_VALUE);
  }

  @Test
  void csvRecordsThatWouldBeStoredAsSomethingElseBecomeDeadLetters() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    List<String> lines = List.of(
        "id,f,g,d,day,ts,s",
        "1,,,,,,fine",
        "2,,,,+5881580-07-12,,",                                   // beyond 32-bit days
        "3,,,12345678901234567.89,,,",                             // stored exactly
        "4,,,,,,\"caf\u00e9\"",                                    // made invalid UTF-8 below
        "5,1e39,,,,,",                                             // beyond FLOAT
        "6,,1e400,,,,",                                            // beyond DOUBLE
        "7,,,,,-300000-01-01 00:00:00,",                           // beyond 64-bit microseconds
        "8,,,,,,\"a\"b",                                           // text after the closing quote
        "9,Infinity,NaN,,,,");
    for (String line : lines) {
      byte[] encoded = (line + "\r\n").getBytes(StandardCharsets.UTF_8);
      if (line.contains("caf")) {
        encoded[encoded.length - 5] = (byte) 0xFF;
      }
      bytes.write(encoded);
    }
    Path input = Files.write(dir.resolve("in.csv"), bytes.toByteArray());
    Path deadLetters = dir.resolve("rejected.jsonl");

    KtkRun run = ingest(input, "csv", deadLetters);

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).contains("9 records read, 3 committed, 6 rejected");
    Map<Long, String> reasons = reasons(deadLetters);
    assertThat(reasons.keySet()).containsExactly(3L, 5L, 6L, 7L, 8L, 9L);
    assertThat(reasons.get(3L)).startsWith("column 'day' holds \"+5881580-07-12\", which is outside the range of a "
        + "DATE");
    assertThat(reasons.get(5L)).startsWith("the record is not valid UTF-8: 0xFF at byte 12 of the record");
    assertThat(reasons.get(6L)).startsWith("column 'f' holds \"1e39\", which is out of the range of a FLOAT");
    assertThat(reasons.get(7L)).startsWith("column 'g' holds \"1e400\", which is out of the range of a DOUBLE");
    assertThat(reasons.get(8L)).startsWith("column 'ts' holds \"-300000-01-01 00:00:00\", which is outside the "
        + "range of a TIMESTAMP(6)");
    assertThat(reasons.get(9L)).startsWith("the CSV record has text after the closing quote of field 7");

    Map<Long, JsonNode> rows = readBack();
    assertThat(rows.keySet()).containsExactly(1L, 3L, 9L);
    assertThat(rows.get(3L).get("d").asText()).isEqualTo("12345678901234567.89");
  }

  @Test
  void aPartitionValueTooLongForADirectoryNameIsRefusedLikeOtherBadRecords() throws Exception {
    String tooLong = "v".repeat(300);
    Path input = Files.writeString(dir.resolve("in.jsonl"), "{\"id\": 1, \"s\": \"a\"}\n{\"id\": 2, \"s\": \"" + tooLong
        + "\"}\n{\"id\": 3, \"s\": \"b\"}\n");
    Path deadLetters = dir.resolve("rejected.jsonl");

    KtkRun run = ingest(input, "jsonl", deadLetters, "--partition-on", "s");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).contains("3 records read, 2 committed, 1 rejected");
    String reason = IngestInput.JSON.readTree(Files.readAllLines(deadLetters).get(0)).get("reason").asText();
    assertThat(reason).isEqualTo("Cannot use " + "v".repeat(60) + "... (300 characters) as a partition value of "
        + "column s: its directory name s=" + "v".repeat(38) + "... is 302 bytes long once percent-encoded, and a "
        + "file or directory name may have at most 255 (dataset 'events')");
    assertThat(readBack().keySet()).containsExactly(1L, 3L);

    KtkRun failing = ktk("ingest", "--store", dir.resolve("store").toUri().toString(), "--dataset", "events",
        "--schema", SCHEMA, "--partition-on", "s", "--input", input.toString());
    assertThat(failing.exitCode()).as(failing.toString()).isEqualTo(Ktk.ERROR);
    assertThat(failing.err()).startsWith("Cannot use " + "v".repeat(60) + "... (300 characters) as a partition "
        + "value of column s");
  }
}
