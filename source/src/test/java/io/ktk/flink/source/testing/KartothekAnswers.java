package io.ktk.flink.source.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.QuerySemantics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The cube queries that Kartothek 5.3.0's own {@code query_cube} answered over two cubes written by
 * plateau 4.6.2 (test resource {@code kartothek-cubes}: a file-system store holding the cubes
 * {@code geo} and {@code sub}, and under {@code expected/<cube>/} one JSON file per query with
 * Kartothek's rows, its pandas dtypes and, for {@code partition_by} queries, its groups in order;
 * {@code expected/queries.md} lists them in words).
 *
 * <p>Kartothek returns pandas frames, so rows are compared in a canonical form: a missing value is
 * null whether Kartothek shows it as None, NaN ({@code "NaN"} in float columns) or NaT; numbers are
 * doubles in columns Kartothek returns as floats (an int column with a missing cell becomes float64)
 * and longs otherwise; dates are ISO strings.
 */
public final class KartothekAnswers {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One answered query.
   *
   * @param cube {@code geo} or {@code sub}
   * @param name the file name without {@code .json}: a number, or {@code refused-<n>}
   * @param query the query as Kartothek's parameters
   * @param groups Kartothek's rows, one list per group (one group without {@code partition_by}), by
   *     column name, as rendered
   * @param dtypes per column, the pandas dtype of each group's frame
   * @param refused Kartothek's error when it refused the query, else null
   */
  public record Answer(String cube, String name, JsonNode query, List<List<Map<String, JsonNode>>> groups,
      Map<String, List<String>> dtypes, String refused) {

    public String conditions() {
      return query.get("conditions").isNull() ? null : query.get("conditions").asText();
    }

    public List<String> columns() {
      return strings(query.get("columns"));
    }

    public List<String> payloadColumns() {
      return strings(query.get("payload_columns"));
    }

    public List<String> dimensionColumns() {
      return strings(query.get("dimension_columns"));
    }

    public List<String> partitionBy() {
      return strings(query.get("partition_by"));
    }

    public List<String> datasets() {
      return strings(query.get("datasets"));
    }

    /**
     * The query as {@code query_cube} was called: with Kartothek semantics {@code columns} are its
     * {@code payload_columns}; without, the columns Kartothek returned are asked for explicitly.
     */
    public CubeQuery cubeQuery(QuerySemantics semantics) {
      CubeQuery.Builder builder = CubeQuery.builder().semantics(semantics);
      if (conditions() != null) {
        builder.where(conditions());
      }
      if (semantics == QuerySemantics.KARTOTHEK) {
        if (payloadColumns() != null) {
          builder.columns(payloadColumns());
        }
      } else if (columns() != null) {
        builder.columns(columns());
      }
      if (dimensionColumns() != null) {
        builder.dimensionColumns(dimensionColumns());
      }
      if (partitionBy() != null) {
        builder.partitionBy(partitionBy());
      }
      if (datasets() != null) {
        builder.datasets(datasets());
      }
      return builder.build();
    }

    /** The columns of every {@code !=} condition: where Kartothek keeps rows whose value is missing. */
    public Set<String> notEqualColumns() {
      Set<String> columns = new TreeSet<>();
      if (conditions() != null) {
        for (String part : conditions().split(" and ")) {
          String[] words = part.trim().split(" ");
          if (words.length >= 3 && words[1].equals("!=")) {
            columns.add(words[0]);
          }
        }
      }
      return columns;
    }

    @Override
    public String toString() {
      return cube + "/" + name;
    }
  }

  private KartothekAnswers() {}

