package io.ktk.flink.state.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.CountingObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The REWRITE operation (compaction's commit) and the bounded log: expiry, time travel inside and
 * outside the retention, replays recognised after expiry, and an open that costs the same store
 * calls whatever the log's length.
 */
class RewriteAndRetentionTest {
  private static final String DATASET = "sales";

  @TempDir Path dir;
  ObjectStore store;

  @BeforeEach
  void openStore() {
    store = new LocalObjectStore(dir);
  }

  private static Map<String, Map<IndexValue, List<String>>> index(DataFile file, long value) {
    return Map.of("c", Map.of(IndexValue.of(value), List.of(file.label())));
  }

  private CommitLog logIndexedOnC(CommitLogOptions options) throws IOException {
    CommitLog log = CommitLog.open(store, DATASET, options);
    DataFile first = CommitLogTest.file("x", 1);
    log.commit(CommitLogTest.append(first).withIndex(List.of("c"), index(first, 0)));
    return log;
  }

  @Test
  void aRewriteReplacesFilesKeepsTheirOrderAndUpdatesTheIndex() throws IOException {
    CommitLog log = logIndexedOnC(CommitLogOptions.DEFAULTS);
    List<DataFile> small = new ArrayList<>(log.state().files().values());
    for (int i = 1; i <= 3; i++) {
      DataFile file = CommitLogTest.file("x", 1);
      log.commit(CommitLogTest.append(file).withIndex(List.of(), index(file, i)));
      small.add(file);
    }
    DataFile later = CommitLogTest.file("x", 1);
    log.commit(CommitLogTest.append(later).withIndex(List.of(), index(later, 9)));

    // Versions 0..2 rewritten into one file; version 3 and 4 stay.
    DataFile compacted = CommitLogTest.file("x", 3);
    CommitResult result = log.commit(DatasetChange.rewrite(CommitLogTest.SCHEMA,
        small.subList(0, 3).stream().map(DataFile::label).toList(), List.of(compacted),
        Map.of(compacted.label(), 2L), Map.of("c", Map.of(IndexValue.of(0L), List.of(compacted.label()), IndexValue.of(1L), List.of(compacted.label()), IndexValue.of(2L), List.of(compacted.label())))));
    assertThat(result.version()).isEqualTo(5);

    DatasetState state = CommitLog.open(store, DATASET, CommitLogOptions.DEFAULTS).state();
    assertThat(state.files()).containsOnlyKeys(compacted.label(), small.get(3).label(), later.label());
    assertThat(state.addedIn(compacted.label())).as("ordered as its newest rows").isEqualTo(2);
    assertThat(state.addedIn(small.get(3).label())).isEqualTo(3);
    assertThat(state.index("c")).containsOnlyKeys(IndexValue.of(0L), IndexValue.of(1L), IndexValue.of(2L), IndexValue.of(3L), IndexValue.of(9L));
    assertThat(state.index("c").get(IndexValue.of(1L))).containsExactly(compacted.label());
    assertThat(state.removedFiles()).containsOnlyKeys(small.subList(0, 3).stream().map(DataFile::label).toArray(String[]::new));
  }

  /**
   * Expiry forgets exactly the removed files that no retained version holds, in the committer's
   * state and in one read from a snapshot, over several expiries.
   */
  @Test
  void expiryForgetsTheFilesOnlyExpiredVersionsHeld() throws IOException {
    CommitLog log = CommitLog.open(store, DATASET, CommitLogOptions.DEFAULTS.withSnapshotInterval(4));
    Map<String, Long> removedAt = new java.util.HashMap<>();
    for (int round = 0; round < 6; round++) {
      DataFile a = CommitLogTest.file("x", 1);
      DataFile b = CommitLogTest.file("x", 1);
      log.commit(CommitLogTest.append(a, b));
      DataFile merged = CommitLogTest.file("x", 2);
      long version = log.commit(DatasetChange.rewrite(CommitLogTest.SCHEMA, List.of(a.label(), b.label()),
          List.of(merged), Map.of(merged.label(), log.state().version()), Map.of())).version();
      removedAt.put(a.label(), version);
      removedAt.put(b.label(), version);
    }
    for (int keep : new int[] {9, 4}) {
      LogExpiry.Result expired = LogExpiry.expire(log, Duration.ZERO, keep, Instant.now().plusSeconds(60), false);
      Map<String, Long> stillHeld = new java.util.HashMap<>(removedAt);
      stillHeld.values().removeIf(version -> version <= expired.retainedFrom());
      assertThat(stillHeld).as("some removed files are still held after keeping %d versions", keep).isNotEmpty();
      assertThat(log.state().removedFiles()).as("the committer's state").isEqualTo(stillHeld);
      assertThat(new LogReader(store, DATASET).latest().removedFiles()).as("a fresh read").isEqualTo(stillHeld);
    }
  }

  @Test
  void aRewriteOfAFileThatIsGoneConflictsAndAnAppendCommutes() throws IOException {
    CommitLog log = logIndexedOnC(CommitLogOptions.DEFAULTS);
    String first = log.state().files().firstKey();
    CommitLog compactor = CommitLog.open(store, DATASET, CommitLogOptions.DEFAULTS);
    CommitLog other = CommitLog.open(store, DATASET, CommitLogOptions.DEFAULTS);

    DataFile appended = CommitLogTest.file("x", 1);
    log.commit(CommitLogTest.append(appended).withIndex(List.of(), index(appended, 5)));
    DataFile a = CommitLogTest.file("x", 1);
    CommitResult won = compactor.commit(DatasetChange.rewrite(CommitLogTest.SCHEMA, List.of(first), List.of(a),
        Map.of(a.label(), 0L), index(a, 0)));
    assertThat(won.version()).as("rebased past the append").isEqualTo(2);

    DataFile b = CommitLogTest.file("x", 1);
    assertThatThrownBy(() -> other.commit(DatasetChange.rewrite(CommitLogTest.SCHEMA, List.of(first), List.of(b),
        Map.of(b.label(), 0L), index(b, 0))))
        .isInstanceOf(RewriteConflictException.class)
        .hasMessageContaining("file '" + first + "' is no longer part of it");
    DataFile c = CommitLogTest.file("x", 1);
    assertThatThrownBy(() -> other.commit(DatasetChange.rewrite(CommitLogTest.SCHEMA, List.of(appended.label()),
        List.of(c), Map.of(c.label(), 1L), Map.of())))
        .isInstanceOf(RewriteConflictException.class)
        .hasMessageContaining("indexed on column 'c'");
    assertThat(CommitLog.open(store, DATASET, CommitLogOptions.DEFAULTS).state().version()).isEqualTo(2);
  }

  @Test
  void expiryKeepsTheRetainedVersionsReadableAndRecognisesReplays() throws IOException {
    CommitLog log = logIndexedOnC(CommitLogOptions.DEFAULTS.withSnapshotInterval(7));
    List<DataFile> files = new ArrayList<>();
    for (int checkpoint = 1; checkpoint <= 29; checkpoint++) {
      DataFile file = CommitLogTest.file("x", 1);
      files.add(file);
      log.commit(CommitLogTest.append(file).withIndex(List.of(), index(file, checkpoint)).withWriter("w", checkpoint));
    }
    // Version 29 is the latest; keep the last 10 (20..29) whatever their age. Snapshots lie at 7,
    // 14, 21 and 28: the log keeps from the newest one at or before 20, without writing another.
    LogExpiry.Result result = LogExpiry.expire(log, Duration.ZERO, 10, Instant.now().plusSeconds(60), false);
    assertThat(result.retainedFrom()).isEqualTo(14);
    assertThat(result.expireVersion()).isEqualTo(30);
    assertThat(store.head(LogKeys.entry(DATASET, 13))).isEmpty();
    assertThat(store.head(LogKeys.entry(DATASET, 0))).isEmpty();
    assertThat(store.head(LogKeys.entry(DATASET, 14))).isPresent();
    assertThat(store.head(LogKeys.snapshot(DATASET, 14))).isPresent();
    assertThat(store.head(LogKeys.snapshot(DATASET, 7))).isEmpty();
    assertThat(store.head(LogKeys.snapshot(DATASET, 20))).as("no snapshot written").isEmpty();
    assertThat(new LogReader(store, DATASET).hasLog()).isTrue();

    LogReader reader = new LogReader(store, DATASET);
    assertThat(reader.at(14).files()).hasSize(15);
    assertThat(reader.at(25).files()).hasSize(26);
    assertThatThrownBy(() -> reader.at(13))
        .isInstanceOf(VersionExpiredException.class)
        .hasMessageContaining("Cannot read version 13 of dataset 'sales'")
        .hasMessageContaining("retains versions from 14");

    CommitLog reopened = CommitLog.open(store, DATASET, CommitLogOptions.DEFAULTS);
    assertThat(reopened.state().retainedFrom()).isEqualTo(14);
    assertThat(reopened.state().files()).hasSize(30);
    // A replay of checkpoint 29 after a restore is still recognised, and of an expired one too.
    assertThat(reopened.commit(CommitLogTest.append(files.get(28)).withWriter("w", 29)).alreadyCommitted()).isTrue();
    assertThat(reopened.commit(CommitLogTest.append(files.get(2)).withWriter("w", 3)).alreadyCommitted()).isTrue();
    DataFile next = CommitLogTest.file("x", 1);
    assertThat(reopened.commit(CommitLogTest.append(next).withIndex(List.of(), index(next, 30)).withWriter("w", 30))
        .version()).isEqualTo(31);
  }

  /**
   * When no snapshot lies between the expired versions and the first version asked for, but a later
   * one exists, nothing more expires: the next expiry, once the retention passes that snapshot,
   * keeps from it. Expiry itself writes no snapshot.
   */
  @Test
  void expiryWaitsForTheNextSnapshotInsteadOfWritingOne() throws IOException {
    CommitLog log = logIndexedOnC(CommitLogOptions.DEFAULTS.withSnapshotInterval(7));
    for (int checkpoint = 1; checkpoint <= 29; checkpoint++) {
      DataFile file = CommitLogTest.file("x", 1);
      log.commit(CommitLogTest.append(file).withIndex(List.of(), index(file, checkpoint)));
    }
    Instant now = Instant.now().plusSeconds(60);
    assertThat(LogExpiry.expire(log, Duration.ZERO, 10, now, false).retainedFrom()).isEqualTo(14);

    // Latest 30 (the expire entry): keeping the last 15 asks for 16..30; snapshots lie at 21 and 28 only.
    LogExpiry.Result waiting = LogExpiry.expire(log, Duration.ZERO, 15, now, false);
    assertThat(waiting.retainedFrom()).isEqualTo(14);
    assertThat(waiting.expireVersion()).isEqualTo(-1);
    assertThat(store.head(LogKeys.snapshot(DATASET, 16))).isEmpty();
    assertThat(new LogReader(store, DATASET).at(14).files()).hasSize(15);

    // Keeping the last 9 asks for 22..30: the snapshot at 21 is in range.
    LogExpiry.Result passed = LogExpiry.expire(log, Duration.ZERO, 9, now, false);
    assertThat(passed.retainedFrom()).isEqualTo(21);
    assertThat(store.head(LogKeys.entry(DATASET, 20))).isEmpty();
    assertThatThrownBy(() -> new LogReader(store, DATASET).at(20)).isInstanceOf(VersionExpiredException.class);
    assertThat(new LogReader(store, DATASET).at(21).files()).hasSize(22);
  }

  /** Without a snapshot after the expired versions, expiry writes one of the oldest version it keeps. */
  @Test
  void expiryWritesASnapshotWhenNoneLiesInRange() throws IOException {
    CommitLog log = logIndexedOnC(CommitLogOptions.DEFAULTS);
    for (int checkpoint = 1; checkpoint <= 11; checkpoint++) {
      DataFile file = CommitLogTest.file("x", 1);
      log.commit(CommitLogTest.append(file).withIndex(List.of(), index(file, checkpoint)));
    }
    LogExpiry.Result result = LogExpiry.expire(log, Duration.ZERO, 3, Instant.now().plusSeconds(60), false);
    assertThat(result.retainedFrom()).isEqualTo(9);
    assertThat(store.head(LogKeys.snapshot(DATASET, 9))).isPresent();
    assertThat(store.head(LogKeys.entry(DATASET, 8))).isEmpty();
    DatasetState oldest = new LogReader(store, DATASET).at(9);
    assertThat(oldest.files()).hasSize(10);
    assertThat(oldest.index("c")).hasSize(10);
  }

  /**
   * A writer that last looked before versions expired (a maintenance task between runs, a job
   * that was idle) reads the latest state afresh: catching up entry by entry would stop at the
   * first deleted entry, and a commit would claim that version's number again, unseen by every
   * reader, who starts from a later snapshot.
   */
  @Test
  void aWriterThatLookedBeforeVersionsExpiredCatchesUpAndCommitsWhereReadersSeeIt() throws IOException {
    Instant start = Instant.parse("2024-01-01T00:00:00Z");
    java.time.Clock early = java.time.Clock.fixed(start, java.time.ZoneOffset.UTC);
    CommitLog log = CommitLog.open(store, DATASET, CommitLogOptions.DEFAULTS.withSnapshotInterval(7),
        new PublishedViewCheck(DATASET), early);
    log.commit(CommitLogTest.append(CommitLogTest.file("x", 1)));
    CommitLog refreshing = CommitLog.open(store, DATASET, CommitLogOptions.DEFAULTS);
    CommitLog idle = CommitLog.open(store, DATASET, CommitLogOptions.DEFAULTS, new PublishedViewCheck(DATASET),
        java.time.Clock.fixed(start.plus(Duration.ofHours(2)), java.time.ZoneOffset.UTC));
    for (int i = 0; i < 20; i++) {
      log.commit(CommitLogTest.append(CommitLogTest.file("x", 1)));
    }
    LogExpiry.Result expired = LogExpiry.expire(log, Duration.ZERO, 5, Instant.now().plusSeconds(60), false);
    assertThat(expired.retainedFrom()).as("the snapshot at or before version 16").isEqualTo(14);
    assertThat(store.head(LogKeys.entry(DATASET, 1))).isEmpty();

    assertThat(refreshing.refresh().version()).isEqualTo(expired.expireVersion());
    assertThat(refreshing.state().files()).hasSize(21);

    DataFile late = CommitLogTest.file("x", 1);
    CommitResult committed = idle.commit(CommitLogTest.append(late));
    assertThat(committed.version()).isEqualTo(expired.expireVersion() + 1);
    DatasetState latest = new LogReader(store, DATASET).latest();
    assertThat(latest.files()).hasSize(22).containsKey(late.label());
  }

  @Test
  void openingReadsTheHintedSnapshotAndOneListingWhateverTheLogsLength() throws IOException {
    CommitLog log = logIndexedOnC(CommitLogOptions.DEFAULTS.withSnapshotInterval(50));
    int[] readsAt = new int[2];
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < (round == 0 ? 120 : 1000); i++) {
        DataFile file = CommitLogTest.file("x", 1);
        log.commit(CommitLogTest.append(file).withIndex(List.of(), index(file, i)));
      }
      CountingObjectStore counting = new CountingObjectStore(store);
      DatasetState state = new LogReader(counting, DATASET).latest();
      assertThat(state.version()).isEqualTo(log.state().version());
      // One listing, of the entries after the snapshot (fewer than the snapshot interval) and the hint.
      assertThat(counting.listed).as("keys listed").isLessThanOrEqualTo(50 + 1);
      readsAt[round] = counting.wholeReads;
    }
    // The hint, the snapshot, and the entries after it.
    assertThat(readsAt[0]).isLessThanOrEqualTo(2 + 50);
    assertThat(readsAt[1]).isLessThanOrEqualTo(2 + 50);
  }
}
