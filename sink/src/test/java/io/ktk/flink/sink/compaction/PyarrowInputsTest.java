package io.ktk.flink.sink.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ktk.flink.sink.compaction.CompactionResult.Outcome;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.parquet.ArrowParquetSchemas;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.PyChecks;
import io.ktk.flink.state.testing.Python;
import io.ktk.flink.state.testing.TestDataset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written by pyarrow, as plateau and other writers leave them, with the physical types
 * Kartothek normalizes to the dataset's: integers of 8 and 32 bits, unsigned ones, float32,
 * timestamps in nanoseconds, decimals of a smaller precision, dictionary-encoded and large strings,
 * lists of int32, a column of Arrow type null, pandas' index column; pages v1 and v2, Snappy and
 * ZSTD, plain and dictionary values, delta encodings, several row groups in a file. Compaction writes one file with the dataset's
 * schema holding the same rows: read back with this project's reader and with pyarrow.
 */
class PyarrowInputsTest {
  private static final String WRITE = """
      import datetime, decimal, sys
      import pyarrow as pa, pyarrow.parquet as pq
      root, n = sys.argv[1], int(sys.argv[2])
      labels = sys.argv[3:]
      def table(variant, start):
          ids = list(range(start, start + n))
          s = pa.array(["w%d" % (i % 17) if i % 11 else None for i in ids])
          cols = {
              "id": pa.array(ids, pa.int64()),
              "n": pa.array([i % 100 - 50 for i in ids], [pa.int8(), pa.int32(), pa.int64()][variant]),
              "u": pa.array([i % 200 for i in ids], [pa.uint8(), pa.uint32(), pa.uint64()][variant]),
              "f": pa.array([i * 0.5 if i % 7 else None for i in ids], pa.float32() if variant == 0 else pa.float64()),
              "ts": pa.array([datetime.datetime(2024, 1, 1) + datetime.timedelta(microseconds=i * 1001) for i in ids],
                             pa.timestamp("ns" if variant == 1 else "us")),
              "d": pa.array([decimal.Decimal(i % 1000 - 500) / 100 for i in ids], pa.decimal128(5 if variant == 0 else 10, 2)),
              "s": s.dictionary_encode() if variant == 0 else s.cast(pa.large_string()) if variant == 1 else s,
              "b": pa.array([i % 3 == 0 if i % 5 else None for i in ids]),
              "dt": pa.array([datetime.date(2024, 1, 1) + datetime.timedelta(days=i % 400) for i in ids]),
              "bin": pa.array([bytes([i % 256, 7]) if i % 4 else None for i in ids]),
              "li": pa.array([[i, None] if i % 3 else [] if i % 2 else None for i in ids],
                             pa.list_(pa.int32() if variant == 0 else pa.int64())),
              "z": pa.nulls(n) if variant == 2 else pa.array([i if i % 2 else None for i in ids], pa.int64()),
          }
          table = pa.table(cols)
          if variant == 0:
              table = table.append_column("__index_level_0__", pa.array(ids, pa.int64()))
          return table
      options = [
          dict(data_page_size=2048, row_group_size=1000),
          dict(data_page_version="2.0", compression="zstd"),
          dict(use_dictionary=False, column_encoding={"id": "DELTA_BINARY_PACKED", "s": "DELTA_BYTE_ARRAY"}),
      ]
      for variant, label in enumerate(labels):
          pq.write_table(table(variant, variant * n), root + "/" + label + ".parquet", **options[variant])
      """;

  private static final String CHECK = """
      import pyarrow as pa, pyarrow.parquet as pq
      root, inputs, outputs = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
      expected = json.loads(sys.argv[4])
      written = [pq.read_table(root + "/" + f) for f in outputs]
      schema = written[0].schema
      check("schema", lambda: ([(f.name, str(f.type)) for f in schema] == [tuple(e) for e in expected], str(schema)))
      def load(f):
          table = pq.read_table(root + "/" + f)
          return pa.table([table.column(f.name).cast(f.type) if f.name in table.column_names
                           else pa.nulls(table.num_rows, f.type) for f in schema], schema=schema)
      before = pa.concat_tables([load(f) for f in inputs]).to_pylist()
      after = pa.concat_tables(written).to_pylist()
      check("rows", lambda: (before == after, "%d rows before, %d after; first difference: %s" % (len(before), len(after),
            next(((b, a) for b, a in zip(before, after) if b != a), None))))
      """;

  private static Field field(String name, ArrowType type) {
    return TestDataset.field(name, type);
  }

