package io.ktk.flink.source.engine;

import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A random cube for the differential test: 1 or 2 partition columns, 1 to 3 dimension columns,
 * a seed and 1 to 3 enrichments with random dimensions, partition columns (all, or a subset in any
 * order), payload and indices, rows over random
 * subsets of the cells (so partitions and cells are missing on either side), nulls, NaN and
 * infinities in payload, and some cells written again in later files (same or later commit, same
 * or other file), which the last-written row must win. Files have row groups of 1 to 3 rows (or
 * one), so that row groups are pruned by their statistics.
 */
final class RandomCube {
  enum Type {
    INT(new ArrowType.Int(64, true)),
    DOUBLE(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
    STRING(ArrowType.Utf8.INSTANCE),
    DATE(new ArrowType.Date(org.apache.arrow.vector.types.DateUnit.DAY)),
    BOOL(ArrowType.Bool.INSTANCE);

    final ArrowType arrow;

    Type(ArrowType arrow) {
      this.arrow = arrow;
    }
  }

  enum Role { PARTITION, DIMENSION, PAYLOAD }

  record Column(String name, Type type, Role role, List<Object> domain) {
    Field field() {
      return CubeFixture.field(name, type.arrow);
    }
  }

  /**
   * A dataset: the seed is partitioned by the cube's partition columns, an enrichment sometimes by
   * some of them only (in any order, maybe none), which Kartothek 5.3 allows.
   */
  record Dataset(String id, List<Column> partitions, List<Column> dimensions, List<Column> payload,
      Set<String> indexed) {
    List<Column> columns() {
      List<Column> all = new ArrayList<>(partitions);
      all.addAll(dimensions);
      all.addAll(payload);
      return all;
    }

    boolean has(String column) {
      return dimensions.stream().anyMatch(c -> c.name().equals(column))
          || payload.stream().anyMatch(c -> c.name().equals(column));
    }
  }

  final CubeSpec spec;
  final List<Column> partitionColumns;
  final List<Column> dimensions;
  final List<Dataset> datasets;
  final List<CubeFixture.WrittenFile> files;
  final String description;

  private RandomCube(CubeSpec spec, List<Column> partitionColumns, List<Column> dimensions, List<Dataset> datasets,
      List<CubeFixture.WrittenFile> files, String description) {
    this.spec = spec;
    this.partitionColumns = partitionColumns;
    this.dimensions = dimensions;
    this.datasets = datasets;
    this.files = files;
    this.description = description;
  }

  Dataset seed() {
    return datasets.get(0);
  }

  Column column(String name) {
    for (Column c : partitionColumns) {
      if (c.name().equals(name)) {
        return c;
      }
    }
    for (Dataset d : datasets) {
      for (Column c : d.columns().subList(d.partitions().size(), d.columns().size())) {
        if (c.name().equals(name)) {
          return c;
        }
      }
    }
    throw new IllegalArgumentException(name);
  }

  Dataset owner(String payloadColumn) {
    return datasets.stream().filter(d -> d.payload().stream().anyMatch(c -> c.name().equals(payloadColumn)))
        .findFirst().orElseThrow();
  }

  static List<Object> domain(Type type, Random random, int size) {
    List<Object> all = switch (type) {
      case INT -> new ArrayList<>(List.of(0L, 1L, 2L, -3L, 7L));
      case DOUBLE -> new ArrayList<>(Arrays.asList(-1.5, 0.0, 2.5, Double.NaN, Double.POSITIVE_INFINITY));
      case STRING -> new ArrayList<>(List.of("a", "b", "c d", "é/%", "B"));
      case DATE -> new ArrayList<>(List.of(LocalDate.of(2024, 1, 1), LocalDate.of(2024, 1, 2), LocalDate.of(2023, 12, 31),
          LocalDate.of(2024, 2, 29)));
      case BOOL -> new ArrayList<>(List.of(true, false));
    };
    Collections.shuffle(all, random);
    return List.copyOf(all.subList(0, Math.min(size, all.size())));
  }

  private static Object payloadValue(Type type, Random random) {
    if (random.nextInt(7) == 0) {
      return null;
    }
    return switch (type) {
      case INT -> (long) (random.nextInt(7) - 3);
      case DOUBLE -> new Object[] {-1.0, 0.5, 2.25, Double.NaN, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -0.0}
          [random.nextInt(7)];
      case STRING -> new String[] {"x", "y", "z z", "'q'"}[random.nextInt(4)];
      case DATE -> LocalDate.of(2024, 3, 1).plusDays(random.nextInt(4));
      case BOOL -> random.nextBoolean();
    };
  }

