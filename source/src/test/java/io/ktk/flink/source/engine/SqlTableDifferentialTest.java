package io.ktk.flink.source.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.engine.RandomCube.Column;
import io.ktk.flink.source.engine.RandomCube.Dataset;
import io.ktk.flink.source.engine.RandomCube.Type;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.query.Condition;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.testing.SqlTables;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random cubes ({@link RandomCube}: nulls, NaN, infinities, -0.0, missing cells and partitions,
 * overwritten cells) queried through the SQL table source with random projections and random
 * conjunctions of comparisons (both orientations), {@code <>}, {@code IN} and {@code BETWEEN}, and
 * through the Java API ({@link CubeReader}) with the same conditions. Conditions on DOUBLE columns
 * have SQL's semantics in SQL (a comparison with NaN is false, but {@code <>}) and the cube's in the
 * Java API (NaN is a value above +inf), so the reference applies them to the Java API's rows itself,
 * with Java's double comparisons. Rows are compared as multisets.
 *
 * <p>Seeded: {@code -Dktk.seed=<n>} replays a run; a failing case prints the cube, the SQL and both
 * results. It lives in this package to reuse the generators of {@link CubeQueryDifferentialTest}.
 */
class SqlTableDifferentialTest {
  private static final int CUBES = 8;
  private static final int QUERIES_PER_CUBE = 8;

  @RegisterExtension
  static final MiniClusterExtension FLINK = SqlTables.cluster();

  @TempDir Path dir;

  /** One condition as SQL text, as a cube condition (null for DOUBLE columns) and as a test of a value. */
  private record Cond(Column column, String sql, Condition condition, java.util.function.Predicate<Object> sqlTest) {}

  @Test
  void sqlQueriesReturnTheRowsOfTheJavaApi() throws Exception {
    long seed = Long.getLong("ktk.seed", 20240612L);
    TableEnvironment tables = SqlTables.batch();
    int cases = 0;
    int nonEmpty = 0;
    for (int c = 0; c < CUBES; c++) {
      long cubeSeed = seed * 1_000_003L + c;
      Random random = new Random(cubeSeed);
      Path root = dir.resolve("cube" + c);
      ObjectStore store = new LocalObjectStore(root);
      RandomCube cube = RandomCube.write(random, store, "c" + c);
      List<Column> columns = allColumns(cube);
      tables.executeSql("CREATE TABLE t" + c + " (" + columns.stream().map(col -> "`" + col.name() + "` "
          + sqlType(col.type())).collect(Collectors.joining(", ")) + ") WITH ('connector' = 'kartothek', 'store' = '"
          + root.toUri() + "', 'cube' = '" + cube.spec.name() + "')");
      CubeSnapshot snapshot = CubeSnapshot.latest(store, cube.spec.name());
      for (int q = 0; q < QUERIES_PER_CUBE; q++) {
        List<Column> selected = new ArrayList<>(columns);
        Collections.shuffle(selected, random);
        selected = selected.subList(0, 1 + random.nextInt(selected.size()));
        List<Cond> conds = new ArrayList<>();
        for (int i = 0, n = random.nextInt(3); i < n; i++) {
          conds.add(condition(columns.get(random.nextInt(columns.size())), random));
        }
        String sql = "SELECT " + selected.stream().map(col -> "`" + col.name() + "`").collect(Collectors.joining(", "))
            + " FROM t" + c + (conds.isEmpty() ? "" : " WHERE " + conds.stream().map(Cond::sql)
            .collect(Collectors.joining(" AND ")));
        String context = "case " + c + "." + q + " (-Dktk.seed=" + seed + ", cube seed " + cubeSeed + ")\n"
            + cube.description + "SQL: " + sql;

        List<List<String>> expected = expected(store, snapshot, cube, selected, conds);
        List<List<String>> actual = new ArrayList<>();
        for (List<Object> row : SqlTables.rows(tables, sql)) {
          actual.add(row.stream().map(RandomCube::canonical).toList());
        }
        assertThat(sorted(actual)).as("rows differ from the Java API's\n%s", context).isEqualTo(sorted(expected));
        cases++;
        if (!expected.isEmpty()) {
          nonEmpty++;
        }
      }
    }
    assertThat(cases).isGreaterThanOrEqualTo(50);
    assertThat(nonEmpty).as("most cases must return rows, or the comparison proves little (%d of %d did)", nonEmpty, cases)
        .isGreaterThan(cases / 2);
  }

  private static List<List<String>> expected(ObjectStore store, CubeSnapshot snapshot, RandomCube cube,
      List<Column> selected, List<Cond> conds) throws Exception {
    Set<String> names = new LinkedHashSet<>();
    selected.forEach(col -> names.add(col.name()));
    List<Cond> inJava = conds.stream().filter(cond -> cond.condition() == null).toList();
    inJava.forEach(cond -> names.add(cond.column().name()));
    List<String> queryColumns = new ArrayList<>(names);
    CubeQuery query = CubeQuery.builder().columns(queryColumns).dimensionColumns(cube.spec.dimensionColumns())
        .where(conds.stream().map(Cond::condition).filter(java.util.Objects::nonNull).toList()).build();
    List<List<String>> rows = new ArrayList<>();
    Iterator<List<Object>> result = new CubeReader(store, snapshot.plan(query)).rows();
    while (result.hasNext()) {
      List<Object> row = result.next();
      boolean keep = inJava.stream().allMatch(cond -> cond.sqlTest().test(row.get(queryColumns.indexOf(cond.column()
          .name()))));
      if (keep) {
        rows.add(selected.stream().map(col -> RandomCube.canonical(row.get(queryColumns.indexOf(col.name())))).toList());
      }
    }
    return rows;
  }

