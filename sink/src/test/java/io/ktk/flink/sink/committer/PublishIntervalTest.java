package io.ktk.flink.sink.committer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.CountingObjectStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code publish.min-interval}: every checkpoint is committed at once, while the plateau view is
 * published (on the publisher's thread) at most once per interval, and for the last commit when
 * the committer closes.
 */
class PublishIntervalTest {
  private static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("p", DataTypes.STRING()),
      DataTypes.FIELD("id", DataTypes.BIGINT()),
      DataTypes.FIELD("v", DataTypes.DOUBLE()),
      DataTypes.FIELD("ts", DataTypes.TIMESTAMP(6))).getLogicalType();
  private static final Instant START = Instant.parse("2026-11-22T10:00:00Z");

  @TempDir Path dir;

  @Test
  void commitsLandAtOnceWhileTheViewIsPublishedOncePerIntervalAndOnClose() throws Exception {
    LateCommitTest.store = new CountingObjectStore(new LocalObjectStore(dir));
    KartothekSinkConfig config = KartothekSink.forRowData(ROW_TYPE).store(() -> LateCommitTest.store)
        .dataset("events").partitionBy("p").indexBy("id").publishMinInterval(Duration.ofMinutes(10)).build().config();
    MovingClock clock = new MovingClock(START);

    KartothekCommitter committer = new KartothekCommitter(List.of(config), null, new UnregisteredMetricsGroup(), clock);
    commit(committer, 1);
    assertThat(committedVersion()).isEqualTo(0);
    assertThat(publishedVersion()).as("the first commit is published").isEqualTo(0);

    clock.now = START.plus(Duration.ofMinutes(1));
    commit(committer, 2);
    assertThat(committedVersion()).isEqualTo(1);
    assertThat(publishedVersion()).as("one minute later: held back").isEqualTo(0);

    // Once the interval has passed, what was held back is published without waiting for a commit.
    // (Moving the clock and committing at once would race the publisher's own look at the clock.)
    clock.now = START.plus(Duration.ofMinutes(10));
    assertThat(committer.awaitPublished(30_000)).isTrue();
    assertThat(publishedVersion()).as("ten minutes after the last publication").isEqualTo(1);

    clock.now = START.plus(Duration.ofMinutes(25));
    commit(committer, 3);
    assertThat(committedVersion()).isEqualTo(2);
    assertThat(publishedVersion()).as("a commit after the interval, with nothing held back: at once").isEqualTo(2);

    clock.now = START.plus(Duration.ofMinutes(26));
    commit(committer, 4);
    assertThat(committedVersion()).isEqualTo(3);
    assertThat(publishedVersion()).isEqualTo(2);

    committer.close();
    assertThat(publishedVersion()).as("closing publishes what was held back").isEqualTo(3);
  }

  @Test
  void aNegativeIntervalIsRefusedWhenTheSinkIsBuilt() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> KartothekSink.forRowData(ROW_TYPE).store("file:///tmp/x")
            .dataset("events").publishMinInterval(Duration.ofSeconds(-1)).build())
        .hasMessageContaining("Cannot build the sink of dataset 'events'")
        .hasMessageContaining("the least time between two publications must not be negative");
  }

  private static void commit(KartothekCommitter committer, long checkpoint) throws Exception {
    RecordingCommitRequest request = new RecordingCommitRequest(LateCommitTest.batch(checkpoint, START, 1));
    committer.commit(List.of(request));
    assertThat(request.retries).isZero();
    // The view is published off the commit path: wait until the publisher has done what is due.
    assertThat(committer.awaitPublished(30_000)).isTrue();
  }

  private long committedVersion() throws Exception {
    return CommitLog.open(new LocalObjectStore(dir), "events", CommitLogOptions.DEFAULTS).state().version();
  }

  private long publishedVersion() throws Exception {
    return new ObjectMapper().readTree(Files.readAllBytes(dir.resolve("events.by-dataset-metadata.json")))
        .path("metadata").path("ktk_flink_log_version").asLong(-1);
  }

  /** A clock the test moves. */
  private static final class MovingClock extends Clock {
    Instant now;

    MovingClock(Instant now) {
      this.now = now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }
}