  /** Generates a cube from {@code random} and writes it to {@code store}. */
  static RandomCube write(Random random, ObjectStore store, String name) throws IOException {
    Type[] partitionTypes = {Type.INT, Type.STRING, Type.DATE};
    Type[] dimensionTypes = {Type.INT, Type.STRING, Type.DATE, Type.DOUBLE};
    Type[] payloadTypes = {Type.INT, Type.DOUBLE, Type.STRING, Type.BOOL, Type.DATE};
    List<Column> partitionColumns = new ArrayList<>();
    for (int i = 0, n = 1 + random.nextInt(2); i < n; i++) {
      Type type = partitionTypes[random.nextInt(partitionTypes.length)];
      partitionColumns.add(new Column("p" + i, type, Role.PARTITION, domain(type, random, 2 + random.nextInt(2))));
    }
    List<Column> dimensions = new ArrayList<>();
    for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
      Type type = dimensionTypes[random.nextInt(dimensionTypes.length)];
      dimensions.add(new Column("d" + i, type, Role.DIMENSION, domain(type, random, 2 + random.nextInt(3))));
    }
    List<Dataset> datasets = new ArrayList<>();
    int enrichments = 1 + random.nextInt(3);
    for (int k = 0; k <= enrichments; k++) {
      String id = k == 0 ? "seed" : "e" + k;
      List<Column> dims = new ArrayList<>();
      if (k == 0) {
        dims.addAll(dimensions);
      } else {
        for (Column d : dimensions) {
          if (random.nextInt(3) > 0) {
            dims.add(d);
          }
        }
        if (dims.isEmpty()) {
          dims.add(dimensions.get(random.nextInt(dimensions.size())));
        }
      }
      List<Column> payload = new ArrayList<>();
      for (int i = 0, n = (k == 0 ? random.nextInt(3) : 1 + random.nextInt(2)); i < n; i++) {
        Type type = payloadTypes[random.nextInt(payloadTypes.length)];
        payload.add(new Column(id + "_v" + i, type, Role.PAYLOAD, List.of()));
      }
      Set<String> indexed = new TreeSet<>();
      for (Column c : dims) {
        if (random.nextInt(10) < (k == 0 ? 6 : 3)) {
          indexed.add(c.name());
        }
      }
      for (Column c : payload) {
        if (random.nextInt(10) < 4) {
          indexed.add(c.name());
        }
      }
      List<Column> partitions = new ArrayList<>(partitionColumns);
      if (k > 0 && random.nextInt(3) == 0) {
        Collections.shuffle(partitions, random);
        partitions = new ArrayList<>(partitions.subList(0, random.nextInt(partitions.size() + 1)));
      }
      datasets.add(new Dataset(id, partitions, dims, payload, indexed));
    }
    CubeSpec spec = new CubeSpec(name, dimensions.stream().map(Column::name).toList(),
        partitionColumns.stream().map(Column::name).toList(), "seed", new TreeSet<>());
    CubeFixture fixture = new CubeFixture(store, spec);
    StringBuilder description = new StringBuilder("cube " + name + ": partition " + partitionColumns + "\n  dimensions "
        + dimensions + "\n");
    for (Dataset dataset : datasets) {
      writeDataset(random, fixture, dataset, description);
    }
    return new RandomCube(spec, partitionColumns, dimensions, datasets, fixture.written(), description.toString());
  }

