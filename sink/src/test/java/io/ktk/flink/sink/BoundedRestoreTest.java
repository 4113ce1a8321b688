package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.store.LocalObjectStore;
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
 * A bounded job restored at every point of its life commits every record once. The source emits
 * {@link #STEP} records per completed checkpoint ({@link #STEPS} steps), so where a failure strikes
 * decides which checkpoint the job restores and what the restored job still has to do: the final
 * batch, emitted at end of input, must never be taken for a replay of a committed checkpoint.
 */
class BoundedRestoreTest {
  private static final int STEP = 2_000;
  private static final int STEPS = 3;
  private static final int RECORDS = STEP * STEPS;

  @RegisterExtension
  static final MiniClusterExtension FLINK = Jobs.miniCluster();

  @TempDir
  Path dir;

  /**
   * Restored from the last checkpoint, the job emits all that is left at once and reaches end of
   * input before its first checkpoint after the restore completes.
   */
  @Test
  void restoredJobEndingBeforeItsFirstCheckpoint() throws Exception {
    String plan = "before-first-checkpoint";
    Faults.planRecordFailures(plan, RECORDS - STEP / 2);
    Faults.planCommitCrashes(plan, Map.of());
    run(plan, 1);
    assertThat(Faults.recordFailures(plan)).isEqualTo(1);
  }

  /** Restored between two checkpoints: later checkpoints follow before the end. */
  @Test
  void restoredBetweenCheckpoints() throws Exception {
    String plan = "between-checkpoints";
    Faults.planRecordFailures(plan, STEP + STEP / 2, STEP / 3);
    Faults.planCommitCrashes(plan, Map.of());
    run(plan, 1);
    assertThat(Faults.recordFailures(plan)).isEqualTo(2);
  }

  /** The failure strikes at the last record, before the final batch is emitted. */
  @Test
  void restoredAtEndOfInput() throws Exception {
    String plan = "end-of-input";
    Faults.planRecordFailures(plan, RECORDS);
    Faults.planCommitCrashes(plan, Map.of());
    run(plan, 1);
    assertThat(Faults.recordFailures(plan)).isEqualTo(1);
  }

  /**
   * The committer crashes before and after claiming the versions of the last two commits (the
   * last is the final batch's when no checkpoint completes between the last step and the end).
   */
  @Test
  void restoredAroundTheFinalCommit() throws Exception {
    String plan = "final-commit";
    Faults.planRecordFailures(plan);
    Faults.planCommitCrashes(plan, Map.of((long) STEPS - 2, Faults.When.AFTER, (long) STEPS - 1, Faults.When.BEFORE,
        (long) STEPS, Faults.When.AFTER));
    run(plan, 1);
    assertThat(Faults.commitCrashes(plan)).isNotEmpty();
  }

  /** Two writer subtasks, restored from the last checkpoint, each ending before a checkpoint. */
  @Test
  void twoWritersRestoredEndingBeforeACheckpoint() throws Exception {
    String plan = "two-writers";
    Faults.planRecordFailures(plan, RECORDS / 2 - STEP / 4);
    Faults.planCommitCrashes(plan, Map.of());
    run(plan, 2);
    assertThat(Faults.recordFailures(plan)).isEqualTo(1);
  }

  private void run(String plan, int parallelism) throws Exception {
    StreamExecutionEnvironment env = Jobs.restoring(parallelism);
    DataStream<RowData> rows = env
        .fromSource(new DataGeneratorSource<>(TestRows.generator(), RECORDS,
                Faults.gatedUntilFailure(plan, STEP), TestRows.TYPE_INFO),
            WatermarkStrategy.noWatermarks(), "rows")
        .map(new Faults.FailingMap(plan), TestRows.TYPE_INFO)
        .name("failing map");
    KartothekSink.forRowData(TestRows.ROW_TYPE)
        .store(new Faults.CrashingStoreFactory(ObjectStoreFactory.of(dir.toUri().toString(), Map.of()), plan))
        .dataset("events")
        .partitionBy("p")
        .build()
        .addTo(rows);
    env.execute("bounded restore " + plan);

    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetContents.read(store, "events").assertExactlyOnce(RECORDS);
    }
  }
}
