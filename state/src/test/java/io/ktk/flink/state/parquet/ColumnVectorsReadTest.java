package io.ktk.flink.state.parquet;

import static io.ktk.flink.state.parquet.TypeZoo.comparable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.Python;
import io.ktk.flink.state.vector.DoubleVector;
import io.ktk.flink.state.vector.LongVector;
import io.ktk.flink.state.vector.ObjectVector;
import io.ktk.flink.state.vector.TypedVector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ParquetRowsReader#readColumns} against the row reader ({@link
 * ParquetRowsReader#readRowGroup}), the reference: every row group of files written by {@link
 * ParquetRowsWriter} (every type of {@link TypeZoo}, also checked against the rows written) and by
 * pyarrow (every primitive type it writes, dictionary and plain, v1 and v2 pages, many pages per
 * chunk, a dictionary falling back to plain mid-chunk, other encodings, an empty table), read
 * whole and in seeded random projections.
 */
class ColumnVectorsReadTest {
  private static final long SEED = 20_250_617L;
  private static final int JAVA_ROWS = 3_000;
  private static final int JAVA_GROUP_ROWS = 700;
  private static final List<String> JAVA_FILES = List.of("java-dict.parquet", "java-plain.parquet");
  private static final List<String> PY_FILES =
      List.of("dict-v1", "dict-v2", "plain-v1", "plain-v2", "fallback", "encodings", "int96", "empty");

  private static final Schema JAVA_SCHEMA = RandomZooRows.schema();

  @TempDir static Path dir;
  private static LocalObjectStore store;
  private static List<List<Object>> javaRows;

  @BeforeAll
  static void writeFiles() throws IOException {
    store = new LocalObjectStore(dir);
    javaRows = RandomZooRows.rows(JAVA_SCHEMA, JAVA_ROWS, new Random(SEED));
    ParquetWriteOptions small = ParquetWriteOptions.defaults().withPageSizeBytes(1 << 10);
    writeJava("java-dict.parquet", small);
    writeJava("java-plain.parquet", small.withDictionaryEncoding(false));
    Files.createDirectories(dir.resolve("py"));
    Python.run(PY_SCRIPT, dir.resolve("py").toString());
  }

