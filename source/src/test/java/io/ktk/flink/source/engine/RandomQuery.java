package io.ktk.flink.source.engine;

import io.ktk.flink.source.engine.RandomCube.Column;
import io.ktk.flink.source.engine.RandomCube.Dataset;
import io.ktk.flink.source.engine.RandomCube.Role;
import io.ktk.flink.source.engine.RandomCube.Type;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.QuerySemantics;
import io.ktk.flink.source.engine.RandomCube.Column;
import io.ktk.flink.source.engine.RandomCube.Dataset;
import io.ktk.flink.source.engine.RandomCube.Role;
import io.ktk.flink.source.engine.RandomCube.Type;
import io.ktk.flink.source.testing.CubeFixture;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * A random valid query over a {@link RandomCube}, in two independent forms: the text and builder
 * form our planner gets, and DuckDB SQL that states the same semantics directly over the Parquet
 * files, written from the semantics, not from the planner:
 *
 * <ol>
 *   <li>each dataset's rows reduced to the last-written row of each cell (by commit version, then
 *       file id, then row in the file);
 *   <li>those rows filtered by the conditions on the dataset's columns (SQL's three-valued logic),
 *       and by {@code partition_by} payload columns being non-null;
 *   <li>the seed projected to the query's dimension columns (distinct);
 *   <li>datasets whose payload is restricted inner-joined, the others whose payload is returned
 *       left-joined, on the dataset's partition and dimension columns;
 *   <li>ordered by {@code partition_by}, partition and dimension columns.
 * </ol>
 */
final class RandomQuery {
  final RandomCube cube;
  final List<RandomCondition> conditions;
  final List<String> columns;
  final List<String> dimensions;
  final List<String> partitionBy;
  final Set<String> datasets;
  final QuerySemantics semantics;

  private RandomQuery(RandomCube cube, List<RandomCondition> conditions, List<String> columns, List<String> dimensions,
      List<String> partitionBy, Set<String> datasets, QuerySemantics semantics) {
    this.cube = cube;
    this.conditions = conditions;
    this.columns = columns;
    this.dimensions = dimensions;
    this.partitionBy = partitionBy;
    this.datasets = datasets;
    this.semantics = semantics;
  }

  /** The same query with other semantics. */
  RandomQuery with(QuerySemantics semantics) {
    return new RandomQuery(cube, conditions, columns, dimensions, partitionBy, datasets, semantics);
  }

  private boolean kartothek() {
    return semantics == QuerySemantics.KARTOTHEK;
  }

  /** Whether a condition compares with NaN, which Kartothek semantics refuse. */
  boolean hasNaNLiteral() {
    return conditions.stream().flatMap(c -> c.values().stream()).anyMatch(v -> v instanceof Double d && d.isNaN());
  }

  /**
   * The result's columns: {@code columns}; with Kartothek semantics, which read them as {@code
   * payload_columns}, they with the dimension, partition_by and partition columns, by name.
   */
  List<String> outputColumns() {
    if (!kartothek()) {
      return columns;
    }
    Set<String> output = new TreeSet<>(columns);
    output.addAll(dimensions);
    output.addAll(partitionBy);
    cube.partitionColumns.forEach(c -> output.add(c.name()));
    return List.copyOf(output);
  }

