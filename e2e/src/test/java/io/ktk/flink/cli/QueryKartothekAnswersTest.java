package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code ktk query} and {@code ktk validate} on two cubes written by plateau 4.6.2 in Kartothek 5.3's
 * layout (test resource {@code kartothek-cubes}), against the answers Kartothek 5.3.0's own {@code
 * query_cube} gave for 40 queries ({@code expected/<cube>/<n>.json}; {@code expected/queries.md}
 * lists them in words). The cube {@code sub} has enrichments partitioned by a subset of the cube's
 * partition columns.
 *
 * <p>Kartothek returns pandas frames, so values are compared in a canonical form: a missing value is
 * null whether Kartothek shows None or NaN ({@code "NaN"} in float columns); numbers are compared as
 * doubles in the columns Kartothek returns as floats (an int column with a missing cell is float64).
 * Groups of {@code partition_by} queries are compared in order, rows within a group in any order
 * (Kartothek sorts a group by dimension then partition columns, this tool by partition then dimension
 * columns).
 */
class QueryKartothekAnswersTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path STORE = store();

  /** One of Kartothek's answers. */
  record Answer(String cube, String name, JsonNode file) {
    JsonNode query() {
      return file.get("query");
    }

    List<String> list(String key) {
      JsonNode node = query().get(key);
      if (node == null || node.isNull()) {
        return null;
      }
      List<String> values = new ArrayList<>();
      node.forEach(v -> values.add(v.asText()));
      return values;
    }

    /** Kartothek's rows, one list per group. */
    List<List<JsonNode>> groups() {
      List<List<JsonNode>> groups = new ArrayList<>();
      if (file.has("groups")) {
        file.get("groups").forEach(group -> groups.add(rows(group)));
      } else {
        groups.add(rows(file.get("rows")));
      }
      return groups;
    }

    boolean floating(String column) {
      JsonNode dtypes = file.get("dtypes").get(column);
      for (JsonNode dtype : dtypes) {
        if (dtype.asText().startsWith("float")) {
          return true;
        }
      }
      return false;
    }

    /** The {@code ktk query} arguments of this query; with Kartothek semantics --columns are its payload_columns. */
    List<String> arguments(boolean kartothekSemantics) {
      List<String> args = new ArrayList<>(List.of("query", "--store", STORE.toUri().toString(), "--cube", cube,
          "--format", "jsonl"));
      JsonNode conditions = query().get("conditions");
      if (!conditions.isNull()) {
        args.addAll(List.of("--where", conditions.asText()));
      }
      List<String> columns = kartothekSemantics ? list("payload_columns") : list("columns");
      if (columns != null) {
        args.addAll(List.of("--columns", String.join(",", columns)));
      }
      for (String[] option : new String[][] {{"dimension_columns", "--dimension-columns"},
          {"partition_by", "--partition-by"}, {"datasets", "--datasets"}}) {
        List<String> values = list(option[0]);
        if (values != null) {
          args.addAll(List.of(option[1], String.join(",", values)));
        }
      }
      if (kartothekSemantics) {
        args.add("--kartothek-semantics");
      }
      return args;
    }

    /** The columns of the {@code !=} conditions, whose missing values Kartothek keeps. */
    Set<String> notEqualColumns() {
      Set<String> columns = new TreeSet<>();
      JsonNode conditions = query().get("conditions");
      if (!conditions.isNull()) {
        for (String part : conditions.asText().split(" and ")) {
          String[] words = part.trim().split(" ");
          if (words[1].equals("!=")) {
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

  static Stream<Answer> answered() {
    return answers().filter(a -> !a.file().has("refused"));
  }

  static Stream<Answer> refused() {
    return answers().filter(a -> a.file().has("refused"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("answered")
  void withKartothekSemanticsTheRowsColumnsAndGroupsAreKartothekAnswer(Answer answer) {
    KtkRun run = ktk(answer.arguments(true).toArray(String[]::new));

    assertThat(run.exitCode()).as(run.toString()).isZero();
    List<Map<String, Object>> rows = parse(answer, run.out());
    if (!rows.isEmpty()) {
      assertThat(rows.get(0).keySet()).as("columns, in Kartothek's order").containsExactlyElementsOf(
          answer.list("columns"));
    }
    assertSameGroups(answer, rows, expected(answer, Set.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("answered")
  void withoutKartothekSemanticsOnlyTheRowsWhereNotEqualMeetsNullAreLeftOut(Answer answer) {
    KtkRun run = ktk(answer.arguments(false).toArray(String[]::new));

    assertThat(run.exitCode()).as(run.toString()).isZero();
    // documented difference: a comparison with null drops the row, also under != (Kartothek keeps it)
    assertSameGroups(answer, parse(answer, run.out()), expected(answer, answer.notEqualColumns()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void aQueryKartothekRefusesIsRefusedWithKartothekSemantics(Answer answer) {
    KtkRun run = ktk(answer.arguments(true).toArray(String[]::new));

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(Ktk.ERROR);
    assertThat(run.out()).isEmpty();
    assertThat(run.err()).contains("Cannot query cube '" + answer.cube() + "'");
  }

  @Test
  void validateAcceptsTheCubeWithEnrichmentsPartitionedByASubsetOfThePartitionColumns() {
    KtkRun run = ktk("validate", "--store", STORE.toUri().toString(), "--cube", "sub");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).doesNotContain("PROBLEM").contains("cube sub:" + System.lineSeparator() + "  ok");
  }

  @Test
  void validateFindsTheCubeRulesOfGeoKeptButNullsInItsIndexColumnR() {
    KtkRun run = ktk("validate", "--store", STORE.toUri().toString(), "--cube", "geo");

    // e3's payload r is one of the cube's index columns and holds nulls, which Kartothek's cube writer
    // refuses ("Found NULL-values in index column"); the cube's own rules hold
    assertThat(run.out()).contains("cube geo:" + System.lineSeparator() + "  ok");
    assertThat(run.out().lines().filter(line -> line.contains("PROBLEM")).toList())
        .singleElement().asString().contains("index column r holds nulls");
  }

  @Test
  void infoShowsTheSubsetPartitionedCubeAsObeyingTheCubeRules() throws IOException {
    KtkRun run = ktk("info", "--store", STORE.toUri().toString(), "--cube", "sub", "--json");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    JsonNode info = JSON.readTree(run.out());
    assertThat(info.get("valid").asBoolean()).as(run.out()).isTrue();
    assertThat(info.get("problem").isNull()).isTrue();
  }

  private static void assertSameGroups(Answer answer, List<Map<String, Object>> rows,
      List<List<Map<String, Object>>> expected) {
    List<String> partitionBy = answer.list("partition_by");
    List<List<Map<String, Object>>> groups = new ArrayList<>();
    if (partitionBy == null) {
      groups.add(rows);
    } else {
      // the rows come group by group; a group is a run of equal partition_by values
      List<Object> key = null;
      for (Map<String, Object> row : rows) {
        List<Object> rowKey = partitionBy.stream().map(row::get).toList();
        if (!Objects.equals(rowKey, key)) {
          groups.add(new ArrayList<>());
          key = rowKey;
        }
        groups.get(groups.size() - 1).add(row);
      }
    }
    List<List<Map<String, Object>>> nonEmpty = expected.stream().filter(g -> !g.isEmpty() || partitionBy == null)
        .toList();
    assertThat(groups).as("groups").hasSameSizeAs(nonEmpty);
    for (int g = 0; g < groups.size(); g++) {
      assertThat(groups.get(g)).as("rows of group %s", g).containsExactlyInAnyOrderElementsOf(nonEmpty.get(g));
    }
  }

  /** Kartothek's groups, canonical, without the rows where a column of {@code dropMissing} is missing. */
  private static List<List<Map<String, Object>>> expected(Answer answer, Set<String> dropMissing) {
    List<List<Map<String, Object>>> groups = new ArrayList<>();
    for (List<JsonNode> group : answer.groups()) {
      List<Map<String, Object>> rows = new ArrayList<>();
      for (JsonNode row : group) {
        Map<String, Object> values = canonical(answer, row);
        if (dropMissing.stream().allMatch(column -> values.get(column) != null)) {
          rows.add(values);
        }
      }
      groups.add(rows);
    }
    return groups;
  }

  private static List<Map<String, Object>> parse(Answer answer, String jsonLines) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (String line : jsonLines.split("\n")) {
      if (!line.isBlank()) {
        try {
          rows.add(canonical(answer, JSON.readTree(line)));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return rows;
  }

  private static Map<String, Object> canonical(Answer answer, JsonNode row) {
    Map<String, Object> values = new LinkedHashMap<>();
    row.fields().forEachRemaining(e -> {
      JsonNode node = e.getValue();
      boolean floating = answer.floating(e.getKey());
      Object value;
      if (node.isNull() || (floating && node.isTextual() && node.asText().equals("NaN"))) {
        value = null;
      } else if (node.isNumber()) {
        value = floating || node.isFloatingPointNumber() ? (Object) node.asDouble() : (Object) node.asLong();
      } else if (node.isBoolean()) {
        value = node.asBoolean();
      } else {
        value = node.asText();
      }
      values.put(e.getKey(), value);
    });
    return values;
  }

  private static List<JsonNode> rows(JsonNode rows) {
    List<JsonNode> list = new ArrayList<>();
    rows.forEach(list::add);
    return list;
  }

  private static Stream<Answer> answers() {
    List<Answer> answers = new ArrayList<>();
    for (String cube : List.of("geo", "sub")) {
      try (Stream<Path> files = Files.list(STORE.resolve("expected").resolve(cube))) {
        for (Path file : files.sorted().toList()) {
          String name = file.getFileName().toString().replace(".json", "");
          if (!name.equals("cube")) {
            answers.add(new Answer(cube, name, JSON.readTree(file.toFile())));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return answers.stream();
  }

  private static Path store() {
    try {
      return Path.of(QueryKartothekAnswersTest.class.getResource("/kartothek-cubes").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
