package io.ktk.flink.source;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.source.testing.FlinkRows;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A continuous source serves the cube, then what later commits add to the seed, exactly once
 * across a failure and restore from a checkpoint (the collect sink returns only checkpointed rows).
 */
class ContinuousSourceTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

  private static final Field DAY = field("day", new ArrowType.Date(DateUnit.DAY));
  private static final Field ITEM = field("item", new ArrowType.Int(64, true));
  private static final Field PRICE = field("price", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  private static final Field STOCK = field("stock", new ArrowType.Int(64, true));
  private static final LocalDate DAY1 = LocalDate.of(2024, 1, 1);
  private static final LocalDate DAY2 = LocalDate.of(2024, 1, 2);
  private static final LocalDate DAY3 = LocalDate.of(2024, 1, 3);
  private static final LocalDate DAY9 = LocalDate.of(2024, 1, 9);
  /** Set once the map after the source has failed, so that it fails once per test run. */
  static final AtomicBoolean FAILED = new AtomicBoolean();

  @TempDir Path dir;

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }

  private static List<List<Object>> items(LocalDate day, long from, long to, double priceOffset) {
    List<List<Object>> rows = new ArrayList<>();
    for (long item = from; item < to; item++) {
      rows.add(row(day, item, item + priceOffset));
    }
    return rows;
  }

  @Test
  @Timeout(240)
  void laterCommitsAreServedOnceAcrossAFailureAndRestore() throws Exception {
    FAILED.set(false);
    ObjectStore store = new LocalObjectStore(dir);
    CubeFixture cube = new CubeFixture(store, new CubeSpec("feed", List.of("item"), List.of("day"), "seed",
        new TreeSet<>()));
    CubeFixture.DatasetWriter seed = cube.dataset("seed", new Schema(List.of(DAY, ITEM, PRICE)), "item");
    CubeFixture.DatasetWriter stock = cube.dataset("stock", new Schema(List.of(DAY, ITEM, STOCK)));
    seed.commit(items(DAY1, 0, 20, 0.5));
    List<List<Object>> stockDay1 = new ArrayList<>();
    for (long item = 0; item < 20; item++) {
      stockDay1.add(row(DAY1, item, item * 10));
    }
    stock.commit(stockDay1);

    KartothekSource source = KartothekSource.builder(dir.toUri().toString(), "feed")
        .query(CubeQuery.builder().columns("day", "item", "price", "stock").build())
        .continuous(true).discoveryInterval(Duration.ofMillis(50)).maxPartitionsPerSplit(1).build();
    assertThat(source.getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);

    Configuration config = new Configuration();
    config.setString("restart-strategy.type", "fixed-delay");
    config.setString("restart-strategy.fixed-delay.attempts", "5");
    config.setString("restart-strategy.fixed-delay.delay", "50 ms");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
    env.configure(config);
    env.setParallelism(2);
    env.enableCheckpointing(100);

    List<List<Object>> expected = new ArrayList<>();
    List<List<Object>> actual = new ArrayList<>();
    try (CloseableIterator<Row> it = env.fromSource(source, WatermarkStrategy.noWatermarks(), "feed")
        .map(r -> {
          // fail once, in the middle of the second commit's rows
          if (DAY2.equals(r.getField(0)) && Long.valueOf(10).equals(r.getField(1)) && FAILED.compareAndSet(false, true)) {
            throw new IllegalStateException("injected failure");
          }
          return r;
        }).returns(source.getProducedType())
        .executeAndCollect()) {
      // 1. the versions pinned when the source was built
      for (List<Object> r : items(DAY1, 0, 20, 0.5)) {
        expected.add(row(r.get(0), r.get(1), r.get(2), (Long) r.get(1) * 10));
      }
      actual.addAll(FlinkRows.take(it, 20));

      // 2. the enrichment's next version, then a seed commit with a new partition and a new file in a
      //    served partition: both joined with the enrichment as discovered
      List<List<Object>> stockDay2 = new ArrayList<>();
      for (long item = 0; item < 20; item++) {
        stockDay2.add(row(DAY2, item, item * 10 + 1));
      }
      stock.commit(stockDay2);
      List<List<Object>> commit1 = new ArrayList<>(items(DAY2, 0, 20, 0.25));
      commit1.addAll(items(DAY1, 20, 25, 0.5));
      seed.commit(commit1);
      for (List<Object> r : commit1) {
        long item = (Long) r.get(1);
        expected.add(row(r.get(0), item, r.get(2), DAY2.equals(r.get(0)) ? item * 10 + 1 : null));
      }
      actual.addAll(FlinkRows.take(it, 25));

      // 3. an enrichment for rows already served is not served again; a cell written again is, with
      //    its new row (the last written wins)
      stock.commit(List.of(row(DAY1, 20L, 200L), row(DAY1, 21L, 210L)));
      List<List<Object>> commit2 = new ArrayList<>(items(DAY3, 0, 10, 0.75));
      commit2.add(row(DAY1, 3L, 999.0));
      seed.commit(commit2);
      for (List<Object> r : commit2) {
        long item = (Long) r.get(1);
        expected.add(row(r.get(0), item, r.get(2), DAY1.equals(r.get(0)) ? 30L : null));
      }
      actual.addAll(FlinkRows.take(it, 11));

      // 4. a last commit: nothing else arrived before its row
      seed.commit(List.of(row(DAY9, 0L, 9.0)));
      expected.add(row(DAY9, 0L, 9.0, null));
      actual.addAll(FlinkRows.take(it, 1));
    }
    assertThat(FAILED).as("the injected failure happened").isTrue();
    assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
  }

  /**
   * A compaction that merges a served file with files not served yet must not serve the served rows
   * again: the source is pinned at the first commit, and before it discovers anything, a second
   * commit lands and a compaction merges both; a third commit and a last one follow.
   */
  @Test
  @Timeout(240)
  void aCompactionOfServedAndUnservedFilesServesEachRowOnce() throws Exception {
    ObjectStore store = new LocalObjectStore(dir);
    CubeFixture cube = new CubeFixture(store, new CubeSpec("feed", List.of("item"), List.of("day"), "seed",
        new TreeSet<>()));
    CubeFixture.DatasetWriter seed = cube.dataset("seed", new Schema(List.of(DAY, ITEM, PRICE)), "item");
    seed.commit(items(DAY1, 0, 10, 0.5));
    seed.commit(items(DAY1, 10, 20, 0.5));
    List<List<Object>> bothCommits = items(DAY1, 0, 20, 0.5);
    seed.rewrite(cube.written(), "merged", bothCommits);
    seed.commit(items(DAY2, 0, 5, 0.25));
    seed.commit(List.of(row(DAY9, 0L, 9.0)));

    KartothekSource source = KartothekSource.builder(dir.toUri().toString(), "feed")
        .query(CubeQuery.builder().columns("day", "item", "price").build())
        .versions(java.util.Map.of("seed", 0L))
        .continuous(true).discoveryInterval(Duration.ofMillis(50)).build();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);

    List<List<Object>> expected = new ArrayList<>(bothCommits);
    expected.addAll(items(DAY2, 0, 5, 0.25));
    expected.add(row(DAY9, 0L, 9.0));
    List<List<Object>> actual = new ArrayList<>();
    try (CloseableIterator<Row> it = env.fromSource(source, WatermarkStrategy.noWatermarks(), "feed")
        .executeAndCollect()) {
      // one reader reads the splits in output order: the last commit's partition comes last
      while (actual.isEmpty() || !DAY9.equals(actual.get(actual.size() - 1).get(0))) {
        actual.addAll(FlinkRows.take(it, 1));
      }
    }
    assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
  }
}