  static RandomQuery generate(RandomCube cube, Random random) {
    Set<String> scope = new TreeSet<>();
    scope.add("seed");
    boolean subset = random.nextInt(5) == 0;
    for (Dataset d : cube.datasets) {
      if (!subset || random.nextBoolean()) {
        scope.add(d.id());
      }
    }
    List<String> allDims = cube.dimensions.stream().map(Column::name).toList();
    List<String> dims = allDims;
    if (allDims.size() > 1 && random.nextInt(4) == 0) {
      List<String> shuffled = new ArrayList<>(allDims);
      Collections.shuffle(shuffled, random);
      Set<String> chosen = Set.copyOf(shuffled.subList(0, 1 + random.nextInt(allDims.size() - 1)));
      dims = allDims.stream().filter(chosen::contains).toList();
    }
    List<String> queryDims = dims;
    List<Dataset> payloadSources = new ArrayList<>();
    for (Dataset d : cube.datasets) {
      boolean carried = d.id().equals("seed") ? queryDims.equals(allDims)
          : d.dimensions().stream().allMatch(c -> queryDims.contains(c.name()));
      if (scope.contains(d.id()) && carried) {
        payloadSources.add(d);
      }
    }
    List<Column> payload = payloadSources.stream().flatMap(d -> d.payload().stream()).toList();

    List<String> pool = new ArrayList<>();
    cube.partitionColumns.forEach(c -> pool.add(c.name()));
    pool.addAll(queryDims);
    payload.forEach(c -> pool.add(c.name()));
    Collections.shuffle(pool, random);
    List<String> columns = List.copyOf(pool.subList(0, 1 + random.nextInt(Math.min(5, pool.size()))));

    List<Column> conditionPool = new ArrayList<>(cube.partitionColumns);
    conditionPool.addAll(cube.dimensions);
    conditionPool.addAll(payload);
    List<RandomCondition> conditions = new ArrayList<>();
    for (int i = 0, n = random.nextInt(4); i < n; i++) {
      conditions.add(condition(conditionPool.get(random.nextInt(conditionPool.size())), random));
    }

    List<String> partitionBy = new ArrayList<>();
    if (random.nextInt(10) < 3) {
      List<String> candidates = new ArrayList<>();
      cube.partitionColumns.forEach(c -> candidates.add(c.name()));
      queryDims.stream().filter(cube.seed().indexed()::contains).forEach(candidates::add);
      for (Dataset d : payloadSources) {
        d.payload().stream().filter(c -> d.indexed().contains(c.name())).forEach(c -> candidates.add(c.name()));
      }
      Collections.shuffle(candidates, random);
      partitionBy.addAll(candidates.subList(0, Math.min(candidates.size(), 1 + random.nextInt(2))));
    }
    return new RandomQuery(cube, conditions, columns, queryDims, partitionBy, scope, QuerySemantics.SQL);
  }

  private static RandomCondition condition(Column column, Random random) {
    List<Object> domain = literalDomain(column);
    Object a = domain.get(random.nextInt(domain.size()));
    Object b = domain.get(random.nextInt(domain.size()));
    String[] ops = column.type() == Type.BOOL ? new String[] {"==", "!=", "in"}
        : new String[] {"==", "!=", "<", "<=", ">", ">=", "in", "interval"};
    String op = ops[random.nextInt(ops.length)];
    return switch (op) {
      case "in" -> new RandomCondition(column, op, random.nextBoolean() ? List.of(a) : List.of(a, b), true, true);
      case "interval" -> new RandomCondition(column, op, List.of(a, b), random.nextBoolean(), random.nextBoolean());
      default -> new RandomCondition(column, op, List.of(a), true, true);
    };
  }

  /** Literals: the column's values and some it does not have. */
  private static List<Object> literalDomain(Column column) {
    List<Object> values = new ArrayList<>(column.role() == Role.PAYLOAD ? List.of() : column.domain());
    switch (column.type()) {
      case INT -> values.addAll(List.of(-1L, 0L, 1L, 2L, 3L));
      case DOUBLE -> values.addAll(List.of(0.5, -1.0, Double.NaN, Double.POSITIVE_INFINITY, 2.25, 0.0));
      case STRING -> values.addAll(List.of("x", "z z", "a", "'q'", "zz"));
      case DATE -> values.addAll(List.of(LocalDate.of(2024, 3, 2), LocalDate.of(2024, 1, 2), LocalDate.of(2025, 1, 1)));
      case BOOL -> values.addAll(List.of(true, false));
    }
    return values;
  }

  CubeQuery toQuery() {
    return CubeQuery.builder()
        .where(conditions.stream().map(RandomCondition::text).collect(Collectors.joining(" and ")))
        .columns(columns)
        .dimensionColumns(dimensions)
        .partitionBy(partitionBy)
        .datasets(datasets)
        .semantics(semantics)
        .build();
  }

