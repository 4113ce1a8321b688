package io.ktk.flink.source.table;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.source.testing.SqlTables;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded random datasets (several partitions, files and row groups, nulls, NaN) and random SQL
 * filters: the SQL table's rows equal an independent reading, every file read whole with {@link
 * ParquetRowsReader} (partition values from the writer) and filtered in the test with SQL's
 * semantics. 3 datasets x 12 queries; a failure prints the seed, the SQL and both results.
 */
class DatasetSqlDifferentialTest {
  @RegisterExtension static final MiniClusterExtension FLINK = SqlTables.cluster();

  /** Row layout: p1 BIGINT, p2 STRING (partition columns), a BIGINT, b STRING, c DATE, f DOUBLE. */
  private static final List<String> NAMES = List.of("p1", "p2", "a", "b", "c", "f");
  private static final String COLUMNS = "p1 BIGINT, p2 STRING, a BIGINT, b STRING, c DATE, f DOUBLE";
  private static final LocalDate DAY0 = LocalDate.of(2024, 1, 1);

  @TempDir Path dir;

  /** A random predicate: its SQL and its meaning on a row (by column name), false for unknown. */
  private record Filter(String sql, Predicate<Map<String, Object>> test) {}

  @Test
  void sqlRowsEqualAnIndependentReading() throws Exception {
    int cases = 0;
    for (long seed = 1; seed <= 3; seed++) {
      Random random = new Random(seed);
      Path root = dir.resolve("s" + seed);
      Files.createDirectories(root);
      ObjectStore store = new LocalObjectStore(root);
      writeDataset(store, random);
      List<Map<String, Object>> all = readIndependently(store);
      TableEnvironment tables = SqlTables.batch();
      for (String table : List.of("plain", "parted")) {
        tables.executeSql("CREATE TABLE " + table + " (" + COLUMNS + ") "
            + (table.equals("parted") ? "PARTITIONED BY (p1, p2) " : "") + "WITH ('connector' = 'kartothek', "
            + "'store' = '" + root.toUri() + "', 'dataset' = 'c++data')");
      }
      for (int q = 0; q < 12; q++) {
        List<Filter> filters = new ArrayList<>();
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) {
          filters.add(randomFilter(random));
        }
        List<String> projection = new ArrayList<>(NAMES);
        java.util.Collections.shuffle(projection, random);
        projection = projection.subList(0, 1 + random.nextInt(NAMES.size()));
        String sql = "SELECT " + String.join(", ", projection) + " FROM " + (q % 2 == 0 ? "plain" : "parted")
            + " WHERE " + String.join(" AND ", filters.stream().map(Filter::sql).toList());
        List<String> columns = projection;
        List<List<Object>> expected = all.stream()
            .filter(row -> filters.stream().allMatch(filter -> filter.test().test(row)))
            .map(row -> columns.stream().map(row::get).toList()).toList();
        List<List<Object>> actual = SqlTables.rows(tables, sql);

        assertThat(sorted(actual)).as("seed %d, %s: expected %s", seed, sql, sorted(expected))
            .isEqualTo(sorted(expected));
        cases++;
      }
    }
    assertThat(cases).isGreaterThanOrEqualTo(30);
  }

  private static List<String> sorted(List<List<Object>> rows) {
    return rows.stream().map(List::toString).sorted(Comparator.naturalOrder()).toList();
  }

  private static void writeDataset(ObjectStore store, Random random) throws Exception {
    CubeFixture fixture = new CubeFixture(store, new CubeSpec("c", List.of("a"), List.of("p1", "p2"), "data",
        new TreeSet<>()));
    Schema schema = new Schema(List.of(field("p1", new ArrowType.Int(64, true)), field("p2", ArrowType.Utf8.INSTANCE),
        field("a", new ArrowType.Int(64, true)), field("b", ArrowType.Utf8.INSTANCE),
        field("c", new ArrowType.Date(DateUnit.DAY)),
        field("f", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));
    CubeFixture.DatasetWriter data = fixture.dataset("data", schema, "a").rowsPerGroup(3 + random.nextInt(8));
    for (int commit = 0; commit < 2 + random.nextInt(2); commit++) {
      List<List<Object>> rows = new ArrayList<>();
      for (int i = 0; i < 40 + random.nextInt(60); i++) {
        rows.add(Arrays.asList((long) random.nextInt(3) - 1, List.of("x", "y", "z").get(random.nextInt(3)),
            random.nextInt(8) == 0 ? null : (long) random.nextInt(20) - 5,
            random.nextInt(8) == 0 ? null : List.of("", "a", "b", "ab", "é", "z").get(random.nextInt(6)),
            random.nextInt(8) == 0 ? null : DAY0.plusDays(random.nextInt(10)),
            random.nextInt(8) == 0 ? null : random.nextInt(10) == 0 ? Double.NaN : random.nextInt(20) / 2.0 - 3));
      }
      data.commit(rows);
    }
  }

  /** Every row of every file, read whole with ParquetRowsReader; partition values from the partition. */
  private static List<Map<String, Object>> readIndependently(ObjectStore store) throws Exception {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Partition partition : DatasetSnapshot.latest(store, "c++data").partitions()) {
      for (DataFile file : partition.files()) {
        try (ParquetRowsReader reader = ParquetRowsReader.open(store, file.key("c++data"))) {
          for (List<Object> values : reader.readAll(List.of("a", "b", "c", "f"))) {
            Map<String, Object> row = new java.util.HashMap<>();
            row.put("p1", partition.values().get(0));
            row.put("p2", partition.values().get(1));
            row.put("a", values.get(0));
            row.put("b", values.get(1));
            row.put("c", values.get(2));
            row.put("f", values.get(3));
            rows.add(row);
          }
        }
      }
    }
    return rows;
  }

  private static Filter randomFilter(Random random) {
    String[] ops = {"=", "<>", "<", "<=", ">", ">="};
    String op = ops[random.nextInt(ops.length)];
    switch (random.nextInt(9)) {
      case 0, 1 -> {
        long literal = random.nextInt(20) - 5;
        return comparison("a", op, Long.toString(literal), literal);
      }
      case 2 -> {
        String literal = List.of("", "a", "ab", "b", "é", "zz").get(random.nextInt(6));
        return comparison("b", op, "'" + literal + "'", literal);
      }
      case 3 -> {
        LocalDate literal = DAY0.plusDays(random.nextInt(10));
        return comparison("c", op, "DATE '" + literal + "'", literal);
      }
      case 4 -> {
        long literal = random.nextInt(3) - 1;
        return comparison("p1", op, Long.toString(literal), literal);
      }
      case 5 -> {
        String literal = List.of("x", "y", "z").get(random.nextInt(3));
        return comparison("p2", op, "'" + literal + "'", literal);
      }
      case 6 -> {
        long low = random.nextInt(20) - 5;
        long high = low + random.nextInt(6);
        return new Filter("a BETWEEN " + low + " AND " + high,
            row -> row.get("a") != null && (Long) row.get("a") >= low && (Long) row.get("a") <= high);
      }
      case 7 -> {
        List<Long> values = List.of((long) random.nextInt(20) - 5, (long) random.nextInt(20) - 5);
        return new Filter("a IN (" + values.get(0) + ", " + values.get(1) + ")",
            row -> row.get("a") != null && values.contains(row.get("a")));
      }
      default -> {
        double literal = random.nextInt(20) / 2.0 - 2.75; // never 0.0: pushed to prune
        // SQL: every comparison with NaN is false but <>, which is true
        // a DOUBLE literal (4.25E0): a DECIMAL one (4.25) makes Flink compare in DECIMAL, see the report
        return new Filter("f " + op + " " + literal + "E0", row -> {
          Double f = (Double) row.get("f");
          if (f == null) {
            return false;
          }
          return switch (op) {
            case "=" -> f == literal;
            case "<>" -> f != literal;
            case "<" -> f < literal;
            case "<=" -> f <= literal;
            case ">" -> f > literal;
            default -> f >= literal;
          };
        });
      }
    }
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Filter comparison(String column, String op, String sqlLiteral, Comparable literal) {
    return new Filter(column + " " + op + " " + sqlLiteral, row -> {
      Comparable value = (Comparable) row.get(column);
      if (value == null) {
        return false;
      }
      int cmp = value instanceof String s ? Integer.signum(compareCodePoints(s, (String) literal))
          : Integer.signum(value.compareTo(literal));
      return switch (op) {
        case "=" -> cmp == 0;
        case "<>" -> cmp != 0;
        case "<" -> cmp < 0;
        case "<=" -> cmp <= 0;
        case ">" -> cmp > 0;
        default -> cmp >= 0;
      };
    });
  }

  /** SQL compares strings by code point (UTF-8 bytes), not by UTF-16 units. */
  private static int compareCodePoints(String a, String b) {
    return Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
  }
}
