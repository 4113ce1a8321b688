package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static io.ktk.flink.state.testing.TestDataset.field;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.metadata.CubeMetadataKeys;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.TestDataset;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code ktk info} and {@code ktk stats}: the figures of datasets and cubes. */
class InfoAndStatsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  LocalObjectStore store;
  String url;
  List<DataFile> files = new ArrayList<>();

  @BeforeEach
  void writeDataset() throws IOException {
    store = new LocalObjectStore(dir);
    url = dir.toUri().toString();
    TestDataset events = TestDataset.create(store, "events", ReadCommandTest.SCHEMA, List.of("p"), List.of("c"));
    files.addAll(events.append(ReadCommandTest.ROWS));
    // A second version whose file stores c as int32.
    Schema int32 = new Schema(events.dataSchema().getFields().stream()
        .map(f -> f.getName().equals("c") ? field("c", new ArrowType.Int(32, true)) : f).toList());
    files.addAll(events.append(int32, List.of(Arrays.asList(2L, 6L, "z", 2.5, LocalDate.of(2024, 1, 6)))));
    events.publish();
  }

  private long bytesOf(DataFile... some) throws IOException {
    long sum = 0;
    for (DataFile file : some) {
      sum += Files.size(dir.resolve(file.key("events")));
    }
    return sum;
  }

  @Test
  void jsonInfoOfADatasetHasItsFiguresSchemaAndIndices() throws IOException {
    KtkRun run = ktk("info", "--store", url, "--dataset", "events", "--json");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    JsonNode info = JSON.readTree(run.out());
    assertThat(info.get("uuid").asText()).isEqualTo("events");
    assertThat(info.get("version").asLong()).isEqualTo(1);
    assertThat(info.get("published_version").asLong()).isEqualTo(1);
    assertThat(info.get("partition_keys").toString()).isEqualTo("[\"p\"]");
    assertThat(info.get("partitions").asInt()).isEqualTo(2);
    assertThat(info.get("files").asInt()).isEqualTo(3);
    assertThat(info.get("rows").asLong()).isEqualTo(6);
    assertThat(info.get("bytes").asLong()).isEqualTo(bytesOf(files.toArray(DataFile[]::new)));
    assertThat(info.get("file_sizes").toString()).isEqualTo("{\"under_1mib\":3,\"1_to_16mib\":0,"
        + "\"16_to_128mib\":0,\"128mib_or_more\":0,\"unknown\":0}");
    assertThat(info.get("log").get("retained_from").asLong()).isZero();
    assertThat(info.get("log").get("version").asLong()).isEqualTo(1);
    assertThat(info.get("log").get("entries").asInt()).isEqualTo(2);
    assertThat(info.get("log").get("last_compaction").isNull()).isTrue();
    assertThat(info.get("schema").toString()).isEqualTo("["
        + "{\"name\":\"p\",\"partition_key\":true,\"normalized\":\"int64\",\"stored\":[]},"
        + "{\"name\":\"c\",\"partition_key\":false,\"normalized\":\"int64\",\"stored\":[\"int32\",\"int64\"]},"
        + "{\"name\":\"d\",\"partition_key\":false,\"normalized\":\"date32[day]\",\"stored\":[\"date32[day]\"]},"
        + "{\"name\":\"s\",\"partition_key\":false,\"normalized\":\"string\",\"stored\":[\"string\"]},"
        + "{\"name\":\"v\",\"partition_key\":false,\"normalized\":\"double\",\"stored\":[\"double\"]}]");
    assertThat(info.get("indices").toString()).isEqualTo("[{\"column\":\"c\",\"values\":6}]");
    assertThat(info.get("metadata").toString()).isEqualTo("{}");
  }

  @Test
  void textInfoShowsTheSameFigures() {
    KtkRun run = ktk("info", "--store", url, "--dataset", "events");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(squeezed(run.out())).contains(
        "uuid events",
        "partition keys p",
        "partitions 2",
        "files 3",
        "rows 6",
        "c int64 int32, int64",
        "c 6 values");
    assertThat(run.out()).contains("(published metadata shows version 1)");
  }

  @Test
  void statsCountFilesRowsAndBytesPerPartitionInValueOrderAndInTotal() throws IOException {
    KtkRun run = ktk("stats", "--store", url, "--dataset", "events");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    DataFile p10 = files.get(0);
    DataFile p2 = files.get(1);
    DataFile p2Later = files.get(2);
    assertThat(squeezed(run.out())).containsExactly(
        "dataset events at version 1:",
        "partition files rows bytes file sizes <1M/1-16M/16-128M/>=128M/?",
        "p=2 2 4 " + bytes(bytesOf(p2, p2Later)) + " 2/0/0/0/0",
        "p=10 1 2 " + bytes(bytesOf(p10)) + " 1/0/0/0/0",
        "total 3 6 " + bytes(bytesOf(p10, p2, p2Later)) + " 3/0/0/0/0",
        "log: versions 0 to 1 retained; 2 entries and 0 snapshots, " + logBytes() + "; last compaction: none");
  }

  /** The log's size as stats prints it: the entries' bytes as listed. */
  private String logBytes() {
    long total = 0;
    for (long version = 0; version <= 1; version++) {
      total += dir.resolve(String.format("events/_ktk_log/%020d.json", version)).toFile().length();
    }
    return String.format(Locale.ROOT, "%.1f KiB", total / 1024.0);
  }

  private static String bytes(long bytes) {
    return String.format(Locale.ROOT, "%,d", bytes) + " (" + (bytes < 1024 ? bytes + " B"
        : String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0)) + ")";
  }

  /** The lines with runs of spaces collapsed and trimmed. */
  private static List<String> squeezed(String text) {
    return text.lines().map(line -> line.trim().replaceAll(" {2,}", " ")).toList();
  }

  private void writeCube(String enrichmentColumn) throws IOException {
    CubeSpec spec = CubeSpec.of("sales", List.of("x"), List.of("p"));
    Schema seedSchema = new Schema(List.of(field("p", new ArrowType.Int(64, true)),
        field("x", new ArrowType.Int(64, true)), field("a", ArrowType.Utf8.INSTANCE)));
    TestDataset seed = TestDataset.create(store, "sales++seed", seedSchema, List.of("p"), List.of("x"))
        .withMetadata(CubeMetadataKeys.datasetMetadata(spec, "seed"));
    seed.append(List.of(List.of(1L, 1L, "one"), List.of(1L, 2L, "two"), List.of(2L, 1L, "three")));
    seed.publish();
    Schema enrichSchema = new Schema(List.of(field("p", new ArrowType.Int(64, true)),
        field("x", new ArrowType.Int(64, true)), field(enrichmentColumn, ArrowType.Utf8.INSTANCE)));
    TestDataset enrich = TestDataset.create(store, "sales++enrich", enrichSchema, List.of("p"), List.of())
        .withMetadata(CubeMetadataKeys.datasetMetadata(spec, "enrich"));
    enrich.append(List.of(List.of(1L, 1L, "b1")));
    enrich.publish();
  }

  @Test
  void cubeInfoListsTheSeedFirstWithTheSpecAndValidity() throws IOException {
    writeCube("b");

    KtkRun run = ktk("info", "--store", url, "--cube", "sales", "--json");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    JsonNode info = JSON.readTree(run.out());
    assertThat(info.get("cube").asText()).isEqualTo("sales");
    assertThat(info.get("valid").asBoolean()).isTrue();
    assertThat(info.get("problem").isNull()).isTrue();
    assertThat(info.get("spec").toString()).isEqualTo("{\"dimension_columns\":[\"x\"],\"partition_columns\":[\"p\"],"
        + "\"seed_dataset\":\"seed\",\"suppress_index_on\":[]}");
    assertThat(info.get("datasets").findValuesAsText("dataset_id")).containsExactly("seed", "enrich");
    assertThat(info.get("datasets").get(0).get("rows").asLong()).isEqualTo(3);
    assertThat(info.get("datasets").get(1).get("uuid").asText()).isEqualTo("sales++enrich");

    KtkRun text = ktk("info", "--store", url, "--cube", "sales");
    assertThat(text.exitCode()).as(text.toString()).isZero();
    assertThat(squeezed(text.out())).contains("cube sales", "dimension columns x", "cube rules obeyed",
        "dataset seed:", "dataset enrich:");
  }

  @Test
  void cubeInfoReportsABrokenCubeRule() throws IOException {
    writeCube("a"); // payload column a is in both datasets

    KtkRun run = ktk("info", "--store", url, "--cube", "sales", "--json");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    JsonNode info = JSON.readTree(run.out());
    assertThat(info.get("valid").asBoolean()).isFalse();
    assertThat(info.get("problem").asText()).contains("both have payload columns [a]");
  }

  @Test
  void statsOfACubeCoverEachDataset() throws IOException {
    writeCube("b");

    KtkRun run = ktk("stats", "--store", url, "--cube", "sales");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(squeezed(run.out())).contains("dataset sales++enrich at version 0:", "dataset sales++seed at version 0:");
    assertThat(squeezed(run.out()).stream().filter(line -> line.startsWith("total "))).hasSize(2);
  }

  @Test
  void unknownDatasetAndCubeFailWithTheirNames() {
    KtkRun dataset = ktk("info", "--store", url, "--dataset", "nope");
    assertThat(dataset.exitCode()).isEqualTo(Ktk.ERROR);
    assertThat(dataset.err()).contains("Cannot read dataset 'nope' in " + url).doesNotContain("\tat ");

    KtkRun cube = ktk("stats", "--store", url, "--cube", "nope");
    assertThat(cube.exitCode()).isEqualTo(Ktk.ERROR);
    assertThat(cube.err()).contains("Cannot read cube 'nope'");
  }
}