  /** The reference SQL (see the class comment); files are found below {@code root}. */
  String sql(Path root) {
    Set<String> restricting = new TreeSet<>();
    conditions.forEach(c -> restricting.add(c.column().name()));
    restricting.addAll(partitionBy);
    Set<String> wanted = new TreeSet<>(restricting);
    wanted.addAll(columns);
    boolean projected = !dimensions.equals(cube.dimensions.stream().map(Column::name).toList());

    List<Dataset> joined = new ArrayList<>();
    StringBuilder sql = new StringBuilder("WITH ");
    for (Dataset d : cube.datasets) {
      if (!datasets.contains(d.id())) {
        continue;
      }
      boolean seed = d.id().equals("seed");
      boolean used = seed || d.payload().stream().anyMatch(c -> wanted.contains(c.name()));
      if (!used) {
        continue;
      }
      if (!seed) {
        joined.add(d);
      }
      List<CubeFixture.WrittenFile> files = cube.files.stream().filter(f -> f.datasetId().equals(d.id()))
          .sorted(Comparator.comparingLong(CubeFixture.WrittenFile::version).thenComparing(CubeFixture.WrittenFile::label))
          .toList();
      String t = d.id();
      List<String> partitions = d.partitions().stream().map(Column::name).toList();
      List<String> values = new ArrayList<>();
      for (int rank = 0; rank < files.size(); rank++) {
        CubeFixture.WrittenFile f = files.get(rank);
        List<String> row = new ArrayList<>();
        row.add(RandomCondition.sqlString(root.resolve(f.key()).toString()));
        row.add(Integer.toString(rank));
        for (int p = 0; p < partitions.size(); p++) {
          row.add(RandomCondition.sqlLiteral(d.partitions().get(p).type(), f.partitionValues().get(p)));
        }
        values.add("(" + String.join(", ", row) + ")");
      }
      String quotedPartitions = partitions.stream().map(p -> "\"" + p + "\"").collect(Collectors.joining(", "));
      sql.append("files_").append(t).append("(fname, rnk").append(partitions.isEmpty() ? "" : ", " + quotedPartitions)
          .append(") AS (VALUES ")
          .append(String.join(", ", values)).append("),\n");
      sql.append("raw_").append(t).append(" AS (SELECT r.*, f.* EXCLUDE (fname) FROM read_parquet([")
          .append(files.stream().map(f -> RandomCondition.sqlString(root.resolve(f.key()).toString()))
              .collect(Collectors.joining(", ")))
          .append("], filename = true, file_row_number = true) r JOIN files_").append(t)
          .append(" f ON r.filename = f.fname),\n");
      List<String> cell = new ArrayList<>(partitions);
      d.dimensions().forEach(c -> cell.add(c.name()));
      sql.append("cur_").append(t).append(" AS (SELECT * FROM raw_").append(t).append(" QUALIFY row_number() OVER (")
          .append("PARTITION BY ").append(cell.stream().map(c -> "\"" + c + "\"").collect(Collectors.joining(", ")))
          .append(" ORDER BY rnk DESC, file_row_number DESC) = 1),\n");
      String rows = kartothek() ? "raw_" + t : "cur_" + t;
      List<String> filters = new ArrayList<>();
      for (RandomCondition c : conditions) {
        String column = c.column().name();
        if (partitions.contains(column) || d.has(column)) {
          filters.add(kartothek() ? c.kartothekSql(rows) : c.sql(rows));
        }
        if (kartothek() && d.has(column)) {
          filters.addAll(kartothekFileFilters(c, d, rows));
        }
      }
      for (String column : partitionBy) {
        boolean payload = d.payload().stream().anyMatch(c -> c.name().equals(column));
        if (payload) {
          filters.add(rows + ".\"" + column + "\" IS NOT NULL");
        }
        if (kartothek() && cube.column(column).type() == Type.DOUBLE
            && (payload || d.id().equals("seed") && cube.column(column).role() == Role.DIMENSION)) {
          // pandas: NaN is missing, and groupby forms no group of it (the seed's index gives the groups
          // of a dimension column)
          filters.add("NOT isnan(" + rows + ".\"" + column + "\")");
        }
      }
      sql.append("ok_").append(t).append(" AS (SELECT * FROM ").append(rows)
          .append(filters.isEmpty() ? "" : " WHERE " + String.join(" AND ", filters));
      if (kartothek()) {
        // Kartothek filters the rows first, then keeps the last of each cell; a partition_by payload
        // column's groups each filter by their value first, so a cell's last row per value is kept
        List<String> kept = new ArrayList<>(cell);
        partitionBy.stream().filter(column -> d.payload().stream().anyMatch(c -> c.name().equals(column)))
            .forEach(kept::add);
        sql.append(" QUALIFY row_number() OVER (PARTITION BY ")
            .append(kept.stream().map(c -> "\"" + c + "\"").collect(Collectors.joining(", ")))
            .append(" ORDER BY rnk DESC, file_row_number DESC) = 1");
      }
      sql.append("),\n");
    }
    List<String> partitions = cube.partitionColumns.stream().map(Column::name).toList();
    List<String> seedKey = new ArrayList<>(partitions);
    seedKey.addAll(dimensions);
    sql.append("s AS (SELECT ").append(projected
        ? "DISTINCT " + seedKey.stream().map(c -> "\"" + c + "\"").collect(Collectors.joining(", ")) : "*")
        .append(" FROM ok_seed)\n");
    sql.append("SELECT ");
    List<String> select = new ArrayList<>();
    for (String column : outputColumns()) {
      select.add(source(column, joined) + ".\"" + column + "\"");
    }
    sql.append(String.join(", ", select)).append(" FROM s");
    for (Dataset d : joined) {
      boolean restricted = d.payload().stream().anyMatch(c -> restricting.contains(c.name()));
      List<String> on = new ArrayList<>(List.of("true"));
      for (String p : d.partitions().stream().map(Column::name).toList()) {
        on.add("s.\"" + p + "\" = ok_" + d.id() + ".\"" + p + "\"");
      }
      d.dimensions().forEach(c -> on.add("s.\"" + c.name() + "\" = ok_" + d.id() + ".\"" + c.name() + "\""));
      sql.append(restricted ? " JOIN " : " LEFT JOIN ").append("ok_").append(d.id()).append(" ON ")
          .append(String.join(" AND ", on));
    }
    Set<String> order = new LinkedHashSet<>(partitionBy);
    order.addAll(partitions);
    order.addAll(dimensions);
    sql.append(" ORDER BY ").append(order.stream().map(c -> source(c, joined) + ".\"" + c + "\"")
        .collect(Collectors.joining(", ")));
    return sql.toString();
  }

