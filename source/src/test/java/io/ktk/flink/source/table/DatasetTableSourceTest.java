package io.ktk.flink.source.table;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.source.testing.PlainDatasetRows;
import io.ktk.flink.source.testing.SqlTables;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQL table source on a plain dataset ({@code 'dataset'}): what reaches the source (EXPLAIN),
 * that the rows are the Java API's, and the errors of bad tables at planning time.
 */
class DatasetTableSourceTest {
  @RegisterExtension static final MiniClusterExtension FLINK = SqlTables.cluster();

  static final String UUID = "c++sales";
  static final String COLUMNS = "ds DATE, region STRING, item BIGINT, price DOUBLE, tag STRING";

  @TempDir Path dir;
  ObjectStore store;
  TableEnvironment tables;

  @BeforeEach
  void writeDataset() throws Exception {
    store = new LocalObjectStore(dir);
    CubeFixture fixture = new CubeFixture(store, new CubeSpec("c", List.of("item"), List.of("ds", "region"), "sales",
        new TreeSet<>()));
    Schema schema = new Schema(List.of(field("ds", new ArrowType.Date(DateUnit.DAY)),
        field("region", ArrowType.Utf8.INSTANCE), field("item", new ArrowType.Int(64, true)),
        field("price", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)), field("tag", ArrowType.Utf8.INSTANCE)));
    CubeFixture.DatasetWriter sales = fixture.dataset("sales", schema, "item").rowsPerGroup(4);
    for (int commit = 0; commit < 2; commit++) {
      List<List<Object>> rows = new ArrayList<>();
      for (int d = 0; d < 3; d++) {
        for (String region : List.of("north", "south")) {
          for (long item = 0; item < 10; item++) {
            Double price = item % 5 == 0 ? null : item == 3 ? Double.NaN : item * 1.5 + d;
            rows.add(Arrays.asList(LocalDate.of(2024, 1, 1).plusDays(d), region, item, price,
                item % 4 == 0 ? null : "t" + (item + commit) % 3));
          }
        }
      }
      sales.commit(rows);
    }
    tables = SqlTables.batch();
    create("sales", COLUMNS, "");
  }

  private void create(String name, String columns, String more) {
    tables.executeSql("CREATE TABLE " + name + " (" + columns + ") " + more + " WITH ('connector' = 'kartothek', "
        + "'store' = '" + dir.toUri() + "', 'dataset' = '" + UUID + "')");
  }

  /** The Java API's rows. */
  private List<List<Object>> javaApi(String where, String... columns) throws Exception {
    return PlainDatasetRows.read(store, UUID, DatasetQuery.builder().where(where).columns(columns).build());
  }

  @Test
  void exactFiltersAndTheProjectionArePushedAndTheRowsAreTheJavaApis() throws Exception {
    String sql = "SELECT item, tag, region FROM sales WHERE ds >= DATE '2024-01-02' AND item BETWEEN 2 AND 8"
        + " AND tag <> 't1' AND region IN ('north', 'east')";
    SqlTables.assertPushedIntoTheScan(tables, sql, "sales", "item, tag, region");
    List<List<Object>> expected = javaApi("ds >= '2024-01-02' and 2 <= item <= 8 and tag != 't1'"
        + " and region in ('north', 'east')", "item", "tag", "region");
    assertThat(expected).hasSizeGreaterThan(10);
    assertThat(SqlTables.rows(tables, sql)).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void floatFiltersPruneButStayWithFlinkSoNanIsDropped() throws Exception {
    String sql = "SELECT item, price FROM sales WHERE price > 4";
    List<List<Object>> pushed = javaApi("price > 4", "item", "price");
    // the dataset's condition keeps NaN (a value above +inf); SQL does not
    List<List<Object>> withoutNan = pushed.stream().filter(row -> !((Double) row.get(1)).isNaN()).toList();

    assertThat(SqlTables.optimizedPlan(tables.explainSql(sql))).contains("Calc(", "where=[>(price, 4)]");
    assertThat(withoutNan).hasSizeLessThan(pushed.size());
    assertThat(SqlTables.rows(tables, sql)).containsExactlyInAnyOrderElementsOf(withoutNan);
  }

  @Test
  void partitionsArePrunedByFlinkAndOnlyTheKeptOnesAreRead() throws Exception {
    create("parted", COLUMNS, "PARTITIONED BY (ds, region)");
    String sql = "SELECT ds, region, item FROM parted WHERE (ds = DATE '2024-01-01' AND region = 'north')"
        + " OR (ds = DATE '2024-01-03' AND region = 'south')";

    assertThat(SqlTables.optimizedPlan(tables.explainSql(sql)))
        .contains("partitions=[{ds=2024-01-01, region=north}, {ds=2024-01-03, region=south}]")
        .doesNotContain("Calc(");
    List<List<Object>> expected = new ArrayList<>(javaApi("ds == '2024-01-01' and region == 'north'",
        "ds", "region", "item"));
    expected.addAll(javaApi("ds == '2024-01-03' and region == 'south'", "ds", "region", "item"));
    assertThat(SqlTables.rows(tables, sql)).hasSize(40).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void countingRowsCountsEveryRowOfEveryFile() throws Exception {
    assertThat(SqlTables.rows(tables, "SELECT COUNT(*) FROM sales")).containsExactly(List.of(120L));
    assertThat(SqlTables.rows(tables, "SELECT COUNT(*) FROM sales WHERE tag IS NULL"))
        .containsExactly(List.of((long) javaApi("", "tag").stream().filter(row -> row.get(0) == null).count()));
  }

  @Test
  void unknownColumnsAndOtherTypesAreRefusedAtPlanningTime() {
    create("bad", "item BIGINT, colour STRING", "");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM bad", "Cannot create the source of table default_catalog.default_database.bad",
        "dataset 'c++sales'", "column 'colour' is not in the dataset");
    create("bad2", "item INT", "");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM bad2", "column 'item' is declared INT", "int64", "declare it BIGINT");
    create("bad3", "ds DATE, tag STRING NOT NULL", "");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM bad3", "column 'tag' is declared NOT NULL");
    create("bad4", "ds DATE, region STRING", "PARTITIONED BY (region)");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM bad4", "PARTITIONED BY [region]", "[ds, region]");
  }

  @Test
  void exactlyOneOfCubeAndDatasetIsGiven() {
    tables.executeSql("CREATE TABLE twice (item BIGINT) WITH ('connector' = 'kartothek', 'store' = '" + dir.toUri()
        + "', 'cube' = 'c', 'dataset' = '" + UUID + "')");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM twice", "give exactly one of the options 'cube' and 'dataset' (given: both)");
    tables.executeSql("CREATE TABLE none_given (item BIGINT) WITH ('connector' = 'kartothek', 'store' = '" + dir.toUri()
        + "')");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM none_given", "(given: neither)");
    tables.executeSql("CREATE TABLE nodataset (item BIGINT) WITH ('connector' = 'kartothek', 'store' = '"
        + dir.toUri() + "', 'dataset' = 'nope')");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM nodataset", "table default_catalog.default_database.nodataset",
        "dataset 'nope'");
  }
}
