package io.ktk.flink.cli;

import static io.ktk.flink.cli.KtkRun.ktk;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ktk.flink.state.testing.S3Proxy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole path on s3proxy: a cube's seed and an enrichment ingested with {@code ktk ingest}, each
 * with failures injected (the job restarts from its checkpoints and replays), then {@code ktk query}
 * returns every seed cell once, joined with its enrichment where one exists.
 */
class IngestCubeS3Test {
  @RegisterExtension static final S3Proxy S3 = S3Proxy.inMemory();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int CELLS = 20_000;

  @TempDir Path dir;

  private static List<String> storeArgs() {
    List<String> args = new ArrayList<>(List.of("--store", S3.url("cubes")));
    S3.options().forEach((key, value) -> args.addAll(List.of("--store-option", key + "=" + value)));
    return args;
  }

  private static KtkRun run(String command, String... more) {
    List<String> args = new ArrayList<>(List.of(command));
    args.addAll(storeArgs());
    args.addAll(List.of(more));
    return ktk(args.toArray(String[]::new));
  }

  private static KtkRun ingest(String datasetId, String schema, Path input, String... more) {
    List<String> args = new ArrayList<>(List.of("--cube", "shop", "--dataset-id", datasetId, "--schema", schema,
        "--dimension-columns", "item", "--partition-columns", "region", "--input", input.toString(),
        "--parallelism", "2", "--checkpoint-interval", "100ms"));
    args.addAll(List.of(more));
    return run("ingest", args.toArray(String[]::new));
  }

  private static String region(int item) {
    return "r" + item % 4;
  }

  @Test
  void seedAndEnrichmentIngestedWithFailuresThenEveryCellQueriedOnce() throws IOException {
    // Seed: every item with a price; enrichment: a stock count for every third item.
    Path seed = dir.resolve("seed.jsonl");
    Path stock = dir.resolve("stock.jsonl");
    List<String> seedLines = new ArrayList<>();
    List<String> stockLines = new ArrayList<>();
    for (int item = 0; item < CELLS; item++) {
      seedLines.add("{\"item\":" + item + ",\"region\":\"" + region(item) + "\",\"price\":" + item / 4.0 + "}");
      if (item % 3 == 0) {
        stockLines.add("{\"item\":" + item + ",\"region\":\"" + region(item) + "\",\"stock\":" + item * 2 + "}");
      }
    }
    Files.write(seed, seedLines);
    Files.write(stock, stockLines);

    KtkRun seeded = ingest("seed", "item BIGINT NOT NULL, region STRING NOT NULL, price DOUBLE", seed, "--seed",
        "--inject-failures-at", "3000,12000");
    assertThat(seeded.exitCode()).as(seeded.toString()).isZero();
    assertThat(seeded.out()).contains(CELLS + " records read, " + CELLS + " committed, 0 rejected");
    KtkRun enriched = ingest("stock", "item BIGINT NOT NULL, region STRING NOT NULL, stock BIGINT", stock,
        "--inject-failures-at", "2000");
    assertThat(enriched.exitCode()).as(enriched.toString()).isZero();

    KtkRun query = run("query", "--cube", "shop", "--columns", "region,item,price,stock", "--format", "jsonl");
    assertThat(query.exitCode()).as(query.toString()).isZero();
    Map<Long, Integer> seen = new HashMap<>();
    String previousRegion = "";
    for (String line : query.out().split("\n")) {
      JsonNode row = JSON.readTree(line);
      int item = row.get("item").asInt();
      seen.merge((long) item, 1, Integer::sum);
      assertThat(row.get("region").asText()).isEqualTo(region(item)).isGreaterThanOrEqualTo(previousRegion);
      previousRegion = row.get("region").asText();
      assertThat(row.get("price").asDouble()).as("price of %s", item).isEqualTo(item / 4.0);
      if (item % 3 == 0) {
        assertThat(row.get("stock").asLong()).as("stock of %s", item).isEqualTo(item * 2L);
      } else {
        assertThat(row.get("stock").isNull()).as("stock of %s", item).isTrue();
      }
    }
    assertThat(seen).hasSize(CELLS);
    assertThat(seen.values()).containsOnly(1);

    // A condition on the enrichment's payload restricts the seed (inner join): items with stock only.
    KtkRun restricted = run("query", "--cube", "shop", "--columns", "item", "--where", "stock >= 0");
    assertThat(restricted.exitCode()).as(restricted.toString()).isZero();
    assertThat(restricted.out().split("\r\n")).hasSize(1 + (CELLS + 2) / 3);
  }

  @Test
  void cubeOptionsAreCheckedBeforeAnythingRuns() {
    Path input = dir.resolve("none.jsonl");
    assertThat(run("ingest", "--cube", "shop", "--schema", "item BIGINT", "--dimension-columns", "item",
        "--partition-columns", "item").err()).contains("Option '--cube' needs '--dataset-id'");
    assertThat(run("ingest", "--dataset", "x", "--cube", "shop", "--dataset-id", "a", "--schema", "item BIGINT")
        .exitCode()).isEqualTo(Ktk.USAGE);
    assertThat(run("ingest", "--dataset", "x", "--seed", "--schema", "item BIGINT").err())
        .contains("need --cube");
    KtkRun missingDimension = run("ingest", "--cube", "shop", "--dataset-id", "seed", "--seed", "--schema",
        "item BIGINT, region STRING", "--dimension-columns", "item,color", "--partition-columns", "region",
        "--input", input.toString());
    assertThat(missingDimension.exitCode()).isEqualTo(Ktk.USAGE);
    assertThat(missingDimension.err()).contains("'color' is not a column of --schema");
    KtkRun indexOn = run("ingest", "--cube", "shop", "--dataset-id", "seed", "--schema", "item BIGINT, region STRING",
        "--dimension-columns", "item", "--partition-columns", "region", "--index-on", "item");
    assertThat(indexOn.err()).contains("are for a plain --dataset");
  }
}
