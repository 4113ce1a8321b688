package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bounded changelog written into a dataset with a primary key, restored at every point of the
 * job's life, as {@link BoundedRestoreTest} does for the plain sink: every version of the log
 * holds the table of its checkpoint's prefix of the changelog, and the last one the table of the
 * whole changelog. Upserts hide a record written twice in the final table, so every version is
 * checked, not only the last; a lost or reordered batch shows in both.
 */
class KeyedRestoreTest {
  private static final int STEP = 2_000;
  private static final int STEPS = 3;
  private static final int RECORDS = STEP * STEPS;

  @RegisterExtension
  static final MiniClusterExtension FLINK = Jobs.miniCluster();

  @TempDir
  Path dir;

  @Test
  void restoredJobEndingBeforeItsFirstCheckpoint() throws Exception {
    String plan = "keyed-before-first-checkpoint";
    Faults.planRecordFailures(plan, RECORDS - STEP / 2);
    Faults.planCommitCrashes(plan, Map.of());
    run(plan, 1);
    assertThat(Faults.recordFailures(plan)).isEqualTo(1);
  }

  @Test
  void restoredBetweenCheckpoints() throws Exception {
    String plan = "keyed-between-checkpoints";
    Faults.planRecordFailures(plan, STEP + STEP / 2, STEP / 3);
    Faults.planCommitCrashes(plan, Map.of());
    run(plan, 1);
    assertThat(Faults.recordFailures(plan)).isEqualTo(2);
  }

  @Test
  void restoredAtEndOfInput() throws Exception {
    String plan = "keyed-end-of-input";
    Faults.planRecordFailures(plan, RECORDS);
    Faults.planCommitCrashes(plan, Map.of());
    run(plan, 1);
    assertThat(Faults.recordFailures(plan)).isEqualTo(1);
  }

  /** The committer crashes before and after claiming the versions of the last commits. */
  @Test
  void restoredAroundTheFinalCommit() throws Exception {
    String plan = "keyed-final-commit";
    Faults.planRecordFailures(plan);
    Faults.planCommitCrashes(plan, Map.of((long) STEPS - 2, Faults.When.AFTER, (long) STEPS - 1, Faults.When.BEFORE,
        (long) STEPS, Faults.When.AFTER));
    run(plan, 1);
    assertThat(Faults.commitCrashes(plan)).isNotEmpty();
  }

  /** Two writer subtasks (the sink routes each key to one), restored from the last checkpoint. */
  @Test
  void twoWritersRestoredEndingBeforeACheckpoint() throws Exception {
    String plan = "keyed-two-writers";
    Faults.planRecordFailures(plan, RECORDS - STEP / 4);
    Faults.planCommitCrashes(plan, Map.of());
    run(plan, 2);
    assertThat(Faults.recordFailures(plan)).isEqualTo(1);
  }

  private void run(String plan, int parallelism) throws Exception {
    // few keys for the records: most records update, delete or re-insert a key written before
    List<GenericRowData> changes = Changelogs.register(plan, plan.hashCode(), 400, 3, RECORDS);
    StreamExecutionEnvironment env = Jobs.restoring(parallelism);
    // one source and one failing map keep the changelog's order; the sink routes keys to writers
    DataStream<RowData> rows = env
        .fromSource(new DataGeneratorSource<>(new Changelogs.Records(plan), RECORDS,
            Faults.gatedUntilFailure(plan, STEP),
            Changelogs.TYPE_INFO), WatermarkStrategy.noWatermarks(), "changelog")
        .setParallelism(1)
        .map(new Changelogs.Prefixes(plan), Changelogs.TYPE_INFO).name("prefixes").setParallelism(1)
        .map(new Faults.FailingMap(plan), Changelogs.TYPE_INFO).name("failing map").setParallelism(1);
    KartothekSink.forRowData(Changelogs.ROW_TYPE)
        .store(new Faults.CrashingStoreFactory(ObjectStoreFactory.of(dir.toUri().toString(), Map.of()), plan))
        .dataset("cdc")
        .partitionBy("p")
        .primaryKey("k", "p")
        .build()
        .addTo(rows);
    env.execute("keyed restore " + plan);

    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetState latest = new LogReader(store, "cdc").latest();
      Changelogs.assertTable("the latest version, " + plan, ChangeLogReader.read(store, latest, Changelogs.COLUMNS),
          Changelogs.byKey(Changelogs.state(changes, RECORDS)));
      int checked = 0;
      for (long version = 0; version < latest.version(); version++) {
        Optional<Long> prefix = ChangelogChecks.prefixAt(store, "cdc", plan, version);
        if (prefix.isPresent()) {
          Changelogs.assertTable("version " + version + " (" + prefix.get() + " records), " + plan,
              ChangeLogReader.read(store, "cdc", version, Changelogs.COLUMNS),
              Changelogs.byKey(Changelogs.state(changes, prefix.get())));
          checked++;
        }
      }
      assertThat(checked).as("versions with a known checkpoint checked, " + plan).isPositive();
    }
  }
}
