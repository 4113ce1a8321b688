package io.ktk.flink.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ktk.flink.cli.KtkRun;
import io.ktk.flink.sink.KartothekCubeSink;
import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.CubeNames;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.LongStream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A CDC stream into an enrichment dataset of a cube ({@code changelog()}): at sampled commits the
 * cube query (seed joined with the enrichment, at the pinned versions) answers each seed cell with
 * the enrichment's row of the reference table, or null where the cell has none or was deleted, and
 * {@code ktk read} of the enrichment gives the reference table; the enrichment's published view
 * holds the table at the end. A changelog into the seed removes deleted cells from the cube.
 */
class CubeChangelogTest {
  private static final RowType SEED = (RowType) DataTypes.ROW(
      DataTypes.FIELD("item", DataTypes.BIGINT().notNull()),
      DataTypes.FIELD("region", DataTypes.STRING().notNull()),
      DataTypes.FIELD("name", DataTypes.STRING())).getLogicalType();
  private static final RowType STOCK = (RowType) DataTypes.ROW(
      DataTypes.FIELD("item", DataTypes.BIGINT().notNull()),
      DataTypes.FIELD("region", DataTypes.STRING().notNull()),
      DataTypes.FIELD("qty", DataTypes.BIGINT()),
      DataTypes.FIELD("seq", DataTypes.BIGINT())).getLogicalType();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int ITEMS = 2_000;
  private static final int CHANGES = 30_000;
  private static final Map<String, List<GenericRowData>> CHANGELOGS = new ConcurrentHashMap<>();
  private static final Map<String, Map<Long, Long>> PREFIXES = new ConcurrentHashMap<>();

  @TempDir Path dir;

  private static String region(long item) {
    return "r" + item % 4;
  }

  /** Changes of the stock of items: inserts, -U/+U updates, deletes and re-inserts, bursts on a few items. */
  private static List<GenericRowData> changelog(long seed) {
    Random random = new Random(seed);
    Map<Long, Long> live = new LinkedHashMap<>();
    List<GenericRowData> changes = new ArrayList<>();
    while (changes.size() < CHANGES) {
      long item = random.nextInt(8) == 0 ? random.nextInt(10) : random.nextInt(ITEMS + 200); // some not in the seed
      Long old = live.get(item);
      long seq = changes.size();
      if (old == null) {
        long qty = random.nextInt(100);
        changes.add(change(RowKind.INSERT, item, qty, seq));
        live.put(item, qty);
      } else if (random.nextInt(4) == 0) {
        changes.add(change(RowKind.DELETE, item, old, seq));
        live.remove(item);
      } else {
        long qty = random.nextInt(100);
        changes.add(change(RowKind.UPDATE_BEFORE, item, old, seq));
        changes.add(change(RowKind.UPDATE_AFTER, item, qty, seq + 1));
        live.put(item, qty);
      }
    }
    return changes.subList(0, CHANGES);
  }

  private static GenericRowData change(RowKind kind, long item, long qty, long seq) {
    return GenericRowData.ofKind(kind, item, StringData.fromString(region(item)), qty, seq);
  }

