package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.cdc.PublishedTable;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ktk ingest} of a CDC topic dumped to a file ({@code --format debezium-json} and {@code
 * canal-json}, Flink's formats of those names): {@code ktk read} and the published view (read by
 * pyarrow and DuckDB) hold the source table's final state.
 */
class IngestChangelogTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SCHEMA = "id BIGINT NOT NULL, region STRING NOT NULL, name STRING, amount BIGINT";
  private static final List<String> COLUMNS = List.of("id", "region", "name", "amount");

  @TempDir Path dir;

  private String store() {
    return dir.resolve("store").toUri().toString();
  }

  /** A source table's changes as Debezium writes them; {@code table} ends as the table's state. */
  private static List<String> debeziumChanges(long seed, int keys, int changes, boolean schemaEnvelope,
      Map<Long, List<Object>> table) {
    Random random = new Random(seed);
    List<String> lines = new ArrayList<>();
    for (long id = 0; id < keys / 2; id++) { // the initial snapshot
      List<Object> row = row(id, random);
      lines.add(envelope(null, row, "r", schemaEnvelope));
      table.put(id, row);
    }
    while (lines.size() < changes) {
      long id = random.nextInt(10) == 0 ? random.nextInt(5) : random.nextInt(keys); // hot keys
      List<Object> old = table.get(id);
      if (old == null) {
        List<Object> row = row(id, random);
        lines.add(envelope(null, row, "c", schemaEnvelope));
        table.put(id, row);
      } else if (random.nextInt(4) == 0) {
        lines.add(envelope(old, null, "d", schemaEnvelope));
        table.remove(id);
      } else {
        List<Object> row = row(id, random);
        lines.add(envelope(old, row, "u", schemaEnvelope));
        table.put(id, row);
      }
    }
    return lines;
  }

  private static List<Object> row(long id, Random random) {
    return Arrays.asList(id, "r" + id % 3, "n" + random.nextInt(100), random.nextInt(5) == 0 ? null
        : (long) random.nextInt(1000));
  }

  private static ObjectNode object(List<Object> row) {
    if (row == null) {
      return null;
    }
    ObjectNode node = JSON.createObjectNode();
    for (int i = 0; i < COLUMNS.size(); i++) {
      node.set(COLUMNS.get(i), JSON.valueToTree(row.get(i)));
    }
    return node;
  }

  private static String envelope(List<Object> before, List<Object> after, String op, boolean schemaEnvelope) {
    ObjectNode payload = JSON.createObjectNode();
    payload.set("before", object(before));
    payload.set("after", object(after));
    payload.putObject("source").put("db", "shop").put("table", "customers");
    payload.put("op", op).put("ts_ms", 1_700_000_000_000L);
    if (!schemaEnvelope) {
      return payload.toString();
    }
    ObjectNode message = JSON.createObjectNode();
    message.putObject("schema").put("type", "struct").put("name", "customers.Envelope");
    message.set("payload", payload);
    return message.toString();
  }

  private KtkRun ingest(String format, Path input, String... more) {
    List<String> args = new ArrayList<>(List.of("ingest", "--store", store(), "--dataset", "customers", "--schema",
        SCHEMA, "--partition-on", "region", "--primary-key", "id,region", "--format", format, "--parallelism", "2",
        "--checkpoint-interval", "200ms", "--input", input.toString()));
    args.addAll(List.of(more));
    return ktk(args.toArray(String[]::new));
  }

  private void assertPublished(Map<Long, List<Object>> table) throws Exception {
    KtkRun read = ktk("read", "--store", store(), "--dataset", "customers", "--columns", String.join(",", COLUMNS),
        "--format", "jsonl");
    assertThat(read.exitCode()).as(read.toString()).isZero();
    List<List<Object>> rows = new ArrayList<>();
    for (String line : read.out().lines().toList()) {
      JsonNode row = JSON.readTree(line);
      rows.add(Arrays.asList(row.get("id").asLong(), row.get("region").asText(), row.get("name").asText(),
          row.get("amount").isNull() ? null : row.get("amount").asLong()));
    }
    assertThat(rows).as("ktk read of the dataset").containsExactlyInAnyOrderElementsOf(table.values());
    PublishedTable.assertRows(dir.resolve("store"), "customers", COLUMNS, List.of("id", "region"), table.values(),
        dir.resolve("work"));
    try (LocalObjectStore store = new LocalObjectStore(dir.resolve("store"))) {
      assertThat(PrimaryKey.of("customers", new LogReader(store, "customers").latest().metadata()))
          .contains(List.of("id", "region"));
    }
  }

  @Test
  void aDebeziumTopicReplaysIntoTheTablesState() throws Exception {
    Map<Long, List<Object>> table = new LinkedHashMap<>();
    List<String> lines = debeziumChanges(42, 3_000, 20_000, false, table);
    Path input = Files.write(dir.resolve("customers.jsonl"), lines);

    KtkRun run = ingest("debezium-json", input);

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).contains(lines.size() + " records read, " + lines.size() + " committed, 0 rejected");
    assertPublished(table);
  }

  @Test
  void debeziumMessagesWithTheirSchemaEnvelopeAndABadLineAsDeadLetter() throws Exception {
    Map<Long, List<Object>> table = new LinkedHashMap<>();
    List<String> lines = new ArrayList<>(debeziumChanges(7, 500, 3_000, true, table));
    lines.add(1_000, "{\"payload\": {\"before\": null, \"after\": {\"id\": 1}, \"op\": \"x\"}, \"schema\": {}}");
    Path input = Files.write(dir.resolve("customers.jsonl"), lines);
    Path deadLetters = dir.resolve("dead.jsonl");

    KtkRun run = ingest("debezium-json", input, "--on-invalid", "dead-letter", "--dead-letter", deadLetters.toString());

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).contains(lines.size() + " records read, " + (lines.size() - 1) + " committed, 1 rejected");
    assertThat(Files.readAllLines(deadLetters)).singleElement().asString()
        .contains("\"line\":1001", "not a valid debezium-json message", "Unknown \\\"op\\\" value \\\"x\\\"");
    assertPublished(table);
  }

  @Test
  void aCanalTopicReplaysIntoTheTablesState() throws Exception {
    Map<Long, List<Object>> table = new LinkedHashMap<>();
    List<String> lines = new ArrayList<>();
    Random random = new Random(3);
    for (int i = 0; i < 2_000; i++) {
      long id = random.nextInt(300);
      List<Object> old = table.get(id);
      ObjectNode message = JSON.createObjectNode();
      message.put("database", "shop").put("table", "customers").put("isDdl", false);
      if (old == null) {
        List<Object> row = row(id, random);
        message.put("type", "INSERT").putArray("data").add(object(row));
        table.put(id, row);
      } else if (random.nextInt(4) == 0) {
        message.put("type", "DELETE").putArray("data").add(object(old));
        table.remove(id);
      } else {
        List<Object> row = row(id, random);
        message.put("type", "UPDATE").putArray("data").add(object(row));
        message.putArray("old").add(object(old));
        table.put(id, row);
      }
      lines.add(message.toString());
    }
    Path input = Files.write(dir.resolve("customers.jsonl"), lines);

    KtkRun run = ingest("canal-json", input);

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).contains(lines.size() + " records read");
    assertPublished(table);
  }

  @Test
  void aChangelogFormatNeedsAPrimaryKey() throws Exception {
    Path input = Files.write(dir.resolve("in.jsonl"), List.of("{}"));
    KtkRun run = ktk("ingest", "--store", store(), "--dataset", "customers", "--schema", SCHEMA, "--format",
        "debezium-json", "--input", input.toString());
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.err()).contains("Option '--format debezium-json' needs '--primary-key'");
  }
}
