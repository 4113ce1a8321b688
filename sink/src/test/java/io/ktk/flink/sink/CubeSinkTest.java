package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.sink.config.ValidationPolicy;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.CubeCommitLog;
import io.ktk.flink.state.commit.CubeVersions;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.PyChecks;
import io.ktk.flink.state.testing.S3Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cube sink in jobs: a seed and two enrichments written together, exactly once despite
 * failures, with the metadata and indices Kartothek expects, readable by pyarrow; duplicate
 * cells refused across subtasks; a sink that clashes with the cube in the store fails at start.
 */
class CubeSinkTest {
  private static final int SEED_ROWS = 20_000;
  private static final int WEATHER_ROWS = 2_000;
  private static final int PRICE_ROWS = 250;
  private static final Map<String, ConcurrentLinkedQueue<RejectedRecord>> REJECTED = new ConcurrentHashMap<>();

  @RegisterExtension
  static final MiniClusterExtension FLINK = Jobs.miniCluster();

  @RegisterExtension
  static final S3Proxy S3 = S3Proxy.inMemory();

  @TempDir
  Path dir;

  @Test
  void seedAndTwoEnrichmentsExactlyOnceDespiteFailuresOnALocalDirectory() throws Exception {
    ObjectStoreFactory store = ObjectStoreFactory.of(dir.toUri().toString(), Map.of());
    runWithFailures("cube-local", store);
    assertReadableByPyarrow("local", dir.toString());
  }

  @Test
  void seedAndTwoEnrichmentsExactlyOnceDespiteFailuresOnS3() throws Exception {
    ObjectStoreFactory store = ObjectStoreFactory.of(S3.url("cube"), S3.options());
    runWithFailures("cube-s3", store);
    assertReadableByPyarrow("s3", S3Proxy.BUCKET + "/cube", S3Proxy.ACCESS_KEY, S3Proxy.SECRET_KEY,
        S3.endpoint().toString());
  }

  private void runWithFailures(String name, ObjectStoreFactory store) throws Exception {
    long seed = Long.getLong("ktk.seed", System.nanoTime());
    int[] failurePoints = new Random(seed).ints(3, 200, SEED_ROWS / 20).toArray();
    String plan = name + "-" + seed;
    Faults.planRecordFailures(plan, failurePoints);
    // Version 2 of whichever log reaches it first, and so on: crashes inside cube transactions.
    Faults.planCommitCrashes(plan, Map.of(2L, Faults.When.AFTER, 4L, Faults.When.BEFORE, 6L, Faults.When.AFTER));
    String context = "seed " + seed + ", failures after " + Arrays.toString(failurePoints) + " records";

    StreamExecutionEnvironment env = Jobs.env(Map.of(
        "execution.runtime-mode", "STREAMING",
        "execution.checkpointing.interval", "200ms",
        "parallelism.default", "2",
        "restart-strategy.type", "fixed-delay",
        "restart-strategy.fixed-delay.attempts", "30",
        "restart-strategy.fixed-delay.delay", "100ms"));
    DataStream<RowData> seedRows = env
        .fromSource(new DataGeneratorSource<>(CubeTestRows.seedGenerator(), SEED_ROWS,
                RateLimiterStrategy.perCheckpoint(SEED_ROWS / 10), CubeTestRows.SEED_INFO),
            WatermarkStrategy.noWatermarks(), "seed rows")
        .map(new Faults.FailingMap(plan), CubeTestRows.SEED_INFO);
    DataStream<RowData> weatherRows = env.fromSource(new DataGeneratorSource<>(CubeTestRows.weatherGenerator(),
            WEATHER_ROWS, RateLimiterStrategy.perCheckpoint(WEATHER_ROWS / 8), CubeTestRows.WEATHER_INFO),
        WatermarkStrategy.noWatermarks(), "weather rows");
    DataStream<RowData> priceRows = env.fromSource(new DataGeneratorSource<>(CubeTestRows.pricesGenerator(),
            PRICE_ROWS, RateLimiterStrategy.perCheckpoint(PRICE_ROWS / 5), CubeTestRows.PRICES_INFO),
        WatermarkStrategy.noWatermarks(), "price rows");
    CubeTestRows.sink(new Faults.CrashingStoreFactory(store, plan))
        .build()
        .addTo(Map.of("seed", seedRows, "weather", weatherRows, "prices", priceRows));
    env.execute("cube exactly once " + name);

    assertThat(Faults.recordFailures(plan)).as("record failures, " + context).isEqualTo(3);
    assertThat(Faults.commitCrashes(plan)).as("commit crashes, " + context).containsExactlyInAnyOrder(2L, 4L, 6L);
    try (ObjectStore opened = store.open()) {
      CubeTestRows.assertExactlyOnce(opened, "seed", "store", "qty", SEED_ROWS);
      CubeTestRows.assertExactlyOnce(opened, "weather", "store", "temp", WEATHER_ROWS);
      CubeTestRows.assertExactlyOnce(opened, "prices", "product", "price", PRICE_ROWS);

      DatasetState seedState = new LogReader(opened, "sales++seed").latest();
      assertThat(seedState.metadata()).containsKeys("ktk_cube_dimension_columns", "ktk_cube_partition_columns",
          "ktk_cube_is_seed", "ktk_cube_suppress_index_on");
      assertThat(seedState.metadata().get("ktk_cube_is_seed").booleanValue()).isTrue();
      assertThat(texts(seedState.metadata().get("ktk_cube_dimension_columns"))).containsExactly("store", "product");
      assertThat(texts(seedState.metadata().get("ktk_cube_partition_columns"))).containsExactly("day");
      assertThat(seedState.indexColumns()).containsExactlyInAnyOrder("store", "product");
      assertThat(seedState.index("store")).hasSize(SEED_ROWS / 50);
      assertThat(seedState.index("product")).hasSize(50);
      DatasetState weather = new LogReader(opened, "sales++weather").latest();
      assertThat(weather.metadata().get("ktk_cube_is_seed").booleanValue()).isFalse();
      assertThat(weather.indexColumns()).isEmpty();

      // The job is over: every transaction is recorded, so a cube reader sees the latest versions.
      Map<String, Long> latest = new java.util.TreeMap<>();
      Map<String, Long> pinned = new java.util.TreeMap<>();
      for (String id : List.of("seed", "weather", "prices")) {
        latest.put(id, new LogReader(opened, "sales++" + id).latest().version());
      }
      CubeVersions.latest(opened, "sales", latest.keySet()).forEach((id, state) -> pinned.put(id, state.version()));
      assertThat(pinned).as(context).isEqualTo(latest);
      assertThat(CubeCommitLog.of(opened, "sales").latest()).get()
          .satisfies(record -> assertThat(record.datasets()).isEqualTo(latest));
    }
  }

