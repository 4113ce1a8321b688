package io.ktk.flink.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ktk.flink.state.testing.Python;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Input for the ingest tests, made here rather than by the command: rows of every kind of column
 * as JSON objects in the forms {@code ktk read} prints, written as JSON lines or CSV, and the
 * comparison of rows as canonical JSON (keys sorted), so that input, {@code ktk read} and pyarrow
 * can be compared as multisets.
 */
final class IngestInput {
  static final ObjectMapper JSON = new ObjectMapper();
  static final String SCHEMA = "id BIGINT NOT NULL, p STRING, amount DECIMAL(10, 2), day DATE, ts TIMESTAMP(6), "
      + "ok BOOLEAN, score DOUBLE, tags ARRAY<STRING>, pos ROW<x INT, y STRING>";
  static final List<String> COLUMNS = List.of("id", "p", "amount", "day", "ts", "ok", "score", "tags", "pos");

  private IngestInput() {}

  /** Row {@code i}: partition p in a..c, nulls in some rows, text with commas, quotes and line breaks. */
  static ObjectNode row(long i) {
    ObjectNode row = JSON.createObjectNode();
    row.put("id", i);
    row.put("p", String.valueOf((char) ('a' + i % 3)));
    row.put("amount", (i * 37 % 100000) / 100 + "." + String.format("%02d", i * 37 % 100));
    row.put("day", "2024-01-" + String.format("%02d", 1 + i % 28));
    row.put("ts", i % 5 == 0 ? "2024-03-04T05:06:07" : String.format("2024-03-04T05:06:07.%06d", i % 1_000_000));
    if (i % 7 == 0) {
      row.putNull("ok");
    } else {
      row.put("ok", i % 2 == 0);
    }
    row.put("score", i * 0.25);
    if (i % 4 == 0) {
      row.putNull("tags");
    } else {
      row.putArray("tags").add("t" + i).add(i % 3 == 0 ? "with, comma" : "x\"q\"").add(i % 11 == 0 ? "two\nlines" : "");
    }
    ObjectNode pos = row.putObject("pos");
    pos.put("x", (int) (i % 1000));
    pos.put("y", i % 6 == 0 ? "comma, \"quote\"" : "y" + i);
    return row;
  }

  static List<ObjectNode> rows(long from, long count) {
    List<ObjectNode> rows = new ArrayList<>();
    for (long i = from; i < from + count; i++) {
      rows.add(row(i));
    }
    return rows;
  }

  static Path writeJsonLines(Path file, List<ObjectNode> rows) throws IOException {
    StringBuilder text = new StringBuilder();
    for (ObjectNode row : rows) {
      text.append(row).append('\n');
    }
    return Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  /** RFC 4180: header, CRLF line ends, every text field quoted, nulls as empty unquoted fields. */
  static Path writeCsv(Path file, List<ObjectNode> rows) throws IOException {
    StringBuilder text = new StringBuilder(String.join(",", COLUMNS)).append("\r\n");
    for (ObjectNode row : rows) {
      List<String> fields = new ArrayList<>();
      for (String column : COLUMNS) {
        JsonNode value = row.get(column);
        if (value == null || value.isNull()) {
          fields.add("");
        } else if (value.isContainerNode()) {
          fields.add(quote(value.toString()));
        } else if (value.isTextual()) {
          fields.add(quote(value.textValue()));
        } else {
          fields.add(value.toString());
        }
      }
      text.append(String.join(",", fields)).append("\r\n");
    }
    return Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  private static String quote(String text) {
    return "\"" + text.replace("\"", "\"\"") + "\"";
  }

  /** JSON text with object keys sorted at every level, and missing columns as null. */
  static String canonical(JsonNode node) {
    if (node.isObject()) {
      Map<String, JsonNode> sorted = new TreeMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> field = it.next();
        sorted.put(field.getKey(), field.getValue());
      }
      StringBuilder text = new StringBuilder("{");
      sorted.forEach((key, value) -> text.append(text.length() > 1 ? "," : "").append('"').append(key).append("\":")
          .append(canonical(value)));
      return text.append('}').toString();
    }
    if (node.isArray()) {
      List<String> items = new ArrayList<>();
      node.forEach(item -> items.add(canonical(item)));
      return "[" + String.join(",", items) + "]";
    }
    return node.toString();
  }

  /** Canonical rows of JSON-lines text, sorted. */
  static List<String> canonicalLines(String jsonLines) {
    return jsonLines.lines().filter(line -> !line.isBlank()).map(line -> {
      try {
        return canonical(JSON.readTree(line));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }).sorted().toList();
  }

  static List<String> canonicalRows(List<ObjectNode> rows) {
    return rows.stream().map(row -> {
      ObjectNode full = row.deepCopy();
      COLUMNS.forEach(column -> {
        if (!full.has(column)) {
          full.putNull(column);
        }
      });
      return canonical(full);
    }).sorted().toList();
  }

  /**
   * Every Parquet file the published metadata of the dataset names, read by pyarrow, rows with the
   * partition value from the file's label, in the forms {@code ktk read} prints; as JSON lines.
   * {@code fs} is "local" with the store's directory, or "s3" with bucket/prefix, keys and endpoint.
   */
  static String pyarrowRows(String uuid, String... fsArgs) {
    return Python.run("""
        import datetime, decimal, json, sys, urllib.parse
        import pyarrow.fs as pafs, pyarrow.parquet as pq
        uuid, kind, base = sys.argv[1], sys.argv[2], sys.argv[3]
        if kind == "local":
            fs = pafs.LocalFileSystem()
        else:
            fs = pafs.S3FileSystem(access_key=sys.argv[4], secret_key=sys.argv[5], endpoint_override=sys.argv[6],
                                   scheme="http", region="us-east-1")
        with fs.open_input_stream(base + "/" + uuid + ".by-dataset-metadata.json") as f:
            meta = json.loads(f.read())
        def plain(v):
            if isinstance(v, decimal.Decimal) or isinstance(v, datetime.date):
                return str(v) if isinstance(v, decimal.Decimal) else v.isoformat()
            if isinstance(v, dict):
                return {k: plain(x) for k, x in v.items()}
            if isinstance(v, list):
                return [plain(x) for x in v]
            return v
        for label, part in meta["partitions"].items():
            p = urllib.parse.unquote(label.split("/")[0].split("=")[1])
            for row in pq.read_table(base + "/" + part["files"]["table"], filesystem=fs).to_pylist():
                row = {k: plain(v) for k, v in row.items()}
                row["p"] = p
                print(json.dumps(row))
        """, concat(uuid, fsArgs));
  }

  private static String[] concat(String first, String... rest) {
    String[] all = new String[rest.length + 1];
    all[0] = first;
    System.arraycopy(rest, 0, all, 1, rest.length);
    return all;
  }

  static void assertSameRows(List<String> actual, List<String> expected, String what) {
    assertThat(actual).as(what + ": row count").hasSize(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      assertThat(actual.get(i)).as(what + ": sorted row " + i).isEqualTo(expected.get(i));
    }
  }
}
