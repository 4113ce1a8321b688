package io.ktk.flink.source.table;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.testing.CubeFixture;
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
import java.util.function.Predicate;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQL table source on a cube of shops: what reaches the source (EXPLAIN), what stays with
 * Flink, that the rows are the Java API's, and the errors of bad tables at planning time.
 */
class KartothekTableSourceTest {
  @RegisterExtension
  static final MiniClusterExtension FLINK = SqlTables.cluster();

  private static final Field DS = field("ds", new ArrowType.Date(DateUnit.DAY));
  private static final Field REGION = field("region", ArrowType.Utf8.INSTANCE);
  private static final Field SHOP = field("shop", ArrowType.Utf8.INSTANCE);
  private static final Field ITEM = field("item", new ArrowType.Int(64, true));
  private static final Field PRICE = field("price", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  private static final Field STOCK = field("stock", new ArrowType.Int(64, true));
  private static final Field TAG = field("tag", ArrowType.Utf8.INSTANCE);
  private static final String COLUMNS = "ds DATE, region STRING, shop STRING, item BIGINT, price DOUBLE, "
      + "stock BIGINT, tag STRING";

  @TempDir Path dir;
  ObjectStore store;
  TableEnvironment tables;

  @BeforeEach
  void writeCube() throws Exception {
    store = new LocalObjectStore(dir);
    CubeFixture cube = new CubeFixture(store,
        new CubeSpec("shops", List.of("shop", "item"), List.of("ds", "region"), "seed", new TreeSet<>()));
    List<List<Object>> seed = new ArrayList<>();
    List<List<Object>> stock = new ArrayList<>();
    List<List<Object>> tags = new ArrayList<>();
    for (int d = 0; d < 3; d++) {
      LocalDate ds = LocalDate.of(2024, 1, 1).plusDays(d);
      for (String region : List.of("north", "south")) {
        for (String shop : List.of("berlin", "paris")) {
          for (long item = 0; item < 6; item++) {
            Double price = item % 5 == 0 ? null : item == 3 ? Double.NaN : item * 1.5 + d;
            seed.add(Arrays.asList(ds, region, shop, item, price));
            if ((item + d) % 3 != 0) {
              stock.add(Arrays.asList(ds, region, shop, item, item % 2 == 0 ? null : (item * d) % 4));
            }
          }
        }
        for (long item = 0; item < 6; item += 2) {
          tags.add(Arrays.asList(ds, region, item, "t" + item % 3));
        }
      }
    }
    cube.dataset("seed", new Schema(List.of(DS, REGION, SHOP, ITEM, PRICE)), "shop", "item").commit(seed);
    cube.dataset("stock", new Schema(List.of(DS, REGION, SHOP, ITEM, STOCK))).commit(stock);
    cube.dataset("tags", new Schema(List.of(DS, REGION, ITEM, TAG))).commit(tags);
    tables = SqlTables.batch();
    create("shops", COLUMNS, "");
  }

  private void create(String name, String columns, String more) {
    tables.executeSql("CREATE TABLE " + name + " (" + columns + ") " + more + " WITH ('connector' = 'kartothek', "
        + "'store' = '" + dir.toUri() + "', 'cube' = 'shops')");
  }

  /** The Java API's rows of the cube with all dimension columns. */
  private List<List<Object>> javaApi(String where, String... columns) throws Exception {
    CubeQuery.Builder query = CubeQuery.builder().columns(columns).dimensionColumns("shop", "item");
    if (!where.isEmpty()) {
      query.where(where);
    }
    List<List<Object>> rows = new ArrayList<>();
    new CubeReader(store, CubeSnapshot.latest(store, "shops").plan(query.build())).rows().forEachRemaining(rows::add);
    return rows;
  }

  @Test
  void exactFiltersAndTheProjectionArePushedIntoTheScanAndLeaveNoFilterBehind() throws Exception {
    String sql = "SELECT shop, item, stock, tag FROM shops WHERE stock > 0 AND 3 >= item AND shop IN ('berlin', 'rome')"
        + " AND tag <> 't1' AND ds BETWEEN DATE '2024-01-02' AND DATE '2024-01-03'";
    SqlTables.assertPushedIntoTheScan(tables, sql, "shops", "shop, item, stock, tag");
    assertThat(SqlTables.rows(tables, sql)).containsExactlyInAnyOrderElementsOf(javaApi(
        "stock > 0 and item <= 3 and shop in ('berlin', 'rome') and tag != 't1' and '2024-01-02' <= ds <= '2024-01-03'",
        "shop", "item", "stock", "tag"));
  }

  @Test
  void filtersOnDoublesPruneButFlinkAppliesThemAgainSoNanIsNotGreater() throws Exception {
    String sql = "SELECT item, price FROM shops WHERE price > 4.0E0";
    assertThat(SqlTables.optimizedPlan(tables.explainSql(sql))).contains("Calc(", "where=[>(price, 4.0E0)]");

    List<List<Object>> rows = SqlTables.rows(tables, sql);
    // the cube query keeps NaN (a value above +inf); SQL does not
    List<List<Object>> expected = javaApi("price > 4.0", "item", "price").stream()
        .filter(row -> !((Double) row.get(1)).isNaN()).toList();
    assertThat(javaApi("price > 4.0", "item", "price")).anySatisfy(row -> assertThat((Double) row.get(1)).isNaN());
    assertThat(rows).isNotEmpty().containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void isNullAndOrAcrossColumnsStayWithFlink() throws Exception {
    String sql = "SELECT shop, item, stock FROM shops WHERE stock IS NULL AND (item = 1 OR shop = 'paris')";
    String plan = SqlTables.optimizedPlan(tables.explainSql(sql));
    assertThat(plan).contains("Calc(", "IS NULL(stock)");

    Predicate<List<Object>> sqlFilter = row -> row.get(2) == null && (row.get(1).equals(1L) || row.get(0).equals("paris"));
    assertThat(SqlTables.rows(tables, sql)).isNotEmpty()
        .containsExactlyInAnyOrderElementsOf(javaApi("", "shop", "item", "stock").stream().filter(sqlFilter).toList());
  }

  @Test
  void partitionPruningOfATablePartitionedByTheCubesPartitionColumnsReadsOnlyTheKeptPartitions() throws Exception {
    create("shops_by_day", COLUMNS, "PARTITIONED BY (ds, region)");
    // not expressible as conditions per column: (2024-01-01, south) is pruned although both values are kept
    String sql = "SELECT ds, region, shop, item FROM shops_by_day WHERE (ds = DATE '2024-01-01' AND region = 'north')"
        + " OR (ds = DATE '2024-01-03' AND region = 'south')";
    String plan = SqlTables.optimizedPlan(tables.explainSql(sql));
    assertThat(plan).contains("partitions=[{ds=2024-01-01, region=north}, {ds=2024-01-03, region=south}]")
        .doesNotContain("Calc(");

    List<List<Object>> expected = javaApi("", "ds", "region", "shop", "item").stream()
        .filter(row -> row.get(0).equals(LocalDate.of(2024, 1, 1)) && row.get(1).equals("north")
            || row.get(0).equals(LocalDate.of(2024, 1, 3)) && row.get(1).equals("south")).toList();
    assertThat(expected).hasSize(24);
    assertThat(SqlTables.rows(tables, sql)).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(SqlTables.rows(tables, "SELECT shop FROM shops_by_day WHERE ds = DATE '2024-01-01' AND region = 'x'"))
        .isEmpty();
  }

  @Test
  void countingRowsProjectsNoColumnAndKeepsOneRowPerCell() throws Exception {
    assertThat(SqlTables.rows(tables, "SELECT COUNT(*) FROM shops")).containsExactly(List.of(72L));
    assertThat(SqlTables.rows(tables, "SELECT COUNT(*) FROM shops WHERE tag = 't0'")).containsExactly(List.of(
        (long) javaApi("tag == 't0'", "item").size()));
  }

  @Test
  void aTableOfSomeDatasetsHasTheirColumns() throws Exception {
    tables.executeSql("CREATE TABLE stock_only (ds DATE, shop STRING, item BIGINT, stock BIGINT) WITH ("
        + "'connector' = 'kartothek', 'store' = '" + dir.toUri() + "', 'cube' = 'shops', 'datasets' = 'stock')");
    assertThat(SqlTables.rows(tables, "SELECT COUNT(*) FROM stock_only WHERE stock = 1")).containsExactly(List.of(
        (long) javaApi("stock == 1", "item").size()));
  }

  @Test
  void unknownColumnsAreRefusedAtPlanningTime() {
    create("bad", "shop STRING, item BIGINT, colour STRING", "");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM bad", "Cannot create the source of table default_catalog.default_database.bad",
        "cube 'shops'", "'colour'");
  }

  @Test
  void typesOtherThanTheCubesAreRefusedWithTheTypeToDeclare() {
    create("bad", "shop STRING, item INT", "");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM bad", "column 'item' is declared INT", "int64", "declare it BIGINT");
    create("bad2", "shop STRING, item BIGINT, price FLOAT", "");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM bad2", "column 'price' is declared FLOAT", "declare it DOUBLE");
  }

  @Test
  void payloadDeclaredNotNullIsRefused() {
    create("bad", "shop STRING NOT NULL, item BIGINT, stock BIGINT NOT NULL", "");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM bad", "column 'stock' is declared NOT NULL", "payload column");
  }

  @Test
  void partitionedByOtherThanTheCubesPartitionColumnsIsRefused() {
    create("bad", "ds DATE, region STRING, shop STRING", "PARTITIONED BY (region)");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM bad", "PARTITIONED BY [region]", "[ds, region]");
  }

  @Test
  void unknownCubesDatasetsAndOptionsAreRefused() {
    tables.executeSql("CREATE TABLE nocube (shop STRING) WITH ('connector' = 'kartothek', 'store' = '" + dir.toUri()
        + "', 'cube' = 'nope')");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM nocube", "table default_catalog.default_database.nocube", "cube 'nope'");
    tables.executeSql("CREATE TABLE nodataset (shop STRING) WITH ('connector' = 'kartothek', 'store' = '"
        + dir.toUri() + "', 'cube' = 'shops', 'datasets' = 'prices')");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM nodataset", "dataset 'prices' is not in the cube");
    tables.executeSql("CREATE TABLE outside (shop STRING, tag STRING) WITH ('connector' = 'kartothek', 'store' = '"
        + dir.toUri() + "', 'cube' = 'shops', 'datasets' = 'stock')");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM outside", "'tag'");
    tables.executeSql("CREATE TABLE typo (shop STRING) WITH ('connector' = 'kartothek', 'store' = '" + dir.toUri()
        + "', 'cube' = 'shops', 'dataset' = 'seed')");
    // 'dataset' names a plain dataset: a table is a cube or a dataset, not both
    SqlTables.assertPlanningFails(tables, "SELECT * FROM typo", "give exactly one of the options 'cube' and 'dataset'");
  }

  @Test
  void aDatasetWithMoreDimensionsThanTheTableCannotGiveItsPayload() {
    create("bad", "shop STRING, stock BIGINT", "");
    SqlTables.assertPlanningFails(tables, "SELECT * FROM bad", "dataset 'stock'", "[shop, item]", "stock");
  }
}
