package io.ktk.flink.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.PyChecks;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Flink type the sink writes, through a job, read back with this project's reader and with
 * pyarrow: values, the file's physical types, and a column without values typed null.
 */
class ColumnTypesTest {
  private static final int ROWS = 3_000;
  private static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("part", DataTypes.STRING()),
      DataTypes.FIELD("i8", DataTypes.TINYINT()),
      DataTypes.FIELD("i16", DataTypes.SMALLINT()),
      DataTypes.FIELD("i32", DataTypes.INT()),
      DataTypes.FIELD("i64", DataTypes.BIGINT()),
      DataTypes.FIELD("f32", DataTypes.FLOAT()),
      DataTypes.FIELD("f64", DataTypes.DOUBLE()),
      DataTypes.FIELD("flag", DataTypes.BOOLEAN()),
      DataTypes.FIELD("text", DataTypes.STRING()),
      DataTypes.FIELD("bytes", DataTypes.BYTES()),
      DataTypes.FIELD("day", DataTypes.DATE()),
      DataTypes.FIELD("time", DataTypes.TIME(3)),
      DataTypes.FIELD("ts", DataTypes.TIMESTAMP(6)),
      DataTypes.FIELD("ltz", DataTypes.TIMESTAMP_LTZ(6)),
      DataTypes.FIELD("small", DataTypes.DECIMAL(10, 2)),
      DataTypes.FIELD("big", DataTypes.DECIMAL(30, 5)),
      DataTypes.FIELD("maybe", DataTypes.BIGINT())).getLogicalType();
  private static final LocalDateTime T0 = LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_000);

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberSlotsPerTaskManager(2).build());

  @TempDir
  static Path dir;

  /** Row {@code id}: partition "a" (even ids, where {@code maybe} is always null) or "b"; every 5th row all nulls. */
  static RowData row(long id) {
    int n = (int) id;
    boolean nulls = id % 5 == 4;
    String part = id % 2 == 0 ? "a" : "b";
    if (nulls) {
      GenericRowData row = new GenericRowData(ROW_TYPE.getFieldCount());
      row.setField(0, StringData.fromString(part));
      return row;
    }
    return GenericRowData.of(
        StringData.fromString(part),
        (byte) (n % 256 - 128),
        (short) (n * 7 - 10_000),
        n * 1_000_003,
        id * 1_000_000_007L - (1L << 40),
        n / 3f,
        n % 7 == 0 ? Double.NaN : -n / 7.0,
        n % 3 == 0,
        StringData.fromString("t" + n + "ü€"),
        new byte[] {(byte) n, 0, (byte) -n},
        (int) LocalDate.of(2024, 2, 29).plusDays(n - 1500).toEpochDay(),
        (n * 1_001) % 86_400_000,
        TimestampData.fromLocalDateTime(T0.plusSeconds(n).plusNanos(1000L * n)),
        TimestampData.fromInstant(Instant.ofEpochSecond(1_700_000_000L + n, 123_000)),
        DecimalData.fromBigDecimal(new BigDecimal(n).movePointLeft(2).negate(), 10, 2),
        DecimalData.fromBigDecimal(new BigDecimal("123456789012345678901234.5").add(BigDecimal.valueOf(n)), 30, 5),
        id % 2 == 0 ? null : id);
  }

  @BeforeAll
  static void writeAllTypes() throws Exception {
    Map<String, String> settings = new HashMap<>(Map.of("execution.runtime-mode", "BATCH", "parallelism.default", "1"));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(settings));
    KartothekSink.forRowData(ROW_TYPE).store(dir.toUri().toString()).dataset("types").partitionBy("part").build()
        .addTo(env.fromSource(new DataGeneratorSource<>(ColumnTypesTest::row, ROWS, InternalTypeInfo.of(ROW_TYPE)),
            WatermarkStrategy.noWatermarks(), "rows"));
    env.execute("all types");
  }

  @Test
  void valuesReadBackAsWritten() throws Exception {
    List<String> columns = ROW_TYPE.getFieldNames().subList(1, ROW_TYPE.getFieldCount());
    List<List<Object>> read = new ArrayList<>();
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetSnapshot snapshot = DatasetSnapshot.latest(store, "types");
      for (Partition partition : snapshot.partitions()) {
        for (DataFile file : partition.files()) {
          try (ParquetRowsReader reader = ParquetRowsReader.open(store, file.key("types"))) {
            for (List<Object> row : reader.readAll(columns)) {
              List<Object> withPart = new ArrayList<>();
              withPart.add(partition.values().get(0));
              withPart.addAll(row);
              read.add(withPart);
            }
          }
        }
      }
    }
    assertThat(read).hasSize(ROWS);
    read.sort((x, y) -> Long.compare(key(x), key(y)));
    int checked = 0;
    for (List<Object> row : read) {
      if (row.get(1) == null) {
        continue; // all-null rows have no id to match; counted below
      }
      long id = ((Long) row.get(4) + (1L << 40)) / 1_000_000_007L;
      assertThat(comparable(row)).as("row %d", id).isEqualTo(comparable(expected(id)));
      checked++;
    }
    assertThat(checked).isEqualTo(ROWS - ROWS / 5);
  }

  /** Binary values as hex, so that rows compare by content. */
  private static List<Object> comparable(List<Object> row) {
    return row.stream().map(v -> v instanceof byte[] b ? (Object) HexFormat.of().formatHex(b) : v).toList();
  }

  private static long key(List<Object> row) {
    return row.get(4) == null ? Long.MAX_VALUE : (Long) row.get(4);
  }

  /** Row {@code id} in the typed values this project's reader returns. */
  private static List<Object> expected(long id) {
    int n = (int) id;
    return Arrays.asList(
        id % 2 == 0 ? "a" : "b",
        (long) (n % 256 - 128),
        (long) (n * 7 - 10_000),
        (long) (n * 1_000_003),
        id * 1_000_000_007L - (1L << 40),
        (double) (n / 3f),
        n % 7 == 0 ? Double.NaN : -n / 7.0,
        n % 3 == 0,
        "t" + n + "ü€",
        new byte[] {(byte) n, 0, (byte) -n},
        LocalDate.of(2024, 2, 29).plusDays(n - 1500),
        LocalTime.ofNanoOfDay(((n * 1_001L) % 86_400_000) * 1_000_000),
        T0.plusSeconds(n).plusNanos(1000L * n),
        Instant.ofEpochSecond(1_700_000_000L + n, 123_000),
        new BigDecimal(n).movePointLeft(2).negate().setScale(2),
        new BigDecimal("123456789012345678901234.5").add(BigDecimal.valueOf(n)).setScale(5),
        id % 2 == 0 ? null : id);
  }

  @Test
  void aColumnWithoutValuesKeepsItsDeclaredTypeInItsFiles() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetSnapshot snapshot = DatasetSnapshot.latest(store, "types");
      assertThat(snapshot.schema().findField("maybe").getType()).isEqualTo(new ArrowType.Int(64, true));
      for (Partition partition : snapshot.partitions()) {
        for (DataFile file : partition.files()) {
          ArrowType maybe = file.physicalSchema().findField("maybe").getType();
          assertThat(maybe).as("maybe in %s", file).isEqualTo(new ArrowType.Int(64, true));
          assertThat(file.physicalSchema().getFields()).extracting(f -> f.getName()).doesNotContain("part");
        }
      }
    }
  }

  @Test
  void pyarrowReadsTheTypesAndValues() {
    PyChecks checks = PyChecks.run("""
        import json, sys, datetime, decimal, math
        import pyarrow as pa, pyarrow.parquet as pq
        root = sys.argv[1]
        meta = json.load(open(root + "/types.by-dataset-metadata.json"))
        tables = {label.split("/")[0]: pq.read_table(root + "/" + part["files"]["table"])
                  for label, part in meta["partitions"].items()}
        b = tables["part=b"]
        expected = {"i8": pa.int8(), "i16": pa.int16(), "i32": pa.int32(), "i64": pa.int64(), "f32": pa.float32(),
                    "f64": pa.float64(), "flag": pa.bool_(), "text": pa.string(), "bytes": pa.binary(),
                    "day": pa.date32(), "time": pa.time64("us"), "ts": pa.timestamp("us"),
                    "ltz": pa.timestamp("us", tz="UTC"), "small": pa.decimal128(10, 2), "big": pa.decimal128(30, 5),
                    "maybe": pa.int64()}
        check("types", lambda: (all(b.schema.field(k).type == t for k, t in expected.items())
                                and "part" not in b.schema.names, str(b.schema)))
        check("null_column", lambda: (tables["part=a"].schema.field("maybe").type == pa.int64()
                                      and tables["part=a"].column("maybe").null_count == tables["part=a"].num_rows,
                                      str(tables["part=a"].schema)))
        rows = {r["i64"]: r for r in b.to_pylist() if r["i64"] is not None}
        n = 1
        r = rows[n * 1000000007 - (1 << 40)]
        want = {"i8": n % 256 - 128, "i16": n * 7 - 10000, "i32": n * 1000003, "flag": False, "text": "t1ü€",
                "bytes": bytes([1, 0, 255]), "day": datetime.date(2024, 2, 29) + datetime.timedelta(days=n - 1500),
                "time": datetime.time(0, 0, 1, 1000),
                "ts": datetime.datetime(1970, 1, 1, 0, 0, 1),
                "ltz": datetime.datetime.fromtimestamp(1700000001, datetime.timezone.utc).replace(microsecond=123),
                "small": decimal.Decimal("-0.01"), "big": decimal.Decimal("123456789012345678901235.50000"),
                "maybe": 1}
        check("values", lambda: (all(r[k] == v for k, v in want.items()) and math.isclose(r["f32"], 1 / 3, rel_tol=1e-6)
                                 and r["f64"] == -1 / 7, {k: (r[k], want.get(k)) for k in r}))
        """, dir.toString());
    for (String check : List.of("types", "null_column", "values")) {
      checks.assertOk(check);
    }
  }
}
