package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.store.ObjectStore;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bounded job of the cube sink restored at the points of its life where {@link
 * BoundedRestoreTest} restores the dataset sink: every row of every dataset committed once. The
 * seed gets {@link #STEP} rows per completed checkpoint until the first failure, then all that is
 * left; the enrichments are small and end early.
 */
class CubeRestoreTest {
  private static final int STEP = 2_000;
  private static final int SEED_ROWS = STEP * 3;
  private static final int WEATHER_ROWS = 500;
  private static final int PRICE_ROWS = 100;

  @RegisterExtension
  static final MiniClusterExtension FLINK = Jobs.miniCluster();

  @TempDir
  Path dir;

  @Test
  void restoredJobEndingBeforeItsFirstCheckpoint() throws Exception {
    String plan = "cube-before-first-checkpoint";
    Faults.planRecordFailures(plan, SEED_ROWS - STEP / 2);
    Faults.planCommitCrashes(plan, Map.of());
    run(plan);
    assertThat(Faults.recordFailures(plan)).isEqualTo(1);
  }

  @Test
  void restoredAtEndOfInput() throws Exception {
    String plan = "cube-end-of-input";
    Faults.planRecordFailures(plan, SEED_ROWS);
    Faults.planCommitCrashes(plan, Map.of());
    run(plan);
    assertThat(Faults.recordFailures(plan)).isEqualTo(1);
  }

  /** The committer crashes before and after claiming versions of the last commits of the datasets' logs. */
  @Test
  void restoredAroundTheFinalCommits() throws Exception {
    String plan = "cube-final-commits";
    Faults.planRecordFailures(plan);
    Faults.planCommitCrashes(plan, Map.of(1L, Faults.When.AFTER, 2L, Faults.When.BEFORE, 3L, Faults.When.AFTER));
    run(plan);
    assertThat(Faults.commitCrashes(plan)).isNotEmpty();
  }

  private void run(String plan) throws Exception {
    StreamExecutionEnvironment env = Jobs.restoring(1);
    DataStream<RowData> seedRows = env
        .fromSource(new DataGeneratorSource<>(CubeTestRows.seedGenerator(), SEED_ROWS,
            Faults.gatedUntilFailure(plan, STEP),
            CubeTestRows.SEED_INFO), WatermarkStrategy.noWatermarks(), "seed rows")
        .map(new Faults.FailingMap(plan), CubeTestRows.SEED_INFO);
    DataStream<RowData> weatherRows = env.fromSource(new DataGeneratorSource<>(CubeTestRows.weatherGenerator(),
        WEATHER_ROWS, CubeTestRows.WEATHER_INFO), WatermarkStrategy.noWatermarks(), "weather rows");
    DataStream<RowData> priceRows = env.fromSource(new DataGeneratorSource<>(CubeTestRows.pricesGenerator(),
        PRICE_ROWS, CubeTestRows.PRICES_INFO), WatermarkStrategy.noWatermarks(), "price rows");
    ObjectStoreFactory store = ObjectStoreFactory.of(dir.toUri().toString(), Map.of());
    CubeTestRows.sink(new Faults.CrashingStoreFactory(store, plan))
        .build()
        .addTo(Map.of("seed", seedRows, "weather", weatherRows, "prices", priceRows));
    env.execute("cube restore " + plan);

    try (ObjectStore opened = store.open()) {
      CubeTestRows.assertExactlyOnce(opened, "seed", "store", "qty", SEED_ROWS);
      CubeTestRows.assertExactlyOnce(opened, "weather", "store", "temp", WEATHER_ROWS);
      CubeTestRows.assertExactlyOnce(opened, "prices", "product", "price", PRICE_ROWS);
    }
  }
}