  static final Schema SCHEMA = new Schema(List.of(
      field("p", ArrowType.Utf8.INSTANCE),
      field("id", new ArrowType.Int(64, true)),
      field("n", new ArrowType.Int(64, true)),
      field("u", new ArrowType.Int(64, false)),
      field("f", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      field("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)),
      field("d", new ArrowType.Decimal(10, 2, 128)),
      field("s", ArrowType.LargeUtf8.INSTANCE),
      field("b", ArrowType.Bool.INSTANCE),
      field("dt", new ArrowType.Date(DateUnit.DAY)),
      field("bin", ArrowType.Binary.INSTANCE),
      new Field("li", FieldType.nullable(ArrowType.List.INSTANCE), List.of(field("item", new ArrowType.Int(64, true)))),
      field("z", new ArrowType.Int(64, true))));

  @TempDir Path dir;

  @Test
  void rewritesFilesOfOtherPhysicalTypesWithTheDatasetsSchemaAndTheSameRows() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      List<String> labels = List.of("p=a/00000000000000000000000000000001", "p=a/00000000000000000000000000000002",
          "p=a/00000000000000000000000000000003");
      Files.createDirectories(dir.resolve("mixed/table/p=a"));
      List<String> args = new ArrayList<>(List.of(dir.resolve("mixed/table").toString(), "3000"));
      args.addAll(labels);
      Python.run(WRITE, args.toArray(String[]::new));
      TestDataset dataset = new TestDataset(store, "mixed", SCHEMA, List.of("p"), List.of("n", "s"));
      for (String label : labels) {
        DataFile file = committedFile(store, label);
        dataset.commit(List.of(file), indexOf(store, file, List.of("n", "s")));
      }
      List<List<Object>> before = dataset.rows();
      List<String> inputs = dataset.filesInReadOrder("p=a").stream().map(f -> f.key("mixed")).toList();

      // row groups cut at 64 KiB: the output has several
      Compactor compactor = Compactor.of(store, "mixed", CompactionSettings.of(Configuration.fromMap(Map.of(
          "compaction.min-input-files", "3", "row-group-size", "64kb"))));
      CompactionResult result = compactor.compact(compactor.plan());

      assertThat(result.partitions()).singleElement().satisfies(partition -> {
        assertThat(partition.outcome()).as(partition.message()).isEqualTo(Outcome.COMMITTED);
        assertThat(partition.filesOut()).isEqualTo(1);
        assertThat(partition.rowsOut()).isEqualTo(9000);
      });
      assertThat(dataset.rows()).isEqualTo(before);
      DatasetState state = dataset.state();
      DataFile output = state.files().values().iterator().next();
      try (ParquetRowsReader reader = ParquetRowsReader.open(store, output.key("mixed"))) {
        assertThat(reader.parquetSchema()).isEqualTo(ArrowParquetSchemas.toParquet(dataset.dataSchema()));
        assertThat(reader.rowGroups()).hasSizeGreaterThan(1);
      }
      assertThat(output.physicalSchema()).isEqualTo(dataset.dataSchema());
      CompactorTest.assertIndexListsExactlyTheFilesHoldingEachValue(dataset, "n");
      CompactorTest.assertIndexListsExactlyTheFilesHoldingEachValue(dataset, "s");

      ObjectMapper json = new ObjectMapper();
      List<List<String>> expected = List.of(List.of("id", "int64"), List.of("n", "int64"), List.of("u", "uint64"),
          List.of("f", "double"), List.of("ts", "timestamp[us]"), List.of("d", "decimal128(10, 2)"),
          List.of("s", "large_string"), List.of("b", "bool"), List.of("dt", "date32[day]"), List.of("bin", "binary"),
          List.of("li", "list<element: int64>"), List.of("z", "int64"));
      PyChecks checks = PyChecks.run(CHECK, dir.toString(), json.writeValueAsString(inputs),
          json.writeValueAsString(List.of(output.key("mixed"))), json.writeValueAsString(expected));
      checks.assertOk("schema");
      checks.assertOk("rows");
    }
  }

  private static DataFile committedFile(LocalObjectStore store, String label) throws Exception {
    String key = "mixed/table/" + label + ".parquet";
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, key)) {
      return new DataFile(label, reader.rowCount(), store.head(key).orElseThrow().size(), null);
    }
  }

  /** The index values of {@code columns} in {@code file}, read with this project's reader. */
  static Map<String, Map<IndexValue, List<String>>> indexOf(LocalObjectStore store, DataFile file, List<String> columns)
      throws Exception {
    Map<String, Map<IndexValue, List<String>>> index = new HashMap<>();
    try (ParquetRowsReader reader = ParquetRowsReader.open(store, file.key("mixed"))) {
      for (List<Object> row : reader.readAll(columns)) {
        for (int c = 0; c < columns.size(); c++) {
          if (row.get(c) != null) {
            List<String> labels = index.computeIfAbsent(columns.get(c), k -> new HashMap<>())
                .computeIfAbsent(IndexValue.of(row.get(c)), v -> new ArrayList<>());
            if (labels.isEmpty()) {
              labels.add(file.label());
            }
          }
        }
      }
    }
    return index;
  }
}
