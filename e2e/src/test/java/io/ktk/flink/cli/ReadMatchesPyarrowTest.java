package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static io.ktk.flink.state.testing.TestDataset.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.Python;
import io.ktk.flink.state.testing.TestDataset;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ktk read --format csv} prints what pyarrow reads from the same files: the published metadata
 * names the files, pyarrow reads each one, the partition values come from the labels typed by
 * {@code _common_metadata}, and the script renders values by the rules {@code ktk read --help} states.
 */
class ReadMatchesPyarrowTest {
  private static final Field LIST = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE),
      List.of(field("item", new ArrowType.Int(64, true))));
  private static final Schema SCHEMA = new Schema(List.of(
      field("p", ArrowType.Utf8.INSTANCE),
      field("i", new ArrowType.Int(64, true)),
      field("u", new ArrowType.Int(64, false)),
      field("f", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      field("b", ArrowType.Bool.INSTANCE),
      field("s", ArrowType.Utf8.INSTANCE),
      field("bin", ArrowType.Binary.INSTANCE),
      field("d", new ArrowType.Date(DateUnit.DAY)),
      field("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
      field("tz", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
      field("dec", new ArrowType.Decimal(5, 2, 128)),
      LIST));
  /** The files store i as int32, as a writer of small integers would. */
  private static final Schema PHYSICAL = new Schema(List.of(
      field("i", new ArrowType.Int(32, true)),
      SCHEMA.findField("u"), SCHEMA.findField("f"), SCHEMA.findField("b"), SCHEMA.findField("s"),
      SCHEMA.findField("bin"), SCHEMA.findField("d"), SCHEMA.findField("ts"), SCHEMA.findField("tz"),
      SCHEMA.findField("dec"), LIST));

  @TempDir Path dir;

  private static List<Object> row(String p, long i, Object... rest) {
    List<Object> row = new java.util.ArrayList<>(List.of(p, i));
    row.addAll(Arrays.asList(rest));
    return row;
  }

  @Test
  void csvEqualsWhatPyarrowReadsFromTheSameFiles() throws IOException {
    LocalObjectStore store = new LocalObjectStore(dir);
    TestDataset zoo = TestDataset.create(store, "zoo", SCHEMA, List.of("p"), List.of());
    zoo.append(PHYSICAL, List.of(
        row("b", 1, -1L, Double.POSITIVE_INFINITY, true, "line\nbreak", new byte[] {0, (byte) 0xff},
            LocalDate.of(1999, 12, 31), LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_000),
            Instant.parse("2024-01-02T03:04:05Z"), new BigDecimal("1.50"), Arrays.asList(1L, null, 3L)),
        row("a b/c", -2, 0L, 1.0 / 3, false, "ünïcode, \"quoted\"", "ab".getBytes(StandardCharsets.UTF_8),
            LocalDate.of(2024, 2, 29), LocalDateTime.of(2024, 1, 2, 0, 0), Instant.parse("1970-01-01T00:00:00.000001Z"),
            new BigDecimal("-0.01"), List.of()),
        row("b", 3, null, null, null, null, null, null, null, null, null, null)));
    zoo.append(PHYSICAL, List.of(
        row("a b/c", 4, 7L, -0.0, true, "", new byte[0], LocalDate.of(1, 1, 1), LocalDateTime.of(1900, 6, 1, 12, 0, 0, 1000),
            Instant.parse("2262-04-11T00:00:00Z"), new BigDecimal("999.99"), Arrays.asList((Long) null)),
        row("b", 5, 1L, Double.NaN, false, "x", new byte[] {1}, LocalDate.of(2024, 1, 1), null, null, null, null)));
    zoo.publish();

    KtkRun run = ktk("read", "--store", dir.toUri().toString(), "--dataset", "zoo");
    assertThat(run.exitCode()).as(run.toString()).isZero();

    String expected = Python.run("""
        import base64, datetime, decimal, json, math, os, sys, urllib.parse
        import pyarrow as pa, pyarrow.parquet as pq
        root, uuid = sys.argv[1], sys.argv[2]
        meta = json.load(open(os.path.join(root, uuid + ".by-dataset-metadata.json")))
        schema = pq.read_schema(os.path.join(root, uuid, "table", "_common_metadata"))
        keys = meta["partition_keys"]

        def typed(field, text):
            if pa.types.is_integer(field.type):
                return int(text)
            return text  # this test partitions by a string column

        def render(value):
            if value is None:
                return None
            if isinstance(value, bool):
                return "true" if value else "false"
            if isinstance(value, float):
                if math.isnan(value):
                    return "NaN"
                if math.isinf(value):
                    return "Infinity" if value > 0 else "-Infinity"
                return repr(value)
            if isinstance(value, bytes):
                return base64.b64encode(value).decode()
            if isinstance(value, datetime.datetime):
                if value.tzinfo is not None:
                    return value.astimezone(datetime.timezone.utc).replace(tzinfo=None).isoformat() + "Z"
                return value.isoformat()
            if isinstance(value, (datetime.date, decimal.Decimal)):
                return str(value)
            if isinstance(value, list):
                return json.dumps(value, separators=(",", ":"))
            return str(value)

        def field_text(text):
            if text is None:
                return ""
            if text == "" or any(c in text for c in ',"\\r\\n'):
                return '"' + text.replace('"', '""') + '"'
            return text

        partitions = {}
        for label, part in meta["partitions"].items():
            segments = label.split("/")[:-1]
            values = tuple(typed(schema.field(k), urllib.parse.unquote(s.split("=", 1)[1])) for k, s in zip(keys, segments))
            partitions.setdefault(values, []).append((label, part["files"]["table"]))
        out = [",".join(field_text(n) for n in schema.names)]
        for values in sorted(partitions):
            for label, key in sorted(partitions[values]):
                table = pq.read_table(os.path.join(root, key))
                columns = {name: table.column(name).to_pylist() for name in table.column_names}
                for r in range(table.num_rows):
                    row = []
                    for name in schema.names:
                        value = values[keys.index(name)] if name in keys else columns[name][r]
                        row.append(field_text(render(value)))
                    out.append(",".join(row))
        sys.stdout.write("".join(line + "\\r\\n" for line in out))
        """, dir.toString(), "zoo");
    assertThat(run.out()).isEqualTo(expected);
    // Files within a partition come in label order (random ids), so only the header is at a known place.
    assertThat(run.out()).startsWith("p,b,bin,d,dec,f,i,l,s,ts,tz,u\r\na b/c,")
        .contains("\r\na b/c,false,YWI=,2024-02-29,-0.01,0.3333333333333333,-2,[],\"ünïcode, \"\"quoted\"\"\",")
        .contains("\r\nb,,,,,,3,,,,,\r\n");
  }
}
