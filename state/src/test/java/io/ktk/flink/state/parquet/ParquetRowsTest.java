package io.ktk.flink.state.parquet;

import static io.ktk.flink.state.parquet.TypeZoo.I64;
import static io.ktk.flink.state.parquet.TypeZoo.ROWS;
import static io.ktk.flink.state.parquet.TypeZoo.SCHEMA;
import static io.ktk.flink.state.parquet.TypeZoo.UTF8;
import static io.ktk.flink.state.parquet.TypeZoo.comparable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.PyChecks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written by {@link ParquetRowsWriter} read in pyarrow, files written by pyarrow read by
 * {@link ParquetRowsReader}, both against values written out by hand on each side. One Python
 * run checks all files (and writes pyarrow's), then each test asserts its part.
 */
class ParquetRowsTest {
  private static final List<String> CODECS = List.of("SNAPPY", "ZSTD", "GZIP", "UNCOMPRESSED");
  private static final int MANY = 20_000;

  @TempDir static Path dir;
  private static LocalObjectStore store;
  private static PyChecks checks;

  @BeforeAll
  static void writeFilesAndCheckThemInPyarrow() throws IOException {
    store = new LocalObjectStore(dir);
    for (String codec : CODECS) {
      ParquetWriteOptions options =
          ParquetWriteOptions.defaults().withCompression(CompressionCodecName.valueOf(codec)).withZstdLevel(7);
      String key = "zoo-" + codec + ".parquet";
      try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, key, SCHEMA, Map.of(), options)) {
        for (List<Object> row : ROWS) {
          writer.write(row);
        }
      }
    }
    Schema many = new Schema(List.of(Field.nullable("i", I64), Field.nullable("s", UTF8)));
    ParquetWriteOptions small = ParquetWriteOptions.defaults().withRowGroupSizeBytes(64 << 10).withPageSizeBytes(8 << 10);
    try (ParquetRowsWriter writer =
        ParquetRowsWriter.create(store, "many.parquet", many, Map.of("origin", "ktk-test"), small)) {
      for (long i = 0; i < MANY; i++) {
        writer.write(List.of(i, "value-" + i));
      }
    }
    Files.createDirectories(dir.resolve("py"));

    checks = PyChecks.run(TypeZoo.PYTHON + SCRIPT, dir.toString());
  }

  private static final String SCRIPT =
      """
      d = sys.argv[1]
      for codec in ["SNAPPY", "ZSTD", "GZIP", "UNCOMPRESSED"]:
          path = f"{d}/zoo-{codec}.parquet"
          check(f"zoo {codec} values", lambda: check_zoo_file(path))
          def codecs(path=path, codec=codec):
              md = pq.ParquetFile(path).metadata
              found = {md.row_group(0).column(i).compression for i in range(md.num_columns)}
              return found == {codec}, found
          check(f"zoo {codec} compression", codecs)

      def parquet_schema():
          ours = pq.ParquetFile(f"{d}/zoo-SNAPPY.parquet").schema
          pq.write_table(zoo_table(), f"{d}/py/zoo-reference.parquet")
          theirs = pq.ParquetFile(f"{d}/py/zoo-reference.parquet").schema
          return ours.equals(theirs), f"ours:\\n{ours}\\ntheirs:\\n{theirs}"
      check("parquet schema", parquet_schema)

      def statistics():
          md = pq.ParquetFile(f"{d}/zoo-SNAPPY.parquet").metadata.row_group(0)
          names = [md.column(i).path_in_schema for i in range(md.num_columns)]
          def stats(name):
              s = md.column(names.index(name)).statistics
              return (s.has_min_max, s.min, s.max, s.null_count)
          got = {n: stats(n) for n in ["i64", "u64", "s", "d", "dec"]}
          want = {
              "i64": (True, -9223372036854775808, 9223372036854775807, 1),
              "u64": (True, 9223372036854775808, 18446744073709551615, 1),
              "s": (True, "", "héllo ✓", 1),
              "d": (True, dt.date(1970, 1, 1), dt.date(9999, 12, 31), 1),
              "dec": (True, D("-12345678.90"), D("0.01"), 1),
          }
          return got == want, f"{got} != {want}"
      check("statistics", statistics)

      def many():
          f = pq.ParquetFile(f"{d}/many.parquet")
          t = f.read()
          ok = (f.metadata.num_row_groups > 1
                and t.column("i").to_pylist() == list(range(20000))
                and t.column("s").to_pylist() == [f"value-{i}" for i in range(20000)]
                and f.metadata.metadata == {b"origin": b"ktk-test"})
          return ok, f"{f.metadata.num_row_groups} row groups, {t.num_rows} rows, {f.metadata.metadata}"
      check("many rows", many)

      # Files pyarrow writes, for the reader; each variant differs in what a reader must handle.
      pq.write_table(zoo_table(), f"{d}/py/zoo-default.parquet")
      pq.write_table(zoo_table(), f"{d}/py/zoo-v2-zstd.parquet", store_schema=False, data_page_version="2.0",
                     compression="zstd", use_dictionary=False)
      pq.write_table(zoo_table(), f"{d}/py/zoo-gzip-groups.parquet", compression="gzip", row_group_size=1,
                     use_compliant_nested_type=False)
      pq.write_table(pa.table({"ts": pa.array([dt.datetime(2020, 1, 2, 3, 4, 5, 123456), None, dt.datetime(1900, 1, 1)],
                                              pa.timestamp("ns"))}),
                     f"{d}/py/int96.parquet", use_deprecated_int96_timestamps=True)
      pq.write_table(zoo_table(), f"{d}/py/zoo-lz4.parquet", compression="lz4")
      """;

  @Test
  void everyTypeWrittenByJavaReadsBackInPyarrowWithEqualValuesUnderEveryCodec() {
    for (String codec : CODECS) {
      checks.assertOk("zoo " + codec + " values");
      checks.assertOk("zoo " + codec + " compression");
    }
  }

  @Test
  void parquetSchemaIsTheOnePyarrowWritesForTheSameArrowSchema() {
    checks.assertOk("parquet schema");
  }

  @Test
  void columnStatisticsAreWrittenWithUnsignedAndDecimalOrder() {
    checks.assertOk("statistics");
  }

  @Test
  void manyRowsAreSplitIntoRowGroupsWithTheKeyValueMetadataInTheFooter() throws IOException {
    checks.assertOk("many rows");
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "many.parquet")) {
      assertThat(reader.rowCount()).isEqualTo(MANY);
      assertThat(reader.rowGroups()).hasSizeGreaterThan(1);
      assertThat(reader.keyValueMetadata()).containsEntry("origin", "ktk-test");
      List<List<Object>> firstGroup = reader.readRowGroup(0, List.of("s"));
      assertThat(firstGroup.get(0)).containsExactly("value-0");
      assertThat(firstGroup).hasSize((int) reader.rowGroups().get(0).getRowCount());
      long expected = 0;
      var rows = reader.rows(List.of("i"));
      while (rows.hasNext()) {
        assertThat(rows.next()).containsExactly(expected++);
      }
      assertThat(expected).isEqualTo(MANY);
    }
  }

  @Test
  void everyTypeWrittenByJavaReadsBackInJava() throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "zoo-ZSTD.parquet")) {
      assertThat(reader.arrowSchema()).isEqualTo(TypeZoo.READ_SCHEMA);
      assertThat(comparable(reader.readAll(names(SCHEMA)))).isEqualTo(comparable(ROWS));
    }
  }

  @Test
  void columnsAreProjectedInTheOrderAskedFor() throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "zoo-SNAPPY.parquet")) {
      List<List<Object>> rows = reader.readAll(List.of("st", "i8", "l"));
      assertThat(rows).hasSize(3);
      assertThat(rows.get(0))
          .isEqualTo(Arrays.asList(TypeZoo.struct("a", 1L, "b", null), -128L, Arrays.asList(1L, null, 3L)));
      assertThat(rows.get(1)).isEqualTo(Arrays.asList(null, null, null));
      assertThatThrownBy(() -> reader.readAll(List.of("nope")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("nope")
          .hasMessageContaining("zoo-SNAPPY.parquet");
    }
  }

  @Test
  void everyTypeWrittenByPyarrowReadsBackInJava() throws IOException {
    for (String file : List.of("zoo-default", "zoo-v2-zstd", "zoo-gzip-groups")) {
      try (ParquetRowsReader reader = ParquetRowsReader.open(store, "py/" + file + ".parquet")) {
        assertThat(comparable(reader.readAll(names(SCHEMA)))).as(file).isEqualTo(comparable(ROWS));
        if (file.equals("zoo-v2-zstd")) {
          assertThat(reader.arrowSchema()).as(file).isEqualTo(TypeZoo.READ_SCHEMA);
          assertThat(reader.keyValueMetadata()).as(file).doesNotContainKey("ARROW:schema");
        }
        if (file.equals("zoo-gzip-groups")) {
          assertThat(reader.rowGroups()).as(file).hasSize(3);
        }
      }
    }
  }

  @Test
  void legacyInt96TimestampsReadAsLocalDateTimes() throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "py/int96.parquet")) {
      assertThat(reader.readAll(List.of("ts")))
          .containsExactly(List.of(ROWS.get(0).get(16)), Arrays.asList((Object) null), List.of(ROWS.get(2).get(16)));
    }
  }

  @Test
  void aFileOfAnUnsupportedCodecFailsNamingFileAndCodec() throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "py/zoo-lz4.parquet")) {
      assertThatThrownBy(() -> reader.readAll(List.of("i64")))
          .isInstanceOf(CorruptDatasetException.class)
          .hasMessageContaining("py/zoo-lz4.parquet")
          .hasMessageContaining("LZ4");
    }
  }

  private static List<String> names(Schema schema) {
    List<String> names = new ArrayList<>();
    schema.getFields().forEach(f -> names.add(f.getName()));
    return names;
  }
}
