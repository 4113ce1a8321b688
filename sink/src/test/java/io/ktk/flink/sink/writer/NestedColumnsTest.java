package io.ktk.flink.sink.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.PyChecks;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lists and structs, nested in each other, with null and empty lists, null elements and null
 * struct members: written by a job, read back with this project's reader and with pyarrow.
 */
class NestedColumnsTest {
  private static final int ROWS = 2_000;
  private static final LocalDateTime T0 = LocalDateTime.of(2024, 5, 6, 7, 8, 9);
  private static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("id", DataTypes.BIGINT()),
      DataTypes.FIELD("p", DataTypes.STRING()),
      DataTypes.FIELD("longs", DataTypes.ARRAY(DataTypes.BIGINT())),
      DataTypes.FIELD("names", DataTypes.ARRAY(DataTypes.STRING())),
      DataTypes.FIELD("point", DataTypes.ROW(
          DataTypes.FIELD("x", DataTypes.DOUBLE()),
          DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.STRING())))),
      DataTypes.FIELD("events", DataTypes.ARRAY(DataTypes.ROW(
          DataTypes.FIELD("name", DataTypes.STRING()),
          DataTypes.FIELD("at", DataTypes.TIMESTAMP(6))))),
      DataTypes.FIELD("matrix", DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.INT())))).getLogicalType();

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberSlotsPerTaskManager(2).build());

  @TempDir
  static Path dir;

  static List<Long> longs(long id) {
    return switch ((int) (id % 5)) {
      case 0 -> null;
      case 1 -> List.of();
      default -> id % 7 == 0 ? Arrays.asList(id, null) : List.of(id, id + 1, id + 2);
    };
  }

  static List<String> names(long id) {
    return switch ((int) (id % 4)) {
      case 0 -> null;
      case 1 -> Arrays.asList((String) null);
      default -> List.of("n" + id, "");
    };
  }

  static Map<String, Object> point(long id) {
    if (id % 6 == 0) {
      return null;
    }
    return struct("x", id % 6 == 1 ? null : id / 4.0, "tags", id % 3 == 0 ? null : List.of("t" + id % 3));
  }

  static List<Map<String, Object>> events(long id) {
    LocalDateTime at = T0.plusSeconds(id).plusNanos(1000 * (id % 997));
    return switch ((int) (id % 3)) {
      case 0 -> List.of();
      case 1 -> Arrays.asList(null, struct("name", "e" + id, "at", at));
      default -> List.of(struct("name", null, "at", at), struct("name", "x", "at", null));
    };
  }

  /** Only even ids have a matrix, so the files of partition p1 hold none (they keep its declared type). */
  static List<List<Long>> matrix(long id) {
    return id % 4 == 0 ? Arrays.asList(List.of(1L, 2L), null, List.of()) : null;
  }

  private static Map<String, Object> struct(Object... namesAndValues) {
    Map<String, Object> struct = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      struct.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return struct;
  }

  static RowData row(long id) {
    return GenericRowData.of(id, StringData.fromString("p" + id % 2), array(longs(id), v -> v), array(names(id),
        v -> StringData.fromString((String) v)),
        point(id) == null ? null : GenericRowData.of(point(id).get("x"),
            array((List<?>) point(id).get("tags"), v -> StringData.fromString((String) v))),
        array(events(id), v -> {
          Map<?, ?> event = (Map<?, ?>) v;
          return GenericRowData.of(event.get("name") == null ? null : StringData.fromString((String) event.get("name")),
              event.get("at") == null ? null : TimestampData.fromLocalDateTime((LocalDateTime) event.get("at")));
        }),
        array(matrix(id), v -> array((List<?>) v, x -> ((Long) x).intValue())));
  }

  private static GenericArrayData array(List<?> values, java.util.function.Function<Object, Object> convert) {
    if (values == null) {
      return null;
    }
    Object[] converted = new Object[values.size()];
    for (int i = 0; i < converted.length; i++) {
      converted[i] = values.get(i) == null ? null : convert.apply(values.get(i));
    }
    return new GenericArrayData(converted);
  }

  @BeforeAll
  static void write() throws Exception {
    StreamExecutionEnvironment env = batch();
    KartothekSink.forRowData(ROW_TYPE).store(dir.toUri().toString()).dataset("nested").partitionBy("p").build()
        .addTo(env.fromSource(new DataGeneratorSource<>(NestedColumnsTest::row, ROWS, InternalTypeInfo.of(ROW_TYPE)),
            WatermarkStrategy.noWatermarks(), "rows"));
    env.execute("nested");
  }

  private static StreamExecutionEnvironment batch() {
    return StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(
        new HashMap<>(Map.of("execution.runtime-mode", "BATCH", "parallelism.default", "1"))));
  }

  @Test
  void nestedValuesReadBackAsWritten() throws Exception {
    List<String> columns = List.of("id", "longs", "names", "point", "events", "matrix");
    int rows = 0;
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetSnapshot snapshot = DatasetSnapshot.latest(store, "nested");
      for (Partition partition : snapshot.partitions()) {
        for (DataFile file : partition.files()) {
          ArrowType matrixType = file.physicalSchema().findField("matrix").getType();
          // p1 holds no matrix at all, and keeps the declared type
          assertThat(matrixType).as("matrix in %s", file).isEqualTo(ArrowType.List.INSTANCE);
          try (ParquetRowsReader reader = ParquetRowsReader.open(store, file.key("nested"))) {
            for (List<Object> row : reader.readAll(columns)) {
              long id = (Long) row.get(0);
              assertThat(row).as("row %d", id).isEqualTo(
                  Arrays.asList(id, longs(id), names(id), point(id), events(id), matrix(id)));
              rows++;
            }
          }
        }
      }
    }
    assertThat(rows).isEqualTo(ROWS);
  }

  @Test
  void pyarrowReadsTheNestedColumns() {
    PyChecks checks = PyChecks.run("""
        import json, sys, datetime
        import pyarrow as pa, pyarrow.parquet as pq
        root = sys.argv[1]
        meta = json.load(open(root + "/nested.by-dataset-metadata.json"))
        rows = {}
        for label, part in meta["partitions"].items():
            table = pq.read_table(root + "/" + part["files"]["table"])
            if label.startswith("p=p0"):
                schema = table.schema
            if label.startswith("p=p1"):
                without_matrix = table.schema
            rows.update({r["id"]: r for r in table.to_pylist()})
        check("types", lambda: (schema.field("longs").type == pa.list_(pa.int64())
            and schema.field("point").type == pa.struct([("x", pa.float64()), ("tags", pa.list_(pa.string()))])
            and schema.field("events").type == pa.list_(pa.struct([("name", pa.string()), ("at", pa.timestamp("us"))]))
            and schema.field("matrix").type == pa.list_(pa.list_(pa.int32())), str(schema)))
        at = datetime.datetime(2024, 5, 6, 7, 8, 9) + datetime.timedelta(seconds=4, microseconds=4)
        check("row4", lambda: (rows[4] == {"id": 4, "longs": [4, 5, 6], "names": None,
            "point": {"x": 1.0, "tags": ["t1"]}, "events": [None, {"name": "e4", "at": at}],
            "matrix": [[1, 2], None, []]}, rows[4]))
        check("row7", lambda: (rows[7]["longs"] == [7, None] and rows[7]["names"] == ["n7", ""]
            and rows[7]["point"] == {"x": None, "tags": ["t1"]} and rows[7]["matrix"] is None, rows[7]))
        check("count", lambda: (len(rows) == 2000, len(rows)))
        check("typed without values", lambda: (without_matrix.field("matrix").type == pa.list_(pa.list_(pa.int32())),
            str(without_matrix)))
        """, dir.toString());
    for (String check : List.of("types", "row4", "row7", "count", "typed without values")) {
      checks.assertOk(check);
    }
  }

  @Test
  void aTimestampInsideAListThatWouldLosePrecisionIsRefused() {
    StreamExecutionEnvironment env = batch();
    KartothekSink.forRowData(ROW_TYPE).store(dir.toUri().toString()).dataset("refused").partitionBy("p").build()
        .addTo(env.fromSource(new DataGeneratorSource<>(id -> {
          GenericRowData row = (GenericRowData) row(id + 1);
          row.setField(5, new GenericArrayData(new Object[] {GenericRowData.of(StringData.fromString("late"),
              TimestampData.fromLocalDateTime(T0.plusNanos(1)))}));
          return row;
        }, 1, InternalTypeInfo.of(ROW_TYPE)), WatermarkStrategy.noWatermarks(), "rows"));
    assertThatThrownBy(() -> env.execute("refused"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, KtkValidationException.class)).get()
            .extracting(Throwable::getMessage).asString()
            .contains("dataset 'refused'", "column 'events'", "2024-05-06T07:08:09.000000001", "would lose precision"));
  }

  @Test
  void nestedKeyColumnsAreRefused() {
    assertThatThrownBy(() -> KartothekSink.forRowData(ROW_TYPE).store("file:///tmp").dataset("d").indexBy("longs").build())
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("index column 'longs' has the nested type ARRAY<BIGINT>");
  }

}
