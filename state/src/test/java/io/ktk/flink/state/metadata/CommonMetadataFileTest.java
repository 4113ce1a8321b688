package io.ktk.flink.state.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.PyChecks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommonMetadataFileTest {
  private static final ArrowType I64 = new ArrowType.Int(64, true);
  private static final ArrowType UTF8 = ArrowType.Utf8.INSTANCE;

  /** A normalized schema in no particular order, with non-nullable fields at several levels. */
  private static final Schema INPUT =
      new Schema(
          List.of(
              Field.nullable("zeta", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
              Field.nullable("p", I64),
              Field.nullable("s", UTF8),
              Field.notNullable("Alpha", I64),
              Field.notNullable("q", UTF8),
              Field.nullable("é", ArrowType.Bool.INSTANCE),
              Field.nullable("bin", ArrowType.Binary.INSTANCE),
              Field.nullable("d", new ArrowType.Date(DateUnit.DAY)),
              Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
              Field.nullable("tsz", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
              Field.nullable("dec", new ArrowType.Decimal(10, 2, 128)),
              new Field("l", FieldType.notNullable(ArrowType.List.INSTANCE), List.of(Field.notNullable("item", I64))),
              new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(Field.notNullable("a", I64))),
              Field.nullable("n", ArrowType.Null.INSTANCE),
              Field.nullable("u", new ArrowType.Int(64, false))));

  private static final List<String> PARTITION_KEYS = List.of("q", "p");

  /** INPUT as stored: partition keys first, the rest by code point, everything nullable. */
  private static final Schema STORED =
      new Schema(
          List.of(
              Field.nullable("q", UTF8),
              Field.nullable("p", I64),
              Field.nullable("Alpha", I64),
              Field.nullable("bin", ArrowType.Binary.INSTANCE),
              Field.nullable("d", new ArrowType.Date(DateUnit.DAY)),
              Field.nullable("dec", new ArrowType.Decimal(10, 2, 128)),
              new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(Field.nullable("item", I64))),
              Field.nullable("n", ArrowType.Null.INSTANCE),
              Field.nullable("s", UTF8),
              new Field("st", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(Field.nullable("a", I64))),
              Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
              Field.nullable("tsz", new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC")),
              Field.nullable("u", new ArrowType.Int(64, false)),
              Field.nullable("zeta", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
              Field.nullable("é", ArrowType.Bool.INSTANCE)));

  private static final String SCRIPT =
      """
      import pyarrow as pa, pyarrow.parquet as pq, base64
      d = sys.argv[1]
      path = f"{d}/ours/table/_common_metadata"
      EXPECTED = pa.schema([
          ("q", pa.string()), ("p", pa.int64()), ("Alpha", pa.int64()), ("bin", pa.binary()), ("d", pa.date32()),
          ("dec", pa.decimal128(10, 2)), ("l", pa.list_(pa.int64())), ("n", pa.null()), ("s", pa.string()),
          ("st", pa.struct([("a", pa.int64())])), ("ts", pa.timestamp("us")), ("tsz", pa.timestamp("us", "UTC")),
          ("u", pa.uint64()), ("zeta", pa.float64()), ("é", pa.bool_())])
      def col(name, pandas_type, numpy_type, metadata=None):
          return {"name": name, "field_name": name, "pandas_type": pandas_type, "numpy_type": numpy_type, "metadata": metadata}
      EXPECTED_PANDAS_COLUMNS = [
          col("q", "unicode", "object"), col("p", "int64", "int64"), col("Alpha", "int64", "int64"),
          col("bin", "bytes", "object"), col("d", "date", "object"),
          col("dec", "decimal", "object", {"precision": 10, "scale": 2}), col("l", "list[int64]", "object"),
          col("n", "empty", "object"), col("s", "unicode", "object"), col("st", "object", "object"),
          col("ts", "datetime", "datetime64[us]"), col("tsz", "datetimetz", "datetime64[us]", {"timezone": "UTC"}),
          col("u", "uint64", "uint64"), col("zeta", "float64", "float64"), col("é", "bool", "bool")]
      EXPECTED_COLUMN_INDEXES = [{"name": None, "field_name": None, "pandas_type": "unicode", "numpy_type": "object",
                                  "metadata": {"encoding": "UTF-8"}}]

      def read_schema():
          s = pq.read_schema(path)
          return s.remove_metadata().equals(EXPECTED) and b"pandas" in s.metadata, str(s)
      check("read_schema", read_schema)

      def zero_rows():
          md = pq.read_metadata(path)
          keys = set(md.metadata.keys())
          return (md.num_rows, md.num_row_groups, keys) == (0, 0, {b"ARROW:schema", b"pandas"}), f"{md} {keys}"
      check("zero rows", zero_rows)

      def arrow_schema_entry():
          md = pq.read_metadata(path).metadata
          s = pa.ipc.read_schema(pa.py_buffer(base64.b64decode(md[b"ARROW:schema"])))
          want = EXPECTED.with_metadata({b"pandas": md[b"pandas"]})
          return s.equals(want, check_metadata=True), str(s)
      check("ARROW:schema", arrow_schema_entry)

      def pandas_entry():
          p = json.loads(pq.read_metadata(path).metadata[b"pandas"])
          ok = (p["index_columns"] == [] and p["column_indexes"] == EXPECTED_COLUMN_INDEXES
                and p["columns"] == EXPECTED_PANDAS_COLUMNS and isinstance(p["pandas_version"], str)
                and p["creator"]["library"] == "ktk-flink")
          return ok, json.dumps(p)
      check("pandas", pandas_entry)

      def to_pandas():
          df = pq.read_table(path).to_pandas()
          again = pa.Schema.from_pandas(df, preserve_index=False)
          return list(df.columns) == EXPECTED.names and len(df) == 0 and again.names == EXPECTED.names, str(df.dtypes)
      check("to_pandas", to_pandas)

      def plateau_strings():
          # plateau's SchemaWrapper: a string field whose pandas entry is unicode/object becomes large_string.
          s = pq.read_schema(path)
          converted = [c["field_name"] for c in s.pandas_metadata["columns"]
                       if pa.types.is_string(s.field(c["field_name"]).type)
                       and c["pandas_type"] == "unicode" and c["numpy_type"] == "object"]
          return converted == ["q", "s"], converted
      check("plateau strings", plateau_strings)

      # _common_metadata as plateau writes it, with and without ARROW:schema.
      theirs = pa.schema([("p", pa.int64()), ("s", pa.large_string()), ("ts", pa.timestamp("ns")), ("d", pa.date32()),
                          ("l", pa.list_(pa.int64()))], metadata={b"pandas": b"{}"})
      pq.write_metadata(theirs, f"{d}/theirs/table/_common_metadata", version="2.4", coerce_timestamps="us")
      pq.write_metadata(theirs, f"{d}/bare/table/_common_metadata", version="2.4", coerce_timestamps="us", store_schema=False)
      """;

  @TempDir static Path dir;
  private static LocalObjectStore store;
  private static PyChecks checks;

  @BeforeAll
  static void writeAndCheckInPyarrow() throws IOException {
    store = new LocalObjectStore(dir);
    CommonMetadataFile.write(store, "ours/table/_common_metadata", INPUT, PARTITION_KEYS);
    java.nio.file.Files.createDirectories(dir.resolve("theirs/table"));
    java.nio.file.Files.createDirectories(dir.resolve("bare/table"));
    checks = PyChecks.run(SCRIPT, dir.toString());
  }

  @Test
  void layoutPutsPartitionKeysFirstThenColumnsByNameAllNullable() {
    assertThat(CommonMetadataFile.layout(INPUT, PARTITION_KEYS)).isEqualTo(STORED);
  }

  @Test
  void pyarrowReadsTheSchemaWithZeroRowsAndBothEntries() {
    checks.assertOk("read_schema");
    checks.assertOk("zero rows");
    checks.assertOk("ARROW:schema");
  }

  @Test
  void pandasEntryIsWhatPlateauExpectsAndConvertsToADataFrame() {
    checks.assertOk("pandas");
    checks.assertOk("to_pandas");
    checks.assertOk("plateau strings");
  }

  @Test
  void ourFileReadsBackAsTheStoredSchema() throws IOException {
    assertThat(CommonMetadataFile.read(store, "ours/table/_common_metadata")).isEqualTo(STORED);
    assertThat(CommonMetadataFile.read(CommonMetadataFile.write(INPUT, PARTITION_KEYS), "x")).isEqualTo(STORED);
  }

  @Test
  void pyarrowsFileReadsFromItsArrowSchemaOrElseFromTheParquetSchema() throws IOException {
    Field list = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(Field.nullable("item", I64)));
    assertThat(CommonMetadataFile.read(store, "theirs/table/_common_metadata"))
        .isEqualTo(new Schema(List.of(
            Field.nullable("p", I64),
            Field.nullable("s", ArrowType.LargeUtf8.INSTANCE),
            Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)),
            Field.nullable("d", new ArrowType.Date(DateUnit.DAY)),
            list)));
    Field elementList = new Field("l", FieldType.nullable(ArrowType.List.INSTANCE), List.of(Field.nullable("element", I64)));
    assertThat(CommonMetadataFile.read(store, "bare/table/_common_metadata"))
        .isEqualTo(new Schema(List.of(
            Field.nullable("p", I64),
            Field.nullable("s", UTF8),
            Field.nullable("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
            Field.nullable("d", new ArrowType.Date(DateUnit.DAY)),
            elementList)));
  }

  @Test
  void missingTruncatedAndForeignFilesFailNamingTheKey() throws IOException {
    byte[] good = CommonMetadataFile.write(INPUT, PARTITION_KEYS);
    store.put("cut/table/_common_metadata", Arrays.copyOf(good, good.length - 10));
    store.put("json/table/_common_metadata", "{\"dataset_uuid\": \"x\"}".getBytes(StandardCharsets.UTF_8));
    Schema one = new Schema(List.of(Field.nullable("a", I64)));
    writeWithArrowSchema("garbled/table/_common_metadata", one, "%%% not base64");
    writeWithArrowSchema("renamed/table/_common_metadata", one,
        ArrowSchemaMetadata.encode(new Schema(List.of(Field.nullable("b", I64)))));
    for (String dataset : List.of("missing", "cut", "json", "garbled", "renamed")) {
      String key = dataset + "/table/_common_metadata";
      assertThatThrownBy(() -> CommonMetadataFile.read(store, key))
          .as(key)
          .isInstanceOf(CorruptDatasetException.class)
          .hasMessageContaining(key);
    }
    assertThatThrownBy(() -> CommonMetadataFile.read(store, "garbled/table/_common_metadata"))
        .hasMessageContaining("ARROW:schema");
  }

  private static void writeWithArrowSchema(String key, Schema schema, String value) throws IOException {
    ParquetRowsWriter.create(store, key, schema, Map.of("ARROW:schema", value), ParquetWriteOptions.defaults()).close();
  }

  @Test
  void partitionKeysMustBeColumnsOnceAndColumnsUnique() {
    assertThatThrownBy(() -> CommonMetadataFile.layout(INPUT, List.of("p", "nope")))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("partition key nope");
    assertThatThrownBy(() -> CommonMetadataFile.layout(INPUT, List.of("p", "p")))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("appears twice");
    Schema duplicate = new Schema(List.of(Field.nullable("a", I64), Field.nullable("a", UTF8)));
    assertThatThrownBy(() -> CommonMetadataFile.layout(duplicate, List.of()))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("column a appears twice");
  }
}