  private static void writeDataset(Random random, CubeFixture fixture, Dataset dataset, StringBuilder description)
      throws IOException {
    List<Column> partitionColumns = dataset.partitions();
    List<Column> columns = dataset.columns();
    List<List<Object>> cells = new ArrayList<>();
    cells.add(new ArrayList<>());
    for (Column c : partitionColumns) {
      cells = extend(cells, c.domain());
    }
    List<List<Object>> kept = new ArrayList<>();
    Map<List<Object>, Boolean> partitionKept = new LinkedHashMap<>();
    for (List<Object> partition : cells) {
      partitionKept.put(partition, random.nextInt(5) > 0);
    }
    List<List<Object>> full = cells;
    for (Column c : dataset.dimensions()) {
      full = extend(full, c.domain());
    }
    for (List<Object> cell : full) {
      if (partitionKept.get(cell.subList(0, partitionColumns.size())) && random.nextInt(10) < 6) {
        kept.add(cell);
      }
    }
    if (kept.isEmpty()) {
      kept.add(full.get(random.nextInt(full.size())));
    }
    int commits = 1 + random.nextInt(3);
    List<List<List<Object>>> rowsByCommit = new ArrayList<>();
    for (int i = 0; i < commits; i++) {
      rowsByCommit.add(new ArrayList<>());
    }
    for (List<Object> cell : kept) {
      int commit = random.nextInt(commits);
      rowsByCommit.get(commit).add(withPayload(cell, dataset, random));
      if (random.nextInt(6) == 0) {
        // the same cell again, in this or a later commit: the last written row must win
        rowsByCommit.get(commit + random.nextInt(commits - commit)).add(withPayload(cell, dataset, random));
      }
    }
    CubeFixture.DatasetWriter writer = fixture.dataset(dataset.id(),
        new Schema(columns.stream().map(Column::field).toList()), dataset.indexed().toArray(new String[0]));
    // files of several row groups (1 to 3 rows each, or one group), so that row-group pruning is exercised
    int rowsPerGroup = random.nextInt(4);
    writer.rowsPerGroup(rowsPerGroup);
    int fileCounter = 0;
    description.append("  dataset ").append(dataset.id()).append(": partitioned by ")
        .append(partitionColumns.stream().map(Column::name).toList()).append(", dims ")
        .append(dataset.dimensions().stream().map(Column::name).toList()).append(", payload ")
        .append(dataset.payload().stream().map(c -> c.name() + ":" + c.type()).toList()).append(", indexed ")
        .append(dataset.indexed()).append(", rows per group ").append(rowsPerGroup).append('\n');
    for (List<List<Object>> rows : rowsByCommit) {
      if (rows.isEmpty()) {
        continue;
      }
      Map<List<Object>, List<List<Object>>> byPartition = new LinkedHashMap<>();
      for (List<Object> row : rows) {
        byPartition.computeIfAbsent(row.subList(0, partitionColumns.size()), p -> new ArrayList<>()).add(row);
      }
      Map<String, List<List<Object>>> files = new LinkedHashMap<>();
      for (List<List<Object>> partitionRows : byPartition.values()) {
        if (partitionRows.size() > 1 && random.nextInt(4) == 0) {
          int split = 1 + random.nextInt(partitionRows.size() - 1);
          files.put(String.format("f%04d", fileCounter++), partitionRows.subList(0, split));
          files.put(String.format("f%04d", fileCounter++), partitionRows.subList(split, partitionRows.size()));
        } else {
          files.put(String.format("f%04d", fileCounter++), partitionRows);
        }
      }
      writer.commitFiles(files);
      files.forEach((id, fileRows) -> description.append("    ").append(id).append(' ').append(render(fileRows))
          .append('\n'));
    }
  }

  private static List<Object> withPayload(List<Object> cell, Dataset dataset, Random random) {
    List<Object> row = new ArrayList<>(cell);
    for (Column c : dataset.payload()) {
      row.add(payloadValue(c.type(), random));
    }
    return row;
  }

  private static List<List<Object>> extend(List<List<Object>> prefixes, List<Object> values) {
    List<List<Object>> extended = new ArrayList<>();
    for (List<Object> prefix : prefixes) {
      for (Object value : values) {
        List<Object> next = new ArrayList<>(prefix);
        next.add(value);
        extended.add(next);
      }
    }
    return extended;
  }

  static String render(List<List<Object>> rows) {
    StringBuilder s = new StringBuilder();
    for (List<Object> row : rows) {
      s.append(row.stream().map(RandomCube::render).toList());
    }
    return s.toString();
  }

  static String render(Object value) {
    if (value instanceof byte[] bytes) {
      return HexFormat.of().formatHex(bytes);
    }
    return String.valueOf(value);
  }

  /** A value as the reference prints it: see {@code DuckDbReference}. */
  static String canonical(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof Double d) {
      // -0.0 == 0.0 (and DuckDB, the reference, turns -0.0 into 0.0 in joins and sorts)
      return d.isNaN() ? "nan" : Long.toString(Double.doubleToRawLongBits(d + 0.0));
    }
    if (value instanceof String s) {
      return HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8));
    }
    return value.toString();
  }
}
