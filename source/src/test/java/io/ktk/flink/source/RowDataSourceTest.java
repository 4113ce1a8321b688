package io.ktk.flink.source;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.source.testing.FlinkRows;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.conversion.DataStructureConverter;
import org.apache.flink.table.data.conversion.DataStructureConverters;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The RowData records of {@link KartothekSource.Builder#buildRowData()} and of the SQL scan hold
 * exactly the rows of the in-process reader (which the Row source emits, {@link
 * KartothekSourceTest}): the same values, nulls and order, for every column type, on a cube with
 * a left-joined enrichment of fewer dimensions, a sparse one, overwritten cells and conditions of
 * each class. Flink's own converters turn the records into external values for the comparison.
 */
class RowDataSourceTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  private static final Field DAY = field("dt", new ArrowType.Date(DateUnit.DAY));
  private static final Field SENSOR = field("sensor", ArrowType.Utf8.INSTANCE);
  private static final Field TS = field("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null));
  private static final Field READING = field("reading", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  private static final Field COUNT = field("count", new ArrowType.Int(32, true));
  private static final Field NOTE = field("note", ArrowType.Utf8.INSTANCE);
  private static final Field TAGS = new Field("tags", FieldType.nullable(ArrowType.List.INSTANCE),
      List.of(field("item", ArrowType.Utf8.INSTANCE)));
  private static final Field AMOUNT = field("amount", new ArrowType.Decimal(10, 2, 128));
  private static final Field BIG = field("big", new ArrowType.Int(64, false));
  private static final Field SEEN = field("seen", new ArrowType.Timestamp(TimeUnit.MILLISECOND, "UTC"));
  private static final Field SHIFT = field("shift", new ArrowType.Time(TimeUnit.MILLISECOND, 32));
  private static final Field OFFSET = field("offset", new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE));
  private static final Field LOCATION = field("location", ArrowType.Utf8.INSTANCE);
  private static final Field LEVEL = field("level", ArrowType.Utf8.INSTANCE);

  @TempDir static Path dir;

  @BeforeAll
  static void writeCube() throws Exception {
    CubeFixture cube = new CubeFixture(new LocalObjectStore(dir),
        new CubeSpec("plant", List.of("sensor", "ts"), List.of("dt"), "readings", new TreeSet<>()));
    List<List<Object>> readings = new ArrayList<>();
    List<List<Object>> calibration = new ArrayList<>();
    List<List<Object>> alerts = new ArrayList<>();
    for (int d = 0; d < 3; d++) {
      LocalDate day = LocalDate.of(1969, 12, 31).plusDays(d); // timestamps before and after the epoch
      for (int s = 0; s < 5; s++) {
        String sensor = "s" + s;
        if (s != 4) {
          calibration.add(Arrays.asList(day, sensor, s * 0.25, s == 2 ? null : "hall-" + s));
        }
        for (int i = 0; i < 12; i++) {
          LocalDateTime ts = day.atStartOfDay().plusSeconds(i * 3607L).plusNanos((i * 7919L + s) * 1000);
          int n = d * 60 + s * 12 + i;
          readings.add(Arrays.asList(day, sensor, ts,
              n % 7 == 0 ? null : n * 0.5 - 3,
              n % 5 == 0 ? null : (long) n - 40,
              n % 3 == 0 ? null : "note " + n,
              n % 4 == 0 ? null : n % 4 == 1 ? List.of() : Arrays.asList("a" + n, null),
              n % 6 == 0 ? null : BigDecimal.valueOf(n * 1001L - 30000, 2),
              n % 9 == 0 ? null : n % 2 == 0 ? -1L - n : (long) n, // uint64: above Long.MAX_VALUE when negative
              n % 8 == 0 ? null : Instant.ofEpochMilli(n * 86_400_123L - 1_000_000_000L),
              n % 10 == 3 ? null : LocalTime.ofNanoOfDay(n * 60_001_000_000L)));
          if ((n * 7) % 5 < 2) {
            alerts.add(Arrays.asList(day, sensor, ts, n % 2 == 0 ? "high" : "low"));
          }
        }
      }
    }
    Schema seed = new Schema(List.of(DAY, SENSOR, TS, READING, COUNT, NOTE, TAGS, AMOUNT, BIG, SEEN, SHIFT));
    List<Object> overwritten = new ArrayList<>(readings.get(13));
    overwritten.set(3, 1234.5);
    overwritten.set(5, "overwritten");
    cube.dataset("readings", seed, "sensor").commit(readings).commit(List.of(overwritten));
    cube.dataset("calibration", new Schema(List.of(DAY, SENSOR, OFFSET, LOCATION))).commit(calibration);
    cube.dataset("alerts", new Schema(List.of(DAY, SENSOR, TS, LEVEL))).commit(alerts);
  }

  static Stream<String> conditions() {
    return Stream.of("", "level == 'high'", "sensor == 's3'", "reading > 10.5", "dt > '1970-01-01'");
  }

  @ParameterizedTest(name = "where {0}")
  @MethodSource("conditions")
  void rowDataHoldTheValuesOfTheRows(String where) throws Exception {
    CubeQuery query = where.isEmpty() ? CubeQuery.all() : CubeQuery.builder().where(where).build();
    KartothekSource.Builder builder = KartothekSource.builder(dir.toUri().toString(), "plant").query(query);

    List<List<Object>> rows = expected(query);
    List<List<Object>> rowData = external(builder.buildRowData(), 1);

    assertThat(rows).isNotEmpty();
    assertThat(rowData).isEqualTo(rows);
  }

  /**
   * The {@code Row} source's records cross Flink's serializers too (the collecting sink serializes
   * them): list columns, whose values the reader hands out read-only, arrive whole.
   */
  @Test
  void theRowSourceDeliversListColumns() throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterator<Row> records = env.fromSource(KartothekSource.builder(dir.toUri().toString(), "plant")
            .build(), WatermarkStrategy.noWatermarks(), "rows").executeAndCollect()) {
      records.forEachRemaining(row -> rows.add(FlinkRows.values(row)));
    }
    assertThat(rows).containsExactlyInAnyOrderElementsOf(inProcess(CubeQuery.all()));
  }

  @Test
  void theCubeHasWhatTheComparisonNeeds() throws Exception {
    List<List<Object>> rows = inProcess(CubeQuery.all());
    List<String> names = columns(CubeQuery.all());
    for (int c = 0; c < names.size(); c++) {
      int column = c;
      if (!List.of("dt", "sensor", "ts").contains(names.get(c))) { // partition and dimension columns hold no nulls
        assertThat(rows).as(names.get(c) + " has nulls").anyMatch(row -> row.get(column) == null);
      }
      assertThat(rows).as(names.get(c) + " has values").anyMatch(row -> row.get(column) != null);
    }
    int note = names.indexOf("note");
    int big = names.indexOf("big");
    int ts = names.indexOf("ts");
    int tags = names.indexOf("tags");
    assertThat(rows).anyMatch(row -> "overwritten".equals(row.get(note)));
    assertThat(rows).anyMatch(row -> row.get(big) != null && (Long) row.get(big) < 0); // above Long.MAX_VALUE
    assertThat(rows).anyMatch(row -> ((LocalDateTime) row.get(ts)).getYear() == 1969);
    assertThat(rows).anyMatch(row -> List.of().equals(row.get(tags)));
    assertThat(rows).anyMatch(row -> row.get(tags) instanceof List<?> list && list.contains(null));
  }

  @Test
  void theRowDataTypeIsTheCatalogsTypeOfEachColumn() {
    var source = KartothekSource.builder(dir.toUri().toString(), "plant").build();
    var rowData = KartothekSource.builder(dir.toUri().toString(), "plant").buildRowData();

    // the cube's output columns: dimensions and partition columns first, then the others by name
    DataType expected = DataTypes.ROW(DataTypes.FIELD("dt", DataTypes.DATE()),
        DataTypes.FIELD("sensor", DataTypes.STRING()), DataTypes.FIELD("ts", DataTypes.TIMESTAMP(6)),
        DataTypes.FIELD("amount", DataTypes.DECIMAL(10, 2)), DataTypes.FIELD("big", DataTypes.DECIMAL(20, 0)),
        DataTypes.FIELD("count", DataTypes.BIGINT()), DataTypes.FIELD("level", DataTypes.STRING()),
        DataTypes.FIELD("location", DataTypes.STRING()), DataTypes.FIELD("note", DataTypes.STRING()),
        DataTypes.FIELD("offset", DataTypes.DOUBLE()), DataTypes.FIELD("reading", DataTypes.DOUBLE()),
        DataTypes.FIELD("seen", DataTypes.TIMESTAMP_LTZ(3)), DataTypes.FIELD("shift", DataTypes.TIME(3)),
        DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.STRING()))).notNull();
    assertThat(rowData.getProducedType()).isEqualTo(InternalTypeInfo.of(expected.getLogicalType()));
    assertThat(rowData.versions()).isEqualTo(source.versions());
  }

  @Test
  void withSeveralReadersEveryRowArrivesOnce() throws Exception {
    CubeQuery query = CubeQuery.builder().where("reading > 0").build();
    KartothekSource.Builder builder = KartothekSource.builder(dir.toUri().toString(), "plant").query(query)
        .maxPartitionsPerSplit(1);

    assertThat(external(builder.buildRowData(), 2)).containsExactlyInAnyOrderElementsOf(
        expected(query));
  }

  @ParameterizedTest(name = "where {0}")
  @MethodSource("conditions")
  void sqlReturnsTheRowsOfTheSource(String where) throws Exception {
    TableEnvironment tables = TableEnvironment.create(EnvironmentSettings.inBatchMode());
    tables.getConfig().set("parallelism.default", "1");
    // SQL reads primitive columns only, and Flink's DDL makes TIME(3) TIME(0): the list and time columns are left out
    tables.executeSql("CREATE TABLE plant (dt DATE, sensor STRING, ts TIMESTAMP(6), reading DOUBLE, `count` BIGINT,"
        + " note STRING, amount DECIMAL(10, 2), big DECIMAL(20, 0), seen TIMESTAMP_LTZ(3),"
        + " `offset` DOUBLE, location STRING, level STRING) WITH ('connector' = 'kartothek', 'store' = '"
        + dir.toUri() + "', 'cube' = 'plant')");
    List<String> columns = List.of("dt", "sensor", "ts", "reading", "count", "note", "amount", "big", "seen",
        "offset", "location", "level");
    CubeQuery query = (where.isEmpty() ? CubeQuery.builder() : CubeQuery.builder().where(where)).columns(columns)
        .build();
    String sql = "SELECT " + String.join(", ", columns(query).stream().map(c -> "`" + c + "`").toList())
        + " FROM plant" + (where.isEmpty() ? "" : " WHERE " + where.replace("==", "=")
        .replace("'1970-01-01'", "DATE '1970-01-01'"));

    List<List<Object>> sqlRows = new ArrayList<>();
    try (CloseableIterator<Row> result = tables.executeSql(sql).collect()) {
      result.forEachRemaining(row -> sqlRows.add(normalized(FlinkRows.values(row))));
    }
    List<List<Object>> rows = expected(query);

    assertThat(rows).isNotEmpty();
    assertThat(sqlRows).isEqualTo(rows);
  }

  /** The rows of the in-process reader, in order. */
  private static List<List<Object>> inProcess(CubeQuery query) throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    ObjectStore store = new LocalObjectStore(dir);
    new CubeReader(store, CubeSnapshot.latest(store, "plant").plan(query)).rows().forEachRemaining(rows::add);
    return rows;
  }

  /** The output columns of {@code query}. */
  private static List<String> columns(CubeQuery query) throws Exception {
    return CubeSnapshot.latest(new LocalObjectStore(dir), "plant").resolve(query).output().getFields().stream()
        .map(Field::getName).toList();
  }

  /**
   * The in-process reader's rows as Flink's external values show them: the uint64 column's value
   * (a Long of its bits) as the DECIMAL(20, 0) that RowData and SQL hold.
   */
  private static List<List<Object>> expected(CubeQuery query) throws Exception {
    int big = columns(query).indexOf("big");
    List<List<Object>> rows = new ArrayList<>();
    for (List<Object> row : inProcess(query)) {
      List<Object> out = new ArrayList<>(row);
      if (big >= 0 && row.get(big) instanceof Long bits) {
        out.set(big, new BigDecimal(Long.toUnsignedString(bits)));
      }
      rows.add(out);
    }
    return rows;
  }

  /** Runs a RowData source and turns each record into external values by Flink's own converters. */
  private static List<List<Object>> external(QuerySource<RowData> source, int parallelism) throws Exception {
    RowType type = (RowType) ((InternalTypeInfo<RowData>) source.getProducedType()).toLogicalType();
    @SuppressWarnings("unchecked")
    DataStructureConverter<RowData, Row> converter = (DataStructureConverter<RowData, Row>) (Object)
        DataStructureConverters.getConverter(TypeConversions.fromLogicalToDataType(type));
    converter.open(RowDataSourceTest.class.getClassLoader());
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(parallelism);
    List<List<Object>> rows = new ArrayList<>();
    try (CloseableIterator<RowData> records = env.fromSource(source, WatermarkStrategy.noWatermarks(), "rowdata")
        .executeAndCollect()) {
      records.forEachRemaining(record -> rows.add(normalized(FlinkRows.values(converter.toExternal(record)))));
    }
    return rows;
  }

  /**
   * Flink's external values in the project's value convention: integers as {@code Long}, floats as
   * {@code Double}, arrays as lists.
   */
  private static List<Object> normalized(List<Object> values) {
    List<Object> out = new ArrayList<>(values.size());
    for (Object value : values) {
      out.add(value instanceof Integer || value instanceof Short || value instanceof Byte ? ((Number) value).longValue()
          : value instanceof Float number ? (double) number
          : value instanceof Object[] array ? Arrays.asList(array)
          : value);
    }
    return out;
  }
}
