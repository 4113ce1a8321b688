package io.ktk.flink.cube;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.KartothekCubeSink;
import io.ktk.flink.sink.compaction.CompactionResult;
import io.ktk.flink.sink.compaction.CompactionSettings;
import io.ktk.flink.sink.compaction.Compactor;
import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.ForwardingObjectStore;
import io.ktk.flink.state.testing.S3Proxy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A cube written by a streaming cube sink job on s3proxy (checkpoints every 200 ms, every cell
 * of the seed and of the enrichment written ten times across checkpoints, the acknowledgements of
 * two commits lost) answers its queries the same before, during and after two compactors rewrite
 * every dataset of the cube at once: last-written-wins survives compaction, and a reader never
 * sees a rewrite half done.
 */
class CompactedCubeSinkTest {
  private static final RowType SEED = (RowType) DataTypes.ROW(
      DataTypes.FIELD("day", DataTypes.STRING()),
      DataTypes.FIELD("store", DataTypes.BIGINT()),
      DataTypes.FIELD("product", DataTypes.BIGINT()),
      DataTypes.FIELD("qty", DataTypes.BIGINT())).getLogicalType();
  private static final RowType WEATHER = (RowType) DataTypes.ROW(
      DataTypes.FIELD("day", DataTypes.STRING()),
      DataTypes.FIELD("store", DataTypes.BIGINT()),
      DataTypes.FIELD("temp", DataTypes.DOUBLE())).getLogicalType();
  /** Seed cells: 3 days x 20 stores x 10 products; weather cells: 3 days x 20 stores. */
  private static final int SEED_CELLS = 600;
  private static final int WEATHER_CELLS = 60;
  private static final int WRITES_PER_CELL = 10;
  private static final int CHECKPOINTS_OF_DATA = 40;
  private static final List<CubeQuery> QUERIES = List.of(
      CubeQuery.builder().columns("day", "store", "product", "qty", "temp").build(),
      CubeQuery.builder().where("qty >= 3000").columns("day", "store", "product", "qty").build(),
      CubeQuery.builder().where("store == 7").columns("day", "store", "product", "qty", "temp").build(),
      CubeQuery.builder().where("temp < 150.0").columns("day", "store", "product", "temp").build(),
      CubeQuery.builder().where("day == 'd1'").columns("day", "store", "product", "qty").build());

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberSlotsPerTaskManager(4).build());

  @RegisterExtension
  static final S3Proxy S3 = S3Proxy.inMemory();

  /**
   * The cell of the {@code i}-th of {@code count} writes to {@code cells} cells. The generator gives
   * each of the two source subtasks half of the ids, a few per checkpoint, and the sink refuses a
   * cell written twice in one checkpoint: so each half writes its own half of the cells, in turn.
   */
  private static long cell(long i, int count, int cells) {
    int half = cells / 2;
    return i < count / 2 ? i % half : half + i % half;
  }

  /** Seed row {@code i}: cell {@code day + 3 store + 60 product}, qty {@code i}. */
  private static RowData seedRow(long i) {
    long cell = cell(i, SEED_CELLS * WRITES_PER_CELL, SEED_CELLS);
    return GenericRowData.of(StringData.fromString("d" + cell % 3), cell / 3 % 20, cell / 60, i);
  }

  /** Weather row {@code j}: cell {@code day + 3 store}, temp {@code j / 2}. */
  private static RowData weatherRow(long j) {
    long cell = cell(j, WEATHER_CELLS * WRITES_PER_CELL, WEATHER_CELLS);
    return GenericRowData.of(StringData.fromString("d" + cell % 3), cell / 3, j * 0.5);
  }

  private static <T> DataGeneratorSource<RowData> generator(GeneratorFunction<Long, RowData> rows, int count,
      TypeInformation<RowData> type) {
    return new DataGeneratorSource<>(rows, count, RateLimiterStrategy.perCheckpoint(count / CHECKPOINTS_OF_DATA), type);
  }

  @Test
  void answersStayTheSameWhileAndAfterTwoCompactorsRewriteTheCube() throws Exception {
    LostAcknowledgement.CRASH_AT.addAll(Set.of(5, 11));
    ObjectStoreFactory s3 = new LostAcknowledgement(ObjectStoreFactory.of(S3.url("cube"), S3.options()));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(Map.of(
        "execution.runtime-mode", "STREAMING",
        "execution.checkpointing.interval", "200ms",
        "parallelism.default", "2",
        "restart-strategy.type", "fixed-delay",
        "restart-strategy.fixed-delay.attempts", "10",
        "restart-strategy.fixed-delay.delay", "100ms")));
    KartothekCubeSink.forCube("sales")
        .store(s3)
        .dimensionColumns("store", "product")
        .partitionColumns("day")
        .seed("seed", SEED)
        .enrichment("weather", WEATHER)
        .build()
        .addTo(Map.of(
            "seed", env.fromSource(generator(CompactedCubeSinkTest::seedRow, SEED_CELLS * WRITES_PER_CELL,
                InternalTypeInfo.of(SEED)), WatermarkStrategy.noWatermarks(), "seed"),
            "weather", env.fromSource(generator(CompactedCubeSinkTest::weatherRow, WEATHER_CELLS * WRITES_PER_CELL,
                InternalTypeInfo.of(WEATHER)), WatermarkStrategy.noWatermarks(), "weather")));
    env.execute("cube");
    assertThat(LostAcknowledgement.CRASHED).as("acknowledgements lost").hasSize(2);

    try (ObjectStore store = ObjectStoreFactory.of(S3.url("cube"), S3.options()).open()) {
      List<List<List<Object>>> before = answers(store);
      checkIsTheCube(before.get(0));
      int filesBefore = files(store);

      // Two compactors at once, each over every dataset of the cube, while a reader keeps asking.
      AtomicBoolean compacting = new AtomicBoolean(true);
      AtomicLong rowsRead = new AtomicLong();
      AtomicLong rowsWritten = new AtomicLong();
      AtomicInteger rewrites = new AtomicInteger();
      ExecutorService threads = Executors.newFixedThreadPool(3);
      try {
        List<Future<?>> compactors = new ArrayList<>();
        for (int c = 0; c < 2; c++) {
          compactors.add(threads.submit(() -> {
            compactCube(store, rowsRead, rowsWritten, rewrites);
            return null;
          }));
        }
        Future<Integer> reader = threads.submit(() -> {
          int asked = 0;
          do {
            assertThat(answer(store, QUERIES.get(0))).as("the answer while compacting").isEqualTo(before.get(0));
            asked++;
          } while (compacting.get());
          return asked;
        });
        for (Future<?> compactor : compactors) {
          compactor.get(5, TimeUnit.MINUTES);
        }
        compacting.set(false);
        System.out.println("answers read while compacting: " + reader.get(5, TimeUnit.MINUTES));
      } finally {
        threads.shutdownNow();
      }

      assertThat(rewrites.get()).as("rewrites committed").isPositive();
      assertThat(rowsWritten.get()).as("superseded rows dropped: rows written of %d read", rowsRead.get())
          .isLessThan(rowsRead.get());
      assertThat(files(store)).as("files after compaction, %d before", filesBefore).isLessThan(filesBefore);
      assertThat(answers(store)).isEqualTo(before);
    }
  }

  /** Compacts every dataset of the cube until nothing is left to compact. */
  private static void compactCube(ObjectStore store, AtomicLong rowsRead, AtomicLong rowsWritten,
      AtomicInteger rewrites) throws IOException {
    for (String dataset : List.of("sales++seed", "sales++weather")) {
      Compactor compactor = Compactor.of(store, dataset, CompactionSettings.defaults().withMinInputFiles(2));
      while (true) {
        var plan = compactor.plan();
        if (plan.isEmpty()) {
          break;
        }
        CompactionResult result = compactor.compact(plan);
        for (CompactionResult.PartitionResult partition : result.committed()) {
          rewrites.incrementAndGet();
          rowsRead.addAndGet(partition.rowsIn());
          rowsWritten.addAndGet(partition.rowsOut());
        }
      }
    }
  }

  /**
   * The first answer is the whole cube: each seed cell once, with the qty of one of its writes
   * and the temp of one of the writes of its store and day.
   */
  private static void checkIsTheCube(List<List<Object>> rows) {
    assertThat(rows).hasSize(SEED_CELLS);
    for (List<Object> row : rows) {
      long day = Long.parseLong(((String) row.get(0)).substring(1));
      long store = (Long) row.get(1);
      long product = (Long) row.get(2);
      assertThat(cell((Long) row.get(3), SEED_CELLS * WRITES_PER_CELL, SEED_CELLS)).as("qty of %s", row)
          .isEqualTo(product * 60 + store * 3 + day);
      assertThat(cell(Math.round((Double) row.get(4) * 2), WEATHER_CELLS * WRITES_PER_CELL, WEATHER_CELLS))
          .as("temp of %s", row).isEqualTo(store * 3 + day);
    }
  }

  private static List<List<List<Object>>> answers(ObjectStore store) throws IOException {
    List<List<List<Object>>> answers = new ArrayList<>();
    for (CubeQuery query : QUERIES) {
      answers.add(answer(store, query));
    }
    return answers;
  }

  private static List<List<Object>> answer(ObjectStore store, CubeQuery query) throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    new CubeReader(store, CubeSnapshot.latest(store, "sales").plan(query)).rows().forEachRemaining(rows::add);
    return rows;
  }

  private static int files(ObjectStore store) throws IOException {
    return DatasetSnapshot.latest(store, "sales++seed").fileCount()
        + DatasetSnapshot.latest(store, "sales++weather").fileCount();
  }

  /**
   * The stores of the job: the 5th and 11th log entry they create (of a dataset or of the cube log)
   * lands, then the committer crashes as if it died before learning of it.
   */
  private record LostAcknowledgement(ObjectStoreFactory delegate) implements ObjectStoreFactory {
    private static final long serialVersionUID = 1L;
    private static final Pattern LOG_ENTRY = Pattern.compile(".*/_ktk_log/\\d{20}\\.json");
    static final Set<Integer> CRASH_AT = ConcurrentHashMap.newKeySet();
    static final Set<String> CRASHED = ConcurrentHashMap.newKeySet();
    static final AtomicInteger CLAIMS = new AtomicInteger();

    @Override
    public ObjectStore open() throws IOException {
      return new ForwardingObjectStore(delegate.open()) {
        @Override
        public boolean putIfAbsent(String key, byte[] data) throws IOException {
          boolean created = delegate.putIfAbsent(key, data);
          if (created && LOG_ENTRY.matcher(key).matches() && CRASH_AT.contains(CLAIMS.incrementAndGet())) {
            CRASHED.add(key);
            throw new IllegalStateException("injected crash after creating " + key + ": its acknowledgement is lost");
          }
          return created;
        }
      };
    }
  }
}