  /** The store directory holding both cubes. */
  public static Path store() {
    try {
      return Path.of(KartothekAnswers.class.getResource("/kartothek-cubes").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Every answered query (40: 22 on geo, 18 on sub), by cube and number. */
  public static List<Answer> answered() {
    return all().stream().filter(a -> a.refused() == null).toList();
  }

  /** The queries Kartothek refused. */
  public static List<Answer> refused() {
    return all().stream().filter(a -> a.refused() != null).toList();
  }

  public static Answer answer(String cube, String name) {
    return read(store().resolve("expected").resolve(cube).resolve(name + ".json"), cube);
  }

  private static List<Answer> all() {
    List<Answer> answers = new ArrayList<>();
    for (String cube : List.of("geo", "sub")) {
      try (Stream<Path> files = Files.list(store().resolve("expected").resolve(cube))) {
        files.filter(f -> !f.getFileName().toString().equals("cube.json"))
            .sorted((a, b) -> order(a).compareTo(order(b)))
            .forEach(file -> answers.add(read(file, cube)));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return answers;
  }

  private static String order(Path file) {
    String name = file.getFileName().toString().replace(".json", "");
    String digits = name.replaceAll("\\D", "");
    return (name.startsWith("refused") ? "1" : "0") + "%04d".formatted(Integer.parseInt(digits));
  }

  private static Answer read(Path file, String cube) {
    try {
      JsonNode node = JSON.readTree(file.toFile());
      String name = file.getFileName().toString().replace(".json", "");
      if (node.has("refused")) {
        return new Answer(cube, name, node.get("query"), List.of(), Map.of(), node.get("refused").asText());
      }
      List<List<Map<String, JsonNode>>> groups = new ArrayList<>();
      if (node.has("groups")) {
        node.get("groups").forEach(group -> groups.add(rows(group)));
      } else {
        groups.add(rows(node.get("rows")));
      }
      Map<String, List<String>> dtypes = new LinkedHashMap<>();
      node.get("dtypes").fields().forEachRemaining(e -> dtypes.put(e.getKey(), strings(e.getValue())));
      return new Answer(cube, name, node.get("query"), groups, dtypes, null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Map<String, JsonNode>> rows(JsonNode rows) {
    List<Map<String, JsonNode>> list = new ArrayList<>();
    for (JsonNode row : rows) {
      Map<String, JsonNode> values = new LinkedHashMap<>();
      row.fields().forEachRemaining(e -> values.put(e.getKey(), e.getValue()));
      list.add(values);
    }
    return list;
  }

  private static List<String> strings(JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    List<String> list = new ArrayList<>();
    node.forEach(n -> list.add(n.asText()));
    return list;
  }

  /** Whether Kartothek returns column {@code name} as floats in some group of {@code answer}. */
  private static boolean floating(Answer answer, String name) {
    return answer.dtypes().getOrDefault(name, List.of()).stream().anyMatch(d -> d.startsWith("float"));
  }

  /** Kartothek's rows of one group in the canonical form (see the class comment). */
  public static List<Map<String, Object>> canonical(Answer answer, List<Map<String, JsonNode>> rows) {
    List<Map<String, Object>> result = new ArrayList<>();
    for (Map<String, JsonNode> row : rows) {
      Map<String, Object> values = new LinkedHashMap<>();
      row.forEach((column, node) -> values.put(column, canonical(node, floating(answer, column))));
      result.add(values);
    }
    return result;
  }

  private static Object canonical(JsonNode node, boolean floating) {
    if (node.isNull() || (floating && node.isTextual() && node.asText().equals("NaN"))) {
      return null;
    }
    if (node.isNumber()) {
      return floating ? (Object) node.asDouble() : (Object) node.asLong();
    }
    if (node.isBoolean()) {
      return node.asBoolean();
    }
    return node.asText();
  }

  /** Our rows (typed values, with the columns {@code fields}) in the canonical form. */
  public static List<Map<String, Object>> canonicalOurs(Answer answer, List<Field> fields, List<List<Object>> rows) {
    List<Map<String, Object>> result = new ArrayList<>();
    for (List<Object> row : rows) {
      Map<String, Object> values = new LinkedHashMap<>();
      Iterator<Object> it = row.iterator();
      for (Field field : fields) {
        Object value = it.next();
        boolean floating = floating(answer, field.getName()) || field.getType() instanceof ArrowType.FloatingPoint;
        if (value instanceof Double d && d.isNaN()) {
          value = null; // pandas has one missing marker for floats
        } else if (value instanceof Number number) {
          value = floating ? (Object) number.doubleValue() : (Object) number.longValue();
        } else if (value instanceof LocalDate date) {
          value = date.toString();
        }
        values.put(field.getName(), value);
      }
      result.add(values);
    }
    return result;
  }

  /**
   * The pandas dtypes Kartothek gives a column of our type in a group: ints become float64 and bools
   * object when a value is missing; a float column of a dataset that contributed no row to the group
   * comes from Kartothek's empty frame, which it narrows to float32; strings are {@code str}, dates
   * {@code object}.
   */
  public static Set<String> dtypesFor(ArrowType type, boolean anyMissing, boolean allMissing) {
    if (type instanceof ArrowType.Int) {
      return Set.of(anyMissing ? "float64" : "int64");
    }
    if (type instanceof ArrowType.FloatingPoint) {
      return allMissing ? Set.of("float64", "float32") : Set.of("float64");
    }
    if (type instanceof ArrowType.Bool) {
      return Set.of(anyMissing ? "object" : "bool");
    }
    if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8) {
      return Set.of("str");
    }
    if (type instanceof ArrowType.Date) {
      return Set.of("object");
    }
    throw new IllegalArgumentException("no pandas dtype known for " + type);
  }
}