  private static void writeJava(String key, ParquetWriteOptions options) throws IOException {
    try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, key, JAVA_SCHEMA, Map.of(), options)) {
      for (int i = 0; i < javaRows.size(); i++) {
        if (i > 0 && i % JAVA_GROUP_ROWS == 0) {
          writer.endRowGroup();
        }
        writer.write(javaRows.get(i));
      }
    }
  }

  private static final String PY_SCRIPT =
      """
      import sys, random, decimal, datetime as dt
      import numpy as np, pyarrow as pa, pyarrow.parquet as pq
      out = sys.argv[1]
      N = 3000
      rng = random.Random(20250617)
      def col(gen, nulls=0.1):
          return [None if rng.random() < nulls else gen() for _ in range(N)]
      def ints(lo, hi, t):
          return pa.array(col(lambda: rng.randint(lo, hi)), t)
      def floats(scale=1e6):
          special = [float("nan"), float("inf"), float("-inf"), -0.0, 0.0, 1.5]
          return col(lambda: rng.choice(special) if rng.random() < 0.1 else rng.uniform(-scale, scale))
      def decimals(precision, scale):
          bound = 10**precision - 1
          return pa.array(col(lambda: decimal.Decimal(rng.randint(-bound, bound)).scaleb(-scale)),
                          pa.decimal128(precision, scale))
      def half():
          values = floats(6e4)
          mask = np.array([v is None for v in values])
          return pa.array(np.array([0.0 if v is None else v for v in values], dtype=np.float16), mask=mask)
      words = ["alpha", "beta", "gamma", "", "héllo ✓", "delta"]
      columns = {
          "i8": ints(-128, 127, pa.int8()),
          "i16": ints(-32768, 32767, pa.int16()),
          "i32": ints(-2**31, 2**31 - 1, pa.int32()),
          "i64": ints(-2**63, 2**63 - 1, pa.int64()),
          "u8": ints(0, 255, pa.uint8()),
          "u16": ints(0, 65535, pa.uint16()),
          "u32": ints(0, 2**32 - 1, pa.uint32()),
          "u64": ints(0, 2**64 - 1, pa.uint64()),
          "f16": half(),
          "f32": pa.array(floats(), pa.float32()),
          "f64": pa.array(floats(), pa.float64()),
          "date": pa.array(col(lambda: rng.randint(-719162, 2932896)), pa.int32()).cast(pa.date32()),
          "t32ms": ints(0, 86400 * 1000 - 1, pa.time32("ms")),
          "t64us": ints(0, 86400 * 10**6 - 1, pa.time64("us")),
          "t64ns": ints(0, 86400 * 10**9 - 1, pa.time64("ns")),
          "ts_s": ints(-10**11, 10**11, pa.timestamp("s")),
          "ts_ms": ints(-10**14, 10**14, pa.timestamp("ms")),
          "ts_us": ints(-10**17, 10**17, pa.timestamp("us")),
          "ts_ns": ints(-2**62, 2**62, pa.timestamp("ns")),
          "tsz_s": ints(-10**11, 10**11, pa.timestamp("s", "UTC")),
          "tsz_ms": ints(-10**14, 10**14, pa.timestamp("ms", "Europe/Berlin")),
          "tsz_us": ints(-10**17, 10**17, pa.timestamp("us", "UTC")),
          "tsz_ns": ints(-2**62, 2**62, pa.timestamp("ns", "+05:30")),
          "dec5_2": decimals(5, 2),
          "dec15_3": decimals(15, 3),
          "dec18_0": decimals(18, 0),
          "dec30_4": decimals(30, 4),
          "words": pa.array(col(lambda: rng.choice(words)), pa.string()),
          "uniq": pa.array(col(lambda: f"unique-{rng.getrandbits(64):016x}"), pa.string()),
          "large": pa.array(col(lambda: rng.choice(words) + str(rng.randint(0, 9))), pa.large_string()),
          "bin": pa.array(col(lambda: rng.randbytes(rng.randint(0, 8))), pa.binary()),
          "fsb": pa.array(col(lambda: rng.randbytes(4)), pa.binary(4)),
          "few_bin": pa.array(col(lambda: rng.choice([b"", b"\\x00", b"\\xff\\xfe"])), pa.binary()),
          "bool": pa.array(col(lambda: rng.random() < 0.5), pa.bool_()),
          "list": pa.array(col(lambda: [None if rng.random() < 0.2 else rng.randint(-5, 5)
                                        for _ in range(rng.randint(0, 4))]), pa.list_(pa.int64())),
          "struct": pa.array(col(lambda: {"a": rng.choice([None, 1, 2, 3]), "b": rng.choice([None, "x", "y"])}),
                             pa.struct([("a", pa.int64()), ("b", pa.string())])),
          "all_null": pa.array([None] * N, pa.int64()),
          "all_null_s": pa.array([None] * N, pa.string()),
          "null": pa.nulls(N),
          "req": pa.array(list(range(N)), pa.int64()),
      }
      table = pa.table(columns)
      req = table.schema.get_field_index("req")
      table = table.cast(table.schema.set(req, pa.field("req", pa.int64(), nullable=False)))
      small = dict(data_page_size=512, write_batch_size=64, row_group_size=1000)
      pq.write_table(table, f"{out}/dict-v1.parquet", use_dictionary=True, data_page_version="1.0",
                     store_decimal_as_integer=True, **small)
      pq.write_table(table, f"{out}/dict-v2.parquet", use_dictionary=True, data_page_version="2.0",
                     compression="zstd", **small)
      pq.write_table(table, f"{out}/plain-v1.parquet", use_dictionary=False, data_page_version="1.0",
                     compression="none", **small)
      pq.write_table(table, f"{out}/plain-v2.parquet", use_dictionary=False, data_page_version="2.0",
                     store_decimal_as_integer=True, compression="gzip", **small)
      pq.write_table(table, f"{out}/fallback.parquet", use_dictionary=True, dictionary_pagesize_limit=1024,
                     data_page_size=512, write_batch_size=64, row_group_size=N)
      encodings = {}
      for name in ["i32", "i64", "u32", "u64", "date", "ts_us", "tsz_ns", "t64ns", "dec15_3"]:
          encodings[name] = "DELTA_BINARY_PACKED"
      for name in ["f32", "f64", "fsb"]:
          encodings[name] = "BYTE_STREAM_SPLIT"
      encodings["words"] = "DELTA_BYTE_ARRAY"
      encodings["uniq"] = "DELTA_LENGTH_BYTE_ARRAY"
      encodings["bin"] = "DELTA_BYTE_ARRAY"
      pq.write_table(table, f"{out}/encodings.parquet", use_dictionary=False, column_encoding=encodings,
                     data_page_version="2.0", store_decimal_as_integer=True, **small)
      pq.write_table(table.select(["ts_ns", "tsz_us", "req"]), f"{out}/int96.parquet",
                     use_deprecated_int96_timestamps=True, **small)
      pq.write_table(table.slice(0, 0), f"{out}/empty.parquet")
      """;

  @Test
  void javaFilesHaveDictionaryAndPlainChunksOfManyPagesInSeveralRowGroups() throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "java-dict.parquet")) {
      assertThat(reader.rowGroups()).hasSize((JAVA_ROWS + JAVA_GROUP_ROWS - 1) / JAVA_GROUP_ROWS);
      for (BlockMetaData group : reader.rowGroups()) {
        for (String column : List.of("dict_s", "dict_i")) {
          EncodingStats stats = chunk(group, column).getEncodingStats();
          assertThat(stats.hasDictionaryPages()).as(column).isTrue();
          assertThat(stats.hasNonDictionaryEncodedPages()).as(column).isFalse();
        }
        for (String column : group.getRowCount() < JAVA_GROUP_ROWS ? List.<String>of()
            : List.of("plain_s", "plain_i", "dict_s", "s", "i64")) {
          assertThat(dataPages(chunk(group, column))).as("%s: %s", column, describe(chunk(group, column)))
              .isGreaterThan(1);
        }
        assertThat(chunk(group, "plain_s").getEncodingStats().hasNonDictionaryEncodedPages()).isTrue();
        assertThat(chunk(group, "plain_i").getEncodingStats().hasNonDictionaryEncodedPages()).isTrue();
      }
    }
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "java-plain.parquet")) {
      for (BlockMetaData group : reader.rowGroups()) {
        for (ColumnChunkMetaData chunk : group.getColumns()) {
          assertThat(chunk.getEncodingStats().hasDictionaryEncodedPages()).as(chunk.getPath().toString()).isFalse();
        }
      }
    }
  }

  @Test
  void javaFilesReadColumnByColumnEqualTheWrittenRowsAndTheRowReader() throws IOException {
    for (String file : JAVA_FILES) {
      try (ParquetRowsReader reader = ParquetRowsReader.open(store, file)) {
        List<String> columns = names(JAVA_SCHEMA);
        int first = 0;
        for (int g = 0; g < reader.rowGroups().size(); g++) {
          List<TypedVector> vectors = reader.readColumns(g, columns);
          List<List<Object>> written = javaRows.subList(first, first + vectors.get(0).size());
          for (int c = 0; c < columns.size(); c++) {
            assertThat(comparable(values(vectors.get(c))))
                .as("%s group %d column %s against the rows written", file, g, columns.get(c))
                .isEqualTo(comparable(column(written, c)));
          }
          assertSameAsRowReader(reader, file, g, columns);
          first += vectors.get(0).size();
        }
        assertThat(first).isEqualTo(JAVA_ROWS);
      }
    }
  }

  @Test
  void stringsOfDictionaryChunksTellTheirEntryPerRow() throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "java-dict.parquet")) {
      for (int g = 0; g < reader.rowGroups().size(); g++) {
        ObjectVector vector = (ObjectVector) reader.readColumns(g, List.of("dict_s")).get(0);
        assertThat(vector.dictionary()).as("group %d", g).isNotNull();
        for (int row = 0; row < vector.size(); row++) {
          int id = vector.dictionaryIds()[row];
          assertThat(id < 0 ? null : vector.dictionary()[id]).isEqualTo(vector.get(row));
        }
        ObjectVector plain = (ObjectVector) reader.readColumns(g, List.of("plain_s")).get(0);
        assertThat(plain.dictionary()).as("a chunk that falls back to plain pages").isNull();
      }
    }
  }

  @Test
  void pyarrowFilesReadColumnByColumnEqualTheRowReader() throws IOException {
    for (String file : PY_FILES) {
      try (ParquetRowsReader reader = ParquetRowsReader.open(store, "py/" + file + ".parquet")) {
        List<String> columns = names(reader.arrowSchema());
        for (int g = 0; g < reader.rowGroups().size(); g++) {
          assertSameAsRowReader(reader, file, g, columns);
        }
      }
    }
  }

  @Test
  void pyarrowFilesHaveTheLayoutsTheyAreMeantToTest() throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "py/dict-v1.parquet")) {
      assertThat(reader.rowGroups()).hasSize(3);
      assertThat(dataPages(chunk(reader.rowGroups().get(0), "i64"))).isGreaterThan(2);
      assertThat(chunk(reader.rowGroups().get(0), "words").getEncodingStats().hasNonDictionaryEncodedPages())
          .isFalse();
      assertThat(physical(reader, "dec5_2")).isEqualTo(PrimitiveType.PrimitiveTypeName.INT32);
      assertThat(physical(reader, "dec15_3")).isEqualTo(PrimitiveType.PrimitiveTypeName.INT64);
      assertThat(physical(reader, "dec30_4"))
          .isEqualTo(PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY);
    }
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "py/plain-v1.parquet")) {
      assertThat(physical(reader, "dec5_2"))
          .isEqualTo(PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY);
      assertThat(chunk(reader.rowGroups().get(0), "words").getEncodingStats().hasDictionaryPages()).isFalse();
    }
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "py/fallback.parquet")) {
      EncodingStats stats = chunk(reader.rowGroups().get(0), "uniq").getEncodingStats();
      assertThat(stats.hasDictionaryEncodedPages()).as("uniq starts dictionary encoded").isTrue();
      assertThat(stats.hasNonDictionaryEncodedPages()).as("uniq falls back to plain").isTrue();
    }
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "py/empty.parquet")) {
      assertThat(reader.rowGroups()).hasSize(1);
      assertThat(reader.rowGroups().get(0).getRowCount()).isZero();
    }
  }

  @Test
  void seededRandomProjectionsInAnyOrderReadTheSameValuesAsTheRowReader() throws IOException {
    Random random = new Random(SEED);
    for (String file : List.of("java-dict.parquet", "py/dict-v2.parquet", "py/fallback.parquet")) {
      try (ParquetRowsReader reader = ParquetRowsReader.open(store, file)) {
        List<String> all = names(reader.arrowSchema());
        for (int round = 0; round < 8; round++) {
          List<String> projection = new ArrayList<>(all);
          Collections.shuffle(projection, random);
          projection = projection.subList(0, 1 + random.nextInt(all.size()));
          int group = random.nextInt(reader.rowGroups().size());
          assertSameAsRowReader(reader, file + " seed " + SEED + " round " + round, group, projection);
        }
        List<String> reversed = new ArrayList<>(all);
        Collections.reverse(reversed);
        assertSameAsRowReader(reader, file + " reversed", 0, reversed);
      }
    }
  }

  @Test
  void aSelectionReadsExactlyTheSelectedRowsOfEveryColumnAndLayout() throws IOException {
    Random random = new Random(SEED);
    List<String> files = new ArrayList<>(JAVA_FILES);
    PY_FILES.forEach(file -> files.add("py/" + file + ".parquet"));
    for (String file : files) {
      try (ParquetRowsReader reader = ParquetRowsReader.open(store, file)) {
        List<String> columns = names(reader.arrowSchema());
        for (int g = 0; g < reader.rowGroups().size(); g++) {
          List<List<Object>> rows = reader.readRowGroup(g, columns);
          int count = rows.size();
          // runs of selected and unselected rows longer than a page, single rows, none and all
          boolean[][] selections = {new boolean[count], new boolean[count], new boolean[count], new boolean[count]};
          for (int row = 0; row < count; row++) {
            selections[0][row] = random.nextInt(10) == 0;
            selections[1][row] = (row / 500) % 2 == 1;
            selections[3][row] = true;
          }
          for (boolean[] flags : selections) {
            RowSelection selection = RowSelection.of(flags, count);
            List<TypedVector> vectors = reader.readColumns(g, columns, selection);
            for (int c = 0; c < columns.size(); c++) {
              List<Object> want = new ArrayList<>();
              for (int row = 0; row < count; row++) {
                if (flags[row]) {
                  want.add(rows.get(row).get(c));
                }
              }
              assertThat(comparable(values(vectors.get(c))))
                  .as("%s group %d column %s, %d of %d rows selected", file, g, columns.get(c), selection.count(), count)
                  .isEqualTo(comparable(want));
            }
          }
        }
      }
    }
  }

  @Test
  void aSelectionOfAnotherRowCountIsRefused() throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "java-dict.parquet")) {
      RowSelection wrong = RowSelection.of(new boolean[3], 3);
      assertThatThrownBy(() -> reader.readColumns(0, List.of("req"), wrong))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("a selection of 3 rows for row group 0");
    }
  }

  @Test
  void aProjectionPutsEachColumnWhereItWasAskedFor() throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "java-dict.parquet")) {
      List<TypedVector> vectors = reader.readColumns(0, List.of("st", "req", "dict_s", "f32"));
      assertThat(vectors).hasSize(4);
      assertThat(vectors.get(0)).isInstanceOf(ObjectVector.class);
      assertThat(vectors.get(1)).isInstanceOf(LongVector.class);
      assertThat(vectors.get(3)).isInstanceOf(DoubleVector.class);
      int req = names(JAVA_SCHEMA).indexOf("req");
      int dict = names(JAVA_SCHEMA).indexOf("dict_s");
      for (int row = 0; row < 5; row++) {
        assertThat(vectors.get(1).get(row)).isEqualTo(javaRows.get(row).get(req));
        assertThat(vectors.get(2).get(row)).isEqualTo(javaRows.get(row).get(dict));
      }
      assertThat(reader.readColumns(0, List.of())).isEmpty();
    }
  }

  @Test
  void aColumnAskedForTwiceOrMissingIsRefusedAsByTheRowReader() throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "py/dict-v1.parquet")) {
      for (List<String> columns : List.of(List.of("i64", "words", "i64"), List.of("list", "list"))) {
        assertThatThrownBy(() -> reader.readRowGroup(0, columns))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("twice");
        assertThatThrownBy(() -> reader.readColumns(0, columns))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining(columns.get(columns.size() - 1))
            .hasMessageContaining("twice")
            .hasMessageContaining("py/dict-v1.parquet");
      }
      assertThatThrownBy(() -> reader.readColumns(0, List.of("i64", "nope")))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("nope")
          .hasMessageContaining("py/dict-v1.parquet");
    }
  }

  @Test
  void integerAndTemporalColumnsAreLongVectorsAndFloatingPointColumnsDoubleVectors() throws IOException {
    List<String> files = new ArrayList<>(JAVA_FILES);
    PY_FILES.forEach(f -> files.add("py/" + f + ".parquet"));
    for (String file : files) {
      try (ParquetRowsReader reader = ParquetRowsReader.open(store, file)) {
        List<String> columns = names(reader.arrowSchema());
        List<TypedVector> vectors = reader.readColumns(0, columns);
        for (int c = 0; c < columns.size(); c++) {
          Field field = reader.arrowSchema().getFields().get(c);
          if (physical(reader, field.getName()) == PrimitiveType.PrimitiveTypeName.INT96) {
            continue; // legacy timestamps of any range: typed values
          }
          Class<?> expected = switch (field.getType().getTypeID()) {
            case Int, Date, Time, Timestamp -> LongVector.class;
            case FloatingPoint -> DoubleVector.class;
            case Decimal -> TypedVector.class; // longs up to 18 digits when stored as integers
            default -> ObjectVector.class;
          };
          assertThat(vectors.get(c)).as("%s column %s (%s)", file, field.getName(), field.getType())
              .isInstanceOf(expected);
        }
      }
    }
  }

  @Test
  void stringsFromADictionaryPageAreOneInstancePerEntryWithinARowGroup() throws IOException {
    Map<String, List<String>> dictionaryColumns =
        Map.of("java-dict.parquet", List.of("dict_s", "s"), "py/dict-v1.parquet", List.of("words", "large"),
            "py/dict-v2.parquet", List.of("words", "large"));
    for (var entry : dictionaryColumns.entrySet()) {
      try (ParquetRowsReader reader = ParquetRowsReader.open(store, entry.getKey())) {
        for (int g = 0; g < reader.rowGroups().size(); g++) {
          for (String column : entry.getValue()) {
            assertThat(chunk(reader.rowGroups().get(g), column).getEncodingStats().hasNonDictionaryEncodedPages())
                .as("%s group %d %s is dictionary encoded", entry.getKey(), g, column).isFalse();
            TypedVector vector = reader.readColumns(g, List.of(column)).get(0);
            Map<String, String> first = new HashMap<>();
            Set<Object> instances = Collections.newSetFromMap(new IdentityHashMap<>());
            int values = 0;
            for (int row = 0; row < vector.size(); row++) {
              String value = (String) vector.get(row);
              if (value != null) {
                assertThat(value).as("%s group %d %s row %d", entry.getKey(), g, column, row)
                    .isSameAs(first.computeIfAbsent(value, v -> value));
                instances.add(value);
                values++;
              }
            }
            assertThat(values).as("%s group %d %s repeats values", entry.getKey(), g, column)
                .isGreaterThan(instances.size() * 2);
          }
        }
      }
    }
  }

  @Test
  void binariesFromADictionaryPageAreOneArrayPerRowAsFromTheRowReader() throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "py/dict-v1.parquet")) {
      assertThat(chunk(reader.rowGroups().get(0), "few_bin").getEncodingStats().hasNonDictionaryEncodedPages())
          .isFalse();
      TypedVector vector = reader.readColumns(0, List.of("few_bin")).get(0);
      Set<Object> arrays = Collections.newSetFromMap(new IdentityHashMap<>());
      int values = 0;
      for (int row = 0; row < vector.size(); row++) {
        if (vector.get(row) != null) {
          values++;
          assertThat(arrays.add(vector.get(row))).as("row %d has an array of its own", row).isTrue();
        }
      }
      assertThat(values).isGreaterThan(100);
    }
  }

  @Test
  void anEmptyTableReadsAsVectorsOfNoRows() throws IOException {
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, "py/empty.parquet")) {
      List<String> columns = names(reader.arrowSchema());
      List<TypedVector> vectors = reader.readColumns(0, columns);
      assertThat(vectors).hasSize(columns.size());
      assertThat(vectors).allSatisfy(v -> assertThat(v.size()).isZero());
      assertThat(vectors.get(columns.indexOf("i64"))).isInstanceOf(LongVector.class);
      assertThat(vectors.get(columns.indexOf("f64"))).isInstanceOf(DoubleVector.class);
    }
  }

  @Test
  void allNullColumnsReadAsNullsInEveryRow() throws IOException {
    for (String file : List.of("dict-v1", "plain-v2", "encodings")) {
      try (ParquetRowsReader reader = ParquetRowsReader.open(store, "py/" + file + ".parquet")) {
        for (int g = 0; g < reader.rowGroups().size(); g++) {
          List<TypedVector> vectors = reader.readColumns(g, List.of("all_null", "null", "all_null_s", "req"));
          int rows = (int) reader.rowGroups().get(g).getRowCount();
          for (int c = 0; c < 3; c++) {
            TypedVector vector = vectors.get(c);
            assertThat(vector.size()).isEqualTo(rows);
            for (int row = 0; row < rows; row++) {
              assertThat(vector.isNull(row)).isTrue();
              assertThat(vector.get(row)).isNull();
            }
          }
          assertThat(((LongVector) vectors.get(0)).hasNulls()).isTrue();
          assertThat(((LongVector) vectors.get(3)).hasNulls()).isFalse();
        }
      }
    }
  }

  // --- helpers ---

  private static void assertSameAsRowReader(ParquetRowsReader reader, String file, int group, List<String> columns)
      throws IOException {
    List<List<Object>> rows = reader.readRowGroup(group, columns);
    List<TypedVector> vectors = reader.readColumns(group, columns);
    assertThat(vectors).hasSize(columns.size());
    long count = reader.rowGroups().get(group).getRowCount();
    assertThat(rows).hasSize((int) count);
    for (int c = 0; c < columns.size(); c++) {
      TypedVector vector = vectors.get(c);
      assertThat(vector.size()).as("%s group %d column %s size", file, group, columns.get(c)).isEqualTo(count);
      List<Object> got = values(vector);
      List<Object> want = column(rows, c);
      for (int row = 0; row < count; row++) {
        assertThat(vector.isNull(row)).isEqualTo(want.get(row) == null);
      }
      boolean anyNull = want.contains(null);
      if (vector instanceof LongVector longs) {
        assertThat(longs.hasNulls()).as("%s group %d column %s has nulls", file, group, columns.get(c))
            .isEqualTo(anyNull);
        for (int row = 0; row < count; row++) {
          if (longs.isNull(row)) {
            assertThat(longs.values()[row]).isZero();
          }
        }
      }
      if (vector instanceof DoubleVector doubles) {
        assertThat(doubles.hasNulls()).as("%s group %d column %s has nulls", file, group, columns.get(c))
            .isEqualTo(anyNull);
      }
      assertThat(comparable(got)).as("%s group %d column %s of %s", file, group, columns.get(c), columns)
          .isEqualTo(comparable(want));
    }
  }

  private static List<Object> values(TypedVector vector) {
    List<Object> values = new ArrayList<>();
    for (int row = 0; row < vector.size(); row++) {
      values.add(vector.get(row));
    }
    return values;
  }

  private static List<Object> column(List<List<Object>> rows, int column) {
    List<Object> values = new ArrayList<>();
    rows.forEach(row -> values.add(row.get(column)));
    return values;
  }

  private static List<String> names(Schema schema) {
    return schema.getFields().stream().map(Field::getName).toList();
  }

  private static Type type(ParquetRowsReader reader, String column) {
    return reader.parquetSchema().getType(column);
  }

  /** The physical type of a top-level column; null for a group. */
  private static PrimitiveType.PrimitiveTypeName physical(ParquetRowsReader reader, String column) {
    Type type = type(reader, column);
    return type.isPrimitive() ? type.asPrimitiveType().getPrimitiveTypeName() : null;
  }

  private static ColumnChunkMetaData chunk(BlockMetaData group, String column) {
    return group.getColumns().stream()
        .filter(c -> c.getPath().toDotString().equals(column))
        .findFirst()
        .orElseThrow();
  }

  private static String describe(ColumnChunkMetaData chunk) {
    EncodingStats stats = chunk.getEncodingStats();
    StringBuilder out = new StringBuilder(chunk.getEncodings() + " data pages");
    for (var encoding : stats.getDataEncodings()) {
      out.append(' ').append(encoding).append('=').append(stats.getNumDataPagesEncodedAs(encoding));
    }
    return out + ", " + chunk.getTotalSize() + " bytes, " + chunk.getValueCount() + " values";
  }

  private static int dataPages(ColumnChunkMetaData chunk) {
    EncodingStats stats = chunk.getEncodingStats();
    return stats.getDataEncodings().stream().mapToInt(stats::getNumDataPagesEncodedAs).sum();
  }
}