  /** The stock after the first {@code n} changes, by item. */
  private static Map<Long, Long> stock(List<GenericRowData> changes, long n) {
    Map<Long, Long> table = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      GenericRowData change = changes.get(i);
      switch (change.getRowKind()) {
        case INSERT, UPDATE_AFTER -> table.put(change.getLong(0), change.getLong(2));
        case DELETE -> table.remove(change.getLong(0));
        case UPDATE_BEFORE -> { }
      }
    }
    return table;
  }

  @Test
  void cubeQueriesAnswerWithTheEnrichmentsStateAtEachCommit() throws Exception {
    String url = dir.toUri().toString();
    StreamExecutionEnvironment batch = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(Map.of(
        "execution.runtime-mode", "BATCH", "parallelism.default", "2")));
    KartothekCubeSink.forCube("shop").store(url).dimensionColumns("item").partitionColumns("region")
        .seed("seed", SEED).build()
        .addTo("seed", batch.fromData(LongStream.range(0, ITEMS).boxed().toList())
            .map(i -> (RowData) GenericRowData.of(i, StringData.fromString(region(i)), StringData.fromString("n" + i)),
                InternalTypeInfo.of(SEED)));
    batch.execute("seed");

    String name = "stock-" + System.nanoTime();
    List<GenericRowData> changes = changelog(42);
    CHANGELOGS.put(name, changes);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(Map.of(
        "execution.runtime-mode", "STREAMING", "parallelism.default", "2",
        "execution.checkpointing.interval", "200ms")));
    GeneratorFunction<Long, RowData> records = new Records(name);
    DataStream<RowData> stock = env.fromSource(new DataGeneratorSource<>(records, CHANGES,
            RateLimiterStrategy.perCheckpoint(CHANGES / 20), InternalTypeInfo.of(STOCK)),
            WatermarkStrategy.noWatermarks(), "stock changes").setParallelism(1)
        .map(new Prefixes(name), InternalTypeInfo.of(STOCK)).setParallelism(1);
    KartothekCubeSink.forCube("shop").store(url).dimensionColumns("item").partitionColumns("region")
        .seedDatasetId("seed").enrichment("stock", STOCK).changelog().build()
        .addTo("stock", stock);
    env.execute("stock changes");

    String uuid = CubeNames.datasetUuid("shop", "stock");
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetState latest = new LogReader(store, uuid).latest();
      assertThat(PrimaryKey.of(uuid, latest.metadata())).contains(List.of("item", "region"));
      long seedVersion = new LogReader(store, CubeNames.datasetUuid("shop", "seed")).latest().version();
      int checked = 0;
      for (long v = 0; v <= latest.version(); v++) {
        Long prefix = new LogReader(store, uuid).at(v).checkpoints().values().stream().max(Long::compare)
            .map(c -> PREFIXES.get(name).get(c)).orElse(null);
        if (prefix == null) {
          continue; // the fold's rewrites before publications carry no checkpoint of their own
        }
        Map<Long, Long> reference = stock(changes, prefix);
        assertThat(answer(store, seedVersion, v)).as("the cube at stock version " + v + " (" + prefix + " changes)")
            .isEqualTo(expected(reference));
        assertThat(ktkRead(url, uuid, v)).as("ktk read of the enrichment at version " + v + " (" + prefix + " changes)")
            .isEqualTo(reference);
        checked++;
      }
      assertThat(checked).as("versions checked").isGreaterThan(5);
      Map<Long, Long> last = stock(changes, CHANGES);
      List<List<Object>> rows = new ArrayList<>();
      last.forEach((item, qty) -> rows.add(Arrays.asList(item, region(item), qty)));
      PublishedTable.assertRows(dir, uuid, List.of("item", "region", "qty"), List.of("item", "region"), rows,
          dir.resolve("work"));
    }
  }

  /**
   * A changelog into the seed: a deleted cell leaves the cube (the seed decides which cells exist),
   * a re-inserted one comes back with its new row; {@code ktk read} of the seed agrees.
   */
  @Test
  void aCellDeletedFromTheSeedLeavesTheCube() throws Exception {
    String url = dir.toUri().toString();
    List<RowData> inserts = new ArrayList<>();
    for (long i = 0; i < 300; i++) {
      inserts.add(GenericRowData.of(i, StringData.fromString(region(i)), StringData.fromString("n" + i)));
    }
    List<RowData> changes = new ArrayList<>();
    List<List<Object>> expected = new ArrayList<>();
    for (long i = 0; i < 300; i += 3) {
      changes.add(GenericRowData.ofKind(RowKind.DELETE, i, StringData.fromString(region(i)), null));
    }
    for (long i = 0; i < 300; i += 9) {
      changes.add(GenericRowData.of(i, StringData.fromString(region(i)), StringData.fromString("again" + i)));
    }
    for (long i = 0; i < 300; i++) {
      if (i % 9 == 0) {
        expected.add(Arrays.asList(i, region(i), "again" + i));
      } else if (i % 3 != 0) {
        expected.add(Arrays.asList(i, region(i), "n" + i));
      }
    }
    for (List<RowData> job : List.of(inserts, changes)) { // the deletes in a version after the inserts
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(
          Map.of("execution.runtime-mode", "STREAMING", "parallelism.default", "2")));
      KartothekCubeSink.forCube("shop").store(url).dimensionColumns("item").partitionColumns("region")
          .seed("seed", SEED).changelog().build()
          .addTo("seed", env.fromData(job, InternalTypeInfo.of(SEED)).setParallelism(1));
      env.execute("seed changes");
    }

    String seed = CubeNames.datasetUuid("shop", "seed");
    long changed; // the second job's version, before the publication folded it: merged on read
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      LogReader log = new LogReader(store, seed);
      changed = log.latest().version();
      while (log.at(changed).lastRewriteVersion() == changed) {
        changed--;
      }
      assertThat(log.at(changed).files().values()).as("files of version " + changed)
          .anyMatch(file -> file.physicalSchema().getFields().stream()
              .anyMatch(field -> field.getName().equals(PrimaryKey.DELETED_COLUMN)));
      List<List<Object>> rows = new ArrayList<>();
      CubeSnapshot cube = CubeSnapshot.at(store, "shop", Map.of("seed", changed));
      new CubeReader(store, cube.plan(CubeQuery.builder().columns("item", "region", "name").build()))
          .rows().forEachRemaining(rows::add);
      rows.sort(Comparator.comparingLong(row -> (Long) row.get(0)));
      assertThat(rows).as("the cube's cells at seed version " + changed).isEqualTo(expected);
    }
    KtkRun run = KtkRun.ktk("read", "--store", url, "--dataset", seed, "--version", Long.toString(changed),
        "--columns", "item,region,name", "--format", "jsonl");
    assertThat(run.exitCode()).as(run.toString()).isZero();
    List<List<Object>> read = new ArrayList<>();
    for (String line : run.out().lines().toList()) {
      JsonNode row = JSON.readTree(line);
      read.add(Arrays.asList(row.get("item").asLong(), row.get("region").asText(), row.get("name").asText()));
    }
    assertThat(read).as("ktk read of the seed").containsExactlyInAnyOrderElementsOf(expected);
  }

  private static List<List<Object>> answer(LocalObjectStore store, long seedVersion, long stockVersion)
      throws Exception {
    CubeSnapshot cube = CubeSnapshot.at(store, "shop", Map.of("seed", seedVersion, "stock", stockVersion));
    List<List<Object>> rows = new ArrayList<>();
    new CubeReader(store, cube.plan(CubeQuery.builder().columns("item", "region", "name", "qty").build()))
        .rows().forEachRemaining(rows::add);
    rows.sort(Comparator.comparingLong(row -> (Long) row.get(0)));
    return rows;
  }

  /**
   * {@code ktk read --version} of the enrichment dataset on its own (a dataset with a primary key):
   * per item its quantity; an item twice, or in a region not its own, fails.
   */
  private static Map<Long, Long> ktkRead(String url, String uuid, long version) throws Exception {
    KtkRun run = KtkRun.ktk("read", "--store", url, "--dataset", uuid, "--version", Long.toString(version),
        "--columns", "item,region,qty", "--format", "jsonl");
    assertThat(run.exitCode()).as(run.toString()).isZero();
    Map<Long, Long> table = new LinkedHashMap<>();
    for (String line : run.out().lines().toList()) {
      JsonNode row = JSON.readTree(line);
      long item = row.get("item").asLong();
      assertThat(row.get("region").asText()).as("the region of item " + item).isEqualTo(region(item));
      assertThat(table).as("items read before item " + item + " at version " + version).doesNotContainKey(item);
      table.put(item, row.get("qty").isNull() ? null : row.get("qty").asLong());
    }
    return table;
  }

  /** Each seed cell with its stock, null where the enrichment has no row of it. */
  private static List<List<Object>> expected(Map<Long, Long> stock) {
    List<List<Object>> rows = new ArrayList<>();
    for (long item = 0; item < ITEMS; item++) {
      rows.add(Arrays.asList(item, region(item), "n" + item, stock.get(item)));
    }
    return rows;
  }

  /** Emits change {@code i} of a registered changelog. */
  private static final class Records implements GeneratorFunction<Long, RowData> {
    private static final long serialVersionUID = 1L;
    private final String name;

    Records(String name) {
      this.name = name;
    }

    @Override
    public RowData map(Long index) {
      GenericRowData change = CHANGELOGS.get(name).get(Math.toIntExact(index));
      return GenericRowData.ofKind(change.getRowKind(), change.getField(0), change.getField(1), change.getField(2),
          change.getField(3));
    }
  }

  /** Notes, at each checkpoint, how many changes came before its barrier (parallelism 1). */
  private static final class Prefixes extends RichMapFunction<RowData, RowData> implements CheckpointedFunction {
    private static final long serialVersionUID = 1L;
    private final String name;
    private long next;
    private transient ListState<Long> state;

    Prefixes(String name) {
      this.name = name;
    }

    @Override
    public RowData map(RowData row) {
      next = row.getLong(3) + 1;
      return row;
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
      PREFIXES.computeIfAbsent(name, n -> new ConcurrentHashMap<>()).put(context.getCheckpointId(), next);
      state.update(List.of(next));
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
      state = context.getOperatorStateStore().getListState(new ListStateDescriptor<>("next", Long.class));
      for (Long restored : state.get()) {
        next = restored;
      }
    }
  }
}
