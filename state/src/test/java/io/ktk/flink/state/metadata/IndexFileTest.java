package io.ktk.flink.state.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.PyChecks;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IndexFileTest {
  private static final ArrowType I64 = new ArrowType.Int(64, true);
  private static final ArrowType U64 = new ArrowType.Int(64, false);
  private static final ArrowType F64 = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
  private static final ArrowType UTF8 = ArrowType.Utf8.INSTANCE;
  private static final ArrowType DATE = new ArrowType.Date(DateUnit.DAY);
  private static final ArrowType TS = new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
  private static final ArrowType TSZ = new ArrowType.Timestamp(TimeUnit.MICROSECOND, "UTC");
  private static final ArrowType DEC = new ArrowType.Decimal(10, 2, 128);

  private static final String SCRIPT =
      """
      import pyarrow as pa, pyarrow.parquet as pq, datetime as dt, decimal
      d = sys.argv[1]
      UTC = dt.timezone.utc
      PARTS = pa.list_(pa.string())
      EXPECTED = {
          "i": (pa.int64(), [(-1, ["p=1/a"]), (3, ["p=1/a", "p=2/b"])]),
          "s": (pa.large_string(), [("Z", ["x"]), ("a", ["x", "y"]), ("b", ["x"]), ("é", ["z"])]),
          "u": (pa.uint64(), [(5, ["b"]), (9223372036854775808, ["c"]), (18446744073709551615, ["a"])]),
          "f": (pa.float64(), [(float("-inf"), ["d"]), (-0.0, ["b", "c"]), (1.5, ["e"]), (float("nan"), ["a"])]),
          "d": (pa.date32(), [(dt.date(1999, 12, 31), ["b"]), (dt.date(2020, 2, 29), ["a"])]),
          "ts": (pa.timestamp("us"), [(dt.datetime(2020, 1, 2, 3, 4, 5, 6), ["a"])]),
          "tsz": (pa.timestamp("us", "UTC"), [(dt.datetime(2020, 1, 2, 3, 4, 5, 6, tzinfo=UTC), ["a"])]),
          "bin": (pa.binary(), [(b"\\x01\\x02", ["a", "b"]), (b"\\xff", ["c"])]),
          "dec": (pa.decimal128(10, 2), [(decimal.Decimal("-1.50"), ["a"]), (decimal.Decimal("2.00"), ["b"])]),
          "empty": (pa.int64(), []),
      }
      for column, (type_, rows) in EXPECTED.items():
          def index_file(column=column, type_=type_, rows=rows):
              path = f"{d}/ours/indices/{column}/x.by-dataset-index.parquet"
              f = pq.ParquetFile(path)
              t = f.read()
              want_schema = pa.schema([(column, type_), ("partition", PARTS)])
              got = list(zip(t.column(column).to_pylist(), t.column("partition").to_pylist()))
              keys = set(f.metadata.metadata.keys())
              ok = t.schema.equals(want_schema) and same(got, rows) and keys == {b"ARROW:schema"}
              # plateau's _parquet_bytes_to_dict
              df = t.to_pandas(coerce_temporal_nanoseconds=True)
              dict(zip(df[column].values, (list(x) for x in df["partition"].values)))
              return ok, f"{t.schema} {got} {keys}"
          check(f"index {column}", index_file)
      def zstd():
          f = pq.ParquetFile(f"{d}/ours/indices/i/zstd.by-dataset-index.parquet")
          got = list(zip(f.read().column("i").to_pylist(), f.read().column("partition").to_pylist()))
          return f.metadata.row_group(0).column(0).compression == "ZSTD" and got == EXPECTED["i"][1], got
      check("zstd", zstd)

      # Index files as plateau's ExplicitSecondaryIndex.store writes them: values in dict order.
      def plateau_index(column, type_, index_dct):
          table = pa.Table.from_arrays(
              [pa.array(list(index_dct.keys()), type=type_), pa.array(list(index_dct.values()), type=PARTS)],
              names=[column, "partition"])
          buf = pa.BufferOutputStream()
          with pq.ParquetWriter(buf, schema=table.schema) as writer:
              writer.write_table(table)
          with open(f"{d}/theirs/{column}.by-dataset-index.parquet", "wb") as out:
              out.write(buf.getvalue().to_pybytes())
      plateau_index("i", pa.int64(), {7: ["p=1/x"], -2: ["p=1/x", "p=0/y"]})
      plateau_index("i32", pa.int32(), {1: ["a"]})
      plateau_index("s", pa.large_string(), {"b": ["p=1/x"], "a": ["p=2/y"]})
      plateau_index("s2", pa.string(), {"b": ["p=1/x"]})
      plateau_index("ts", pa.timestamp("ns"), {dt.datetime(2021, 5, 6, 7, 8, 9, 123456): ["a"]})
      plateau_index("d", pa.date32(), {dt.date(2021, 5, 6): ["a"]})
      plateau_index("u", pa.uint64(), {18446744073709551615: ["a"], 1: ["b"]})
      plateau_index("empty", pa.int64(), {})
      """;

  @TempDir static Path dir;
  private static LocalObjectStore store;
  private static PyChecks checks;

  @BeforeAll
  static void writeAndCheckInPyarrow() throws IOException {
    store = new LocalObjectStore(dir);
    write("i", I64, entries(3L, List.of("p=2/b", "p=1/a", "p=1/a"), -1L, List.of("p=1/a"), 10L, List.of()));
    write("s", UTF8, entries("b", List.of("x"), "a", List.of("y", "x"), "é", List.of("z"), "Z", List.of("x")));
    write("u", U64, entries(-1L, List.of("a"), 5L, List.of("b"), Long.MIN_VALUE, List.of("c")));
    write("f", F64, entries(Double.NaN, List.of("a"), -0.0, List.of("b"), 0.0, List.of("c"),
        Double.NEGATIVE_INFINITY, List.of("d"), 1.5, List.of("e")));
    write("d", DATE, entries(LocalDate.of(2020, 2, 29), List.of("a"), LocalDate.of(1999, 12, 31), List.of("b")));
    write("ts", TS, entries(LocalDateTime.of(2020, 1, 2, 3, 4, 5, 6000), List.of("a")));
    write("tsz", TSZ, entries(Instant.parse("2020-01-02T03:04:05.000006Z"), List.of("a")));
    write("bin", ArrowType.Binary.INSTANCE,
        entries(new byte[] {1, 2}, List.of("a"), new byte[] {1, 2}, List.of("b"), new byte[] {(byte) 0xFF}, List.of("c")));
    write("dec", DEC, entries(new BigDecimal("2.00"), List.of("b"), new BigDecimal("-1.5"), List.of("a")));
    write("empty", I64, Map.of());
    store.put("ours/indices/i/zstd.by-dataset-index.parquet",
        IndexFile.write("i", I64, entries(3L, List.of("p=2/b", "p=1/a"), -1L, List.of("p=1/a")),
            ParquetWriteOptions.defaults().withCompression(CompressionCodecName.ZSTD)));
    Files.createDirectories(dir.resolve("theirs"));
    checks = PyChecks.run(SCRIPT, dir.toString());
  }

  private static void write(String column, ArrowType type, Map<?, List<String>> index) throws IOException {
    IndexFile.write(store, "ours/indices/" + column + "/x.by-dataset-index.parquet", column, type, index);
  }

  /** An insertion-ordered map of alternating values and label lists. */
  private static Map<Object, List<String>> entries(Object... valuesAndLabels) {
    Map<Object, List<String>> map = new LinkedHashMap<>();
    for (int i = 0; i < valuesAndLabels.length; i += 2) {
      @SuppressWarnings("unchecked")
      List<String> labels = (List<String>) valuesAndLabels[i + 1];
      map.put(valuesAndLabels[i], labels);
    }
    return map;
  }

  /** The index as (value, labels) pairs in map order, byte arrays as hex. */
  private static List<List<Object>> pairs(Map<Object, List<String>> index) {
    List<List<Object>> pairs = new ArrayList<>();
    index.forEach((value, labels) ->
        pairs.add(List.of(value instanceof byte[] ? HexFormat.of().formatHex((byte[]) value) : value, labels)));
    return pairs;
  }

  @Test
  void pyarrowReadsOurIndexFilesAsSortedValuesWithSortedLabels() {
    for (String column : List.of("i", "s", "u", "f", "d", "ts", "tsz", "bin", "dec", "empty")) {
      checks.assertOk("index " + column);
    }
    checks.assertOk("zstd");
  }

  @Test
  void ourIndexFilesReadBackMergedAndOrdered() throws IOException {
    assertThat(pairs(IndexFile.read(store, "ours/indices/f/x.by-dataset-index.parquet", "f", F64)))
        .containsExactly(
            List.of(Double.NEGATIVE_INFINITY, List.of("d")),
            List.of(-0.0, List.of("b", "c")),
            List.of(1.5, List.of("e")),
            List.of(Double.NaN, List.of("a")));
    ArrowType binary = ArrowType.Binary.INSTANCE;
    assertThat(pairs(IndexFile.read(store, "ours/indices/bin/x.by-dataset-index.parquet", "bin", binary)))
        .containsExactly(List.of("0102", List.of("a", "b")), List.of("ff", List.of("c")));
    assertThat(pairs(IndexFile.read(store, "ours/indices/u/x.by-dataset-index.parquet", "u", U64)))
        .containsExactly(List.of(5L, List.of("b")), List.of(Long.MIN_VALUE, List.of("c")), List.of(-1L, List.of("a")));
    assertThat(pairs(IndexFile.read(store, "ours/indices/dec/x.by-dataset-index.parquet", "dec", DEC)))
        .containsExactly(List.of(new BigDecimal("-1.50"), List.of("a")), List.of(new BigDecimal("2.00"), List.of("b")));
    assertThat(IndexFile.read(store, "ours/indices/empty/x.by-dataset-index.parquet", "empty", I64)).isEmpty();
  }

  @Test
  void indexFilesWrittenLikePlateauReadAsTypedValues() throws IOException {
    assertThat(pairs(read("i", I64)))
        .containsExactly(List.of(-2L, List.of("p=0/y", "p=1/x")), List.of(7L, List.of("p=1/x")));
    assertThat(pairs(read("i32", I64))).containsExactly(List.of(1L, List.of("a")));
    assertThat(pairs(read("s", UTF8))).containsExactly(List.of("a", List.of("p=2/y")), List.of("b", List.of("p=1/x")));
    assertThat(pairs(read("s2", UTF8))).containsExactly(List.of("b", List.of("p=1/x")));
    assertThat(pairs(read("ts", TS)))
        .containsExactly(List.of(LocalDateTime.of(2021, 5, 6, 7, 8, 9, 123_456_000), List.of("a")));
    assertThat(pairs(read("d", DATE))).containsExactly(List.of(LocalDate.of(2021, 5, 6), List.of("a")));
    assertThat(pairs(read("u", U64))).containsExactly(List.of(1L, List.of("b")), List.of(-1L, List.of("a")));
    assertThat(read("empty", I64)).isEmpty();
  }

  private static Map<Object, List<String>> read(String column, ArrowType type) throws IOException {
    return IndexFile.read(store, "theirs/" + column + ".by-dataset-index.parquet", column, type);
  }

  @Test
  void anIndexOfAnotherTypeThanItsColumnFailsNamingFileAndBothTypes() {
    assertThatThrownBy(() -> read("i", UTF8))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("theirs/i.by-dataset-index.parquet")
        .hasMessageContaining("expected type string, found int64");
    assertThatThrownBy(() -> IndexFile.read(store, "ours/indices/s/x.by-dataset-index.parquet", "s", I64))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("ours/indices/s/x.by-dataset-index.parquet")
        .hasMessageContaining("expected type int64, found large_string");
    assertThatThrownBy(() -> IndexFile.read(store, "ours/indices/tsz/x.by-dataset-index.parquet", "tsz", TS))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("expected type timestamp[us], found timestamp[us, tz=UTC]");
    assertThatThrownBy(() -> IndexFile.read(store, "ours/indices/u/x.by-dataset-index.parquet", "u", I64))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("found uint64");
  }

  @Test
  void missingForeignAndWrongColumnFilesFailNamingTheKey() throws IOException {
    store.put("bad/text.parquet", "1,a\n2,b\n".getBytes(StandardCharsets.UTF_8));
    byte[] good = IndexFile.write("i", I64, entries(1L, List.of("a")));
    store.put("bad/cut.parquet", java.util.Arrays.copyOf(good, good.length / 2));
    for (String key : List.of("bad/missing.parquet", "bad/text.parquet", "bad/cut.parquet")) {
      assertThatThrownBy(() -> IndexFile.read(store, key, "i", I64))
          .as(key)
          .isInstanceOf(CorruptDatasetException.class)
          .hasMessageContaining(key);
    }
    assertThatThrownBy(() -> IndexFile.read(store, "theirs/i.by-dataset-index.parquet", "j", I64))
        .isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("theirs/i.by-dataset-index.parquet")
        .hasMessageContaining("no column j");
  }

  @Test
  void indexValuesMustBeNonNullAndOfTheColumnsJavaType() {
    assertThatThrownBy(() -> IndexFile.write("i", I64, entries(null, List.of("a"))))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("null value");
    assertThatThrownBy(() -> IndexFile.write("i", I64, entries(1, List.of("a"))))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("value 1 is a Integer, expected a Long");
    assertThatThrownBy(() -> IndexFile.write("i", I64, entries(1L, java.util.Arrays.asList("a", null))))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("null partition label");
    assertThatThrownBy(() -> IndexFile.write("partition", I64, Map.of()))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("partition");
    assertThatThrownBy(() -> IndexFile.write("l", ArrowType.List.INSTANCE, Map.of()))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("primitive types only");
  }

  @Test
  void labelsAreWrittenInCodePointOrderWithoutDuplicatesWhateverOrderTheyComeIn() throws IOException {
    // UTF-16 order (String.compareTo, a TreeSet's) puts a character beyond the BMP (a surrogate
    // pair) before U+E000..U+FFFF; Python and pyarrow order by code point, where it comes after.
    List<String> labels = List.of("p=\uFFFD/a", "p=\uD83D\uDE00/b", "p=z/c", "p=\uE000/d", "p=\uD83D\uDE01/e",
        "p=z/c");
    List<String> expected = labels.stream().distinct()
        .sorted(java.util.Comparator.comparing((String label) -> label.codePoints().toArray(), java.util.Arrays::compare))
        .toList();
    for (java.util.Collection<String> input : List.of(labels, new java.util.TreeSet<>(labels), expected)) {
      byte[] file = IndexFile.write("i", I64, Map.of(1L, input));
      try (io.ktk.flink.state.parquet.ParquetRowsReader reader =
          io.ktk.flink.state.parquet.ParquetRowsReader.open(new io.ktk.flink.state.parquet.BytesInputFile("i", file))) {
        java.util.Iterator<List<Object>> rows = reader.rows(List.of("i", IndexFile.PARTITION_COLUMN));
        assertThat(rows.next().get(1)).isEqualTo(expected);
        assertThat(rows.hasNext()).isFalse();
      }
    }
  }
}