  private static List<Column> allColumns(RandomCube cube) {
    List<Column> columns = new ArrayList<>(cube.partitionColumns);
    columns.addAll(cube.dimensions);
    for (Dataset dataset : cube.datasets) {
      columns.addAll(dataset.payload());
    }
    return columns;
  }

  private static List<List<String>> sorted(List<List<String>> rows) {
    List<List<String>> copy = new ArrayList<>(rows);
    copy.sort((a, b) -> String.join("\u0000", a).compareTo(String.join("\u0000", b)));
    return copy;
  }

  private static String sqlType(Type type) {
    return switch (type) {
      case INT -> "BIGINT";
      case DOUBLE -> "DOUBLE";
      case STRING -> "STRING";
      case DATE -> "DATE";
      case BOOL -> "BOOLEAN";
    };
  }

  /** Literals a condition may use: the column's domain or payload values, but never NaN or zero for doubles. */
  private static List<Object> literals(Column column) {
    return switch (column.type()) {
      case INT -> List.of(-3L, 0L, 1L, 2L, 7L);
      case DOUBLE -> List.of(-1.5, -1.0, 0.5, 2.25, 2.5, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);
      case STRING -> List.of("a", "b", "B", "c d", "é/%", "x", "z z", "'q'");
      case DATE -> List.of(LocalDate.of(2023, 12, 31), LocalDate.of(2024, 1, 2), LocalDate.of(2024, 2, 29),
          LocalDate.of(2024, 3, 2));
      case BOOL -> List.of(true, false);
    };
  }

  private static Cond condition(Column column, Random random) {
    List<Object> literals = literals(column);
    Object a = literals.get(random.nextInt(literals.size()));
    Object b = literals.get(random.nextInt(literals.size()));
    String name = "`" + column.name() + "`";
    boolean isDouble = column.type() == Type.DOUBLE;
    int kind = column.type() == Type.BOOL ? random.nextInt(2) : random.nextInt(9);
    String[] ops = {"=", "<>", "<", "<=", ">", ">="};
    if (kind < 6) {
      String op = ops[kind];
      boolean swapped = random.nextBoolean();
      String sql = swapped ? sql(column.type(), a) + " " + swappedSql(op) + " " + name
          : name + " " + op + " " + sql(column.type(), a);
      Condition condition = isDouble ? null : switch (op) {
        case "=" -> Condition.eq(column.name(), a);
        case "<>" -> Condition.ne(column.name(), a);
        case "<" -> Condition.lt(column.name(), a);
        case "<=" -> Condition.le(column.name(), a);
        case ">" -> Condition.gt(column.name(), a);
        default -> Condition.ge(column.name(), a);
      };
      double x = isDouble ? (Double) a : 0;
      java.util.function.Predicate<Object> test = v -> v != null && switch (op) {
        case "=" -> (Double) v == x;
        case "<>" -> (Double) v != x;
        case "<" -> (Double) v < x;
        case "<=" -> (Double) v <= x;
        case ">" -> (Double) v > x;
        default -> (Double) v >= x;
      };
      return new Cond(column, sql, condition, test);
    }
    if (kind < 8) {
      List<Object> values = new ArrayList<>(new LinkedHashSet<>(List.of(a, b, literals.get(random.nextInt(literals.size())))));
      String sql = name + " IN (" + values.stream().map(v -> sql(column.type(), v)).collect(Collectors.joining(", "))
          + ")";
      return new Cond(column, sql, isDouble ? null : Condition.in(column.name(), values),
          v -> v != null && values.stream().anyMatch(w -> (Double) v == (double) (Double) w));
    }
    List<Object> bounds = new ArrayList<>(List.of(a, b));
    bounds.sort(null);
    String sql = name + " BETWEEN " + sql(column.type(), bounds.get(0)) + " AND " + sql(column.type(), bounds.get(1));
    double low = isDouble ? (Double) bounds.get(0) : 0;
    double high = isDouble ? (Double) bounds.get(1) : 0;
    return new Cond(column, sql, isDouble ? null : Condition.interval(column.name(), bounds.get(0), true,
        bounds.get(1), true), v -> v != null && (Double) v >= low && (Double) v <= high);
  }

  private static String swappedSql(String op) {
    return switch (op) {
      case "<" -> ">";
      case "<=" -> ">=";
      case ">" -> "<";
      case ">=" -> "<=";
      default -> op;
    };
  }

  private static String sql(Type type, Object value) {
    return switch (type) {
      case INT -> "CAST(" + value + " AS BIGINT)";
      case DOUBLE -> Double.isInfinite((Double) value) ? "CAST('" + ((Double) value > 0 ? "Infinity" : "-Infinity")
          + "' AS DOUBLE)" : value + "E0";
      case STRING -> "'" + ((String) value).replace("'", "''") + "'";
      case DATE -> "DATE '" + value + "'";
      case BOOL -> value.toString().toUpperCase();
    };
  }
}
