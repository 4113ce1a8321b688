package io.ktk.flink.state.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.testing.PyChecks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArrowSchemaMetadataTest {
  /** A schema with the types whose Arrow identity Parquet alone loses. */
  static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.nullable("p", new ArrowType.Int(64, true)),
              Field.notNullable("u", new ArrowType.Int(8, false)),
              Field.nullable("s", ArrowType.LargeUtf8.INSTANCE),
              Field.nullable("t", new ArrowType.Timestamp(TimeUnit.NANOSECOND, "Europe/Berlin")),
              Field.nullable("dec", new ArrowType.Decimal(12, 3, 128)),
              new Field("l", FieldType.nullable(ArrowType.List.INSTANCE),
                  List.of(Field.notNullable("item", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)))),
              new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE),
                  List.of(Field.nullable("a", ArrowType.Utf8.INSTANCE), Field.nullable("b", new ArrowType.Date(
                      org.apache.arrow.vector.types.DateUnit.DAY)))),
              Field.nullable("n", ArrowType.Null.INSTANCE)),
          Map.of("pandas", "{\"columns\": []}"));

  static final String PYTHON_SCHEMA =
      """
      import pyarrow as pa, pyarrow.parquet as pq, base64
      SCHEMA = pa.schema([
          pa.field("p", pa.int64()),
          pa.field("u", pa.uint8(), nullable=False),
          pa.field("s", pa.large_string()),
          pa.field("t", pa.timestamp("ns", "Europe/Berlin")),
          pa.field("dec", pa.decimal128(12, 3)),
          pa.field("l", pa.list_(pa.field("item", pa.float32(), nullable=False))),
          pa.field("st", pa.struct([("a", pa.string()), ("b", pa.date32())])),
          pa.field("n", pa.null()),
      ], metadata={b"pandas": b'{"columns": []}'})
      """;

  @TempDir static Path dir;
  private static PyChecks checks;

  @BeforeAll
  static void exchangeSchemasWithPyarrow() throws IOException {
    Files.writeString(dir.resolve("java.b64"), ArrowSchemaMetadata.encode(SCHEMA));
    checks = PyChecks.run(PYTHON_SCHEMA + """
        d = sys.argv[1]
        def decode_java():
            value = open(f"{d}/java.b64").read()
            raw = base64.b64decode(value)
            schema = pa.ipc.read_schema(pa.py_buffer(raw))
            return schema.equals(SCHEMA, check_metadata=True) and raw[:4] == b"\\xff\\xff\\xff\\xff", f"{schema}\\n{schema.metadata}"
        check("pyarrow decodes ours", decode_java)
        pq.write_table(SCHEMA.empty_table(), f"{d}/py.parquet")
        with open(f"{d}/py.b64", "wb") as out:
            out.write(pq.ParquetFile(f"{d}/py.parquet").metadata.metadata[b"ARROW:schema"])
        """, dir.toString());
  }

  @Test
  void pyarrowDecodesOurEntryToTheSameSchemaAndMetadata() {
    checks.assertOk("pyarrow decodes ours");
  }

  @Test
  void theEntryPyarrowWritesIntoParquetFootersDecodesWithItsMetadata() throws IOException {
    String value = Files.readString(dir.resolve("py.b64"));
    assertThat(ArrowSchemaMetadata.decode(value, "py.parquet")).isEqualTo(SCHEMA);
  }

  @Test
  void entriesWithoutTheContinuationMarkerOfOldPyarrowAreRead() {
    byte[] raw = Base64.getDecoder().decode(ArrowSchemaMetadata.encode(SCHEMA));
    assertThat(Arrays.copyOf(raw, 4)).containsExactly(0xFF, 0xFF, 0xFF, 0xFF);
    String legacy = Base64.getEncoder().encodeToString(Arrays.copyOfRange(raw, 4, raw.length));
    assertThat(ArrowSchemaMetadata.decode(legacy, "old.parquet")).isEqualTo(SCHEMA);
  }

  @Test
  void unreadableEntriesFailNamingTheFile() {
    String valid = ArrowSchemaMetadata.encode(SCHEMA);
    byte[] raw = Base64.getDecoder().decode(valid);
    String truncated = Base64.getEncoder().encodeToString(Arrays.copyOf(raw, raw.length / 2));
    String text = Base64.getEncoder().encodeToString("hello, this is not arrow".getBytes(StandardCharsets.UTF_8));
    for (String value : List.of("not base64 at all!", truncated, text, "")) {
      assertThatThrownBy(() -> ArrowSchemaMetadata.decode(value, "ds/table/_common_metadata"))
          .as(value)
          .isInstanceOf(CorruptDatasetException.class)
          .hasMessageContaining("ds/table/_common_metadata")
          .hasMessageContaining("ARROW:schema");
    }
  }
}
