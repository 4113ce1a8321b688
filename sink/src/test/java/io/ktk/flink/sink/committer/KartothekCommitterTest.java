package io.ktk.flink.sink.committer;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.sink.committable.FileBatch;
import io.ktk.flink.sink.committable.FileBatchSerializerTest;
import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.FaultyObjectStore;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KartothekCommitterTest {
  private static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("p", DataTypes.STRING()),
      DataTypes.FIELD("id", DataTypes.BIGINT()),
      DataTypes.FIELD("v", DataTypes.DOUBLE()),
      DataTypes.FIELD("ts", DataTypes.TIMESTAMP(6))).getLogicalType();

  /** Set per test; the factory below must stay serializable, so it reads a static field. */
  private static FaultyObjectStore store;

  @TempDir Path dir;

  @Test
  void aCheckpointThatFailedToCommitHoldsBackTheLaterOnesUntilItIsCommitted() throws Exception {
    store = new FaultyObjectStore(new LocalObjectStore(dir));
    KartothekSinkConfig config = KartothekSink.forRowData(ROW_TYPE)
        .store(() -> store).dataset("events").partitionBy("p").indexBy("id").build().config();
    FileBatch template = FileBatchSerializerTest.sample();
    try (KartothekCommitter committer = new KartothekCommitter(config, new UnregisteredMetricsGroup())) {
      RecordingCommitRequest four = new RecordingCommitRequest(batch(template, 4, "00000000000000000000000000000004"));
      committer.commit(List.of(four));
      assertThat(four.retries).isZero();
      // The publisher reads the log on a thread of its own: once it is done with version 0, the
      // faults below can only meet the commit's own calls.
      assertThat(committer.awaitPublished(60_000)).isTrue();

      // The claim of checkpoint 5 fails, and so does asking whether it landed: unknown, retried later.
      String version1 = "events/_ktk_log/00000000000000000001.json";
      store.failPutIfAbsent(1, FaultyObjectStore.When.BEFORE, version1).failGet(1, version1);
      RecordingCommitRequest five = new RecordingCommitRequest(batch(template, 5, "00000000000000000000000000000005"));
      RecordingCommitRequest six = new RecordingCommitRequest(batch(template, 6, "00000000000000000000000000000006"));
      committer.commit(List.of(six, five));
      assertThat(five.retries).isEqualTo(1);
      assertThat(six.retries).as("checkpoint 6 waits for 5").isEqualTo(1);
      assertThat(committedLabels()).hasSize(1);

      committer.commit(List.of(six, five));
      assertThat(five.alreadyCommitted).isFalse();
      assertThat(six.alreadyCommitted).isFalse();
    }
    DatasetState state = CommitLog.open(new LocalObjectStore(dir), "events", CommitLogOptions.DEFAULTS).state();
    assertThat(state.files().keySet()).containsExactly(
        "p=a/00000000000000000000000000000004", "p=a/00000000000000000000000000000005",
        "p=a/00000000000000000000000000000006");
    assertThat(state.checkpoints()).containsValue(6L);
  }

  private List<String> committedLabels() throws Exception {
    return List.copyOf(CommitLog.open(new LocalObjectStore(dir), "events", CommitLogOptions.DEFAULTS)
        .state().files().keySet());
  }

  private static FileBatch batch(FileBatch template, long checkpointId, String fileId) throws Exception {
    DataFile file = template.files().get(0);
    DataFile renamed = new DataFile("p=a/" + fileId, file.rows(), file.bytes(), file.physicalSchema());
    store.put(renamed.key("events"), new byte[] {1}); // the committer checks that it exists
    return new FileBatch(template.dataset(), template.writerId(), checkpointId, template.schema(),
        template.partitionColumns(), template.indexColumns(), List.of(renamed),
        Map.of("id", Map.of(IndexValue.of(7L), List.of(renamed.label()))), System.currentTimeMillis());
  }
}