  /**
   * What Kartothek 5.3 drops beyond the rows a condition fails: with an index on the column, the
   * files without an indexed value that passes (the index holds no nulls, so under {@code !=} a
   * file whose values are all the literal or null goes with its null rows); for {@code !=}, the
   * row groups its reader skips ({@link RandomCondition#kartothekSkipsRowGroups}; their statistics are in the
   * table {@code rowgroups}, which the reference script builds with pyarrow, as plateau reads them).
   */
  private List<String> kartothekFileFilters(RandomCondition c, Dataset d, String rows) {
    List<String> filters = new ArrayList<>();
    String column = c.column().name();
    if (d.indexed().contains(column)) {
      String indexed = "ix.\"" + column + "\"";
      filters.add(rows + ".filename IN (SELECT ix.filename FROM " + rows + " ix WHERE " + indexed + " IS NOT NULL AND "
          + c.kartothekSql("ix") + ")");
    }
    if (c.kartothekSkipsRowGroups()) {
      String literal = RandomCondition.sqlString(RandomCube.canonical(c.values().get(0)));
      filters.add("NOT EXISTS (SELECT 1 FROM rowgroups g WHERE g.fname = " + rows + ".filename AND g.col = "
          + RandomCondition.sqlString(column) + " AND " + rows + ".file_row_number >= g.first_row AND " + rows
          + ".file_row_number < g.first_row + g.num_rows AND g.min_val = " + literal + " AND g.max_val = " + literal
          + ")");
    }
    return filters;
  }

  private String source(String column, List<Dataset> joined) {
    for (Dataset d : joined) {
      if (d.payload().stream().anyMatch(c -> c.name().equals(column))) {
        return "ok_" + d.id();
      }
    }
    return "s";
  }

  @Override
  public String toString() {
    return "query: where " + conditions.stream().map(RandomCondition::text).collect(Collectors.joining(" and "))
        + "\n  columns "
        + columns + ", dimensions " + dimensions + ", partition_by " + partitionBy + ", datasets " + datasets
        + ", semantics " + semantics;
  }
}