  private static List<String> texts(JsonNode array) {
    List<String> texts = new ArrayList<>();
    array.forEach(node -> texts.add(node.textValue()));
    return texts;
  }

  /**
   * pyarrow reads each dataset as plateau does (metadata JSON, then files): the cube keys, the
   * row counts, the seed's dimension indices against the files, and no dataset at {@code _ktk_cube}.
   */
  private static void assertReadableByPyarrow(String kind, String base, String... s3) {
    String script = """
        import json, sys
        import pyarrow.parquet as pq, pyarrow.fs as pafs
        kind, base = sys.argv[1], sys.argv[2]
        if kind == "local":
            fs = pafs.LocalFileSystem()
        else:
            fs = pafs.S3FileSystem(access_key=sys.argv[3], secret_key=sys.argv[4], endpoint_override=sys.argv[5],
                                   scheme="http", region="us-east-1")
        def read_json(key):
            with fs.open_input_stream(base + "/" + key) as f:
                return json.loads(f.read())
        names = [i.base_name for i in fs.get_file_info(pafs.FileSelector(base)) if i.base_name.startswith("sales++")]
        metas = sorted(n for n in names if n.endswith(".by-dataset-metadata.json"))
        check("datasets", lambda: (metas == ["sales++prices.by-dataset-metadata.json",
            "sales++seed.by-dataset-metadata.json", "sales++weather.by-dataset-metadata.json"], metas))
        counts, keys, stores = {}, {}, {}
        for uuid in ["sales++seed", "sales++weather", "sales++prices"]:
            meta = read_json(uuid + ".by-dataset-metadata.json")
            keys[uuid] = {k: v for k, v in meta["metadata"].items() if k.startswith("ktk_cube_")}
            n = 0
            for label, part in meta["partitions"].items():
                table = pq.read_table(base + "/" + part["files"]["table"], filesystem=fs)
                n += table.num_rows
                if uuid == "sales++seed":
                    for s in set(table.column("store").to_pylist()):
                        stores.setdefault(s, set()).add(label)
            counts[uuid] = n
            if uuid == "sales++seed":
                index = pq.read_table(base + "/" + meta["indices"]["store"], filesystem=fs).to_pylist()
                found = {r["store"]: set(r["partition"]) for r in index}
                check("index", lambda: (found == stores, "the store index differs from the files"))
        check("counts", lambda: (counts == {"sales++seed": 20000, "sales++weather": 2000, "sales++prices": 250},
            counts))
        expected = {"ktk_cube_dimension_columns": ["store", "product"], "ktk_cube_partition_columns": ["day"],
                    "ktk_cube_suppress_index_on": []}
        check("keys", lambda: (all({k: v for k, v in keys[u].items() if k != "ktk_cube_is_seed"} == expected
            and keys[u]["ktk_cube_is_seed"] == (u == "sales++seed") for u in keys), keys))
        """;
    List<String> args = new ArrayList<>(List.of(kind, base));
    args.addAll(List.of(s3));
    PyChecks checks = PyChecks.run(script, args.toArray(String[]::new));
    for (String check : List.of("datasets", "index", "counts", "keys")) {
      checks.assertOk(check);
    }
  }

  @Test
  void duplicateCellsFromTwoSubtasksGoToTheDeadLetterStreamWithDatasetColumnsAndValues() throws Exception {
    StreamExecutionEnvironment env = Jobs.batch(2);
    // Rows 0..999 of the seed, and rows 100..199 once more, spread over two subtasks by rebalance.
    List<Long> ids = new ArrayList<>();
    for (long i = 0; i < 1000; i++) {
      ids.add(i);
    }
    for (long i = 100; i < 200; i++) {
      ids.add(i);
    }
    DataStream<RowData> seedRows = env.fromData(ids).rebalance()
        .map(CubeTestRows::seed, CubeTestRows.SEED_INFO);
    REJECTED.put("duplicates", new ConcurrentLinkedQueue<>());
    KartothekCubeSink.forCube("sales")
        .store(dir.toUri().toString())
        .dimensionColumns("store", "product")
        .partitionColumns("day")
        .seed("seed", CubeTestRows.SEED)
        .validationPolicy(ValidationPolicy.DEAD_LETTER)
        .build()
        .addTo("seed", seedRows)
        .map(rejected -> {
          REJECTED.get("duplicates").add(rejected);
          return rejected;
        })
        .sinkTo(new DiscardingSink<>());
    env.execute("duplicate cells");

    List<RejectedRecord> rejected = new ArrayList<>(REJECTED.get("duplicates"));
    assertThat(rejected).hasSize(100);
    Set<Long> rejectedIds = new TreeSet<>();
    for (RejectedRecord record : rejected) {
      long qty = Long.parseLong(record.record().replaceAll(".*qty=(\\d+).*", "$1"));
      rejectedIds.add(qty);
      assertThat(record.reason()).isEqualTo("Cannot write to dataset 'sales++seed' of cube 'sales': duplicate cell "
          + "(day=" + CubeTestRows.day(qty) + ", store=" + qty / 50 + ", product=" + qty % 50 + ") in one commit "
          + "(rule: the cell columns [day, store, product] identify a row within a dataset)");
    }
    assertThat(rejectedIds).hasSize(100).allMatch(id -> id >= 100 && id < 200);
    try (ObjectStore store = ObjectStoreFactory.of(dir.toUri().toString(), Map.of()).open()) {
      CubeTestRows.assertExactlyOnce(store, "seed", "store", "qty", 1000);
    }
  }

  @Test
  void duplicateCellsFailTheJobWithTheFailPolicy() {
    StreamExecutionEnvironment env = Jobs.batch(2);
    DataStream<RowData> seedRows = env.fromData(List.of(1L, 2L, 3L, 2L)).rebalance()
        .map(CubeTestRows::seed, CubeTestRows.SEED_INFO);
    KartothekCubeSink.forCube("sales")
        .store(dir.toUri().toString())
        .dimensionColumns("store", "product")
        .partitionColumns("day")
        .seed("seed", CubeTestRows.SEED)
        .build()
        .addTo("seed", seedRows);
    assertThatThrownBy(() -> env.execute("fails"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, KtkValidationException.class))
            .get()
            .extracting(Throwable::getMessage)
            .asString()
            .startsWith("Cannot write to dataset 'sales++seed' of cube 'sales': duplicate cell (day=d2, store=0, "
                + "product=2) in one commit")
            .contains("(record +I{day=d2, store=0, product=2, qty=2})"));
  }

  @Test
  void aSinkThatClashesWithTheCubeInTheStoreFailsAtStart() throws Exception {
    // Built before the cube exists, so only the start of the job can tell.
    KartothekCubeSinkBuilder clashing = KartothekCubeSink.forCube("sales")
        .store(dir.toUri().toString())
        .dimensionColumns("store")
        .partitionColumns("day")
        .enrichment("weather", CubeTestRows.WEATHER);
    KartothekCubeSink builtBefore = clashing.build();
    StreamExecutionEnvironment first = Jobs.batch(1);
    CubeTestRows.sink(ObjectStoreFactory.of(dir.toUri().toString(), Map.of())).build().addTo(Map.of(
        "seed", first.fromData(List.of(1L, 2L)).map(CubeTestRows::seed, CubeTestRows.SEED_INFO),
        "weather", first.fromData(List.of(1L)).map(CubeTestRows::weather, CubeTestRows.WEATHER_INFO),
        "prices", first.fromData(List.of(1L)).map(CubeTestRows::prices, CubeTestRows.PRICES_INFO)));
    first.execute("creates the cube");

    String clash = "Cannot write cube 'sales': dataset prices records ktk_cube_dimension_columns [store, product]"
        + " but the sink declares [store] (rule: all datasets record the same cube)";
    // Built now, the builder reads the cube and refuses at once.
    assertThatThrownBy(clashing::build).isInstanceOf(KtkValidationException.class).hasMessage(clash);

    StreamExecutionEnvironment second = Jobs.batch(1);
    builtBefore.addTo("weather", second.fromData(List.of(2L)).map(CubeTestRows::weather, CubeTestRows.WEATHER_INFO));
    assertThatThrownBy(() -> second.execute("clashes"))
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, KtkValidationException.class))
            .get()
            .extracting(Throwable::getMessage)
            .asString()
            .isEqualTo(clash));
  }
}
