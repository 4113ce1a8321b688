package io.ktk.flink.cdc;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.cli.KtkRun;
import io.ktk.flink.source.KartothekDatasetSource;
import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.planner.PlainDatasetSnapshot;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The continuous source of a dataset with a primary key as an upsert changelog ({@code
 * changelog(true)}): a downstream copy built from its {@code +I}, {@code +U} and {@code -D} rows
 * equals the dataset after every round of changes, through an injected failure and a restore from
 * a checkpoint (the collect sink returns only checkpointed rows, so a row served twice or lost
 * shows), and a compaction that folds a delete away before the source discovered it.
 */
class UpsertChangelogSourceTest {
  /** How many rows the job may pass before its injected failure; below zero once it failed. */
  static final AtomicInteger ROWS_BEFORE_FAILURE = new AtomicInteger(Integer.MAX_VALUE);

  private static final DatasetQuery COLUMNS = DatasetQuery.builder().columns("k", "p", "v", "s").build();

  @TempDir Path dir;

  /** Asserts that {@code actual} holds the rows of {@code expected} as often, naming a few differences. */
  private static void assertRows(String what, List<Row> actual, List<Row> expected) {
    Map<String, Integer> counts = new HashMap<>();
    actual.forEach(row -> counts.merge(row.toString(), 1, Integer::sum));
    expected.forEach(row -> counts.merge(row.toString(), -1, Integer::sum));
    counts.values().removeIf(count -> count == 0);
    if (!counts.isEmpty()) {
      throw new AssertionError(what + ": " + actual.size() + " rows, " + expected.size() + " expected; rows served"
          + " more (+) or less (-) often than expected: " + counts.entrySet().stream().limit(10).toList());
    }
  }

  /** Asserts that a table by key is {@code expected}, naming a few differences rather than both tables. */
  private static void assertTable(String what, Map<List<Object>, List<Object>> actual,
      Map<List<Object>, List<Object>> expected) {
    if (actual.equals(expected)) {
      return;
    }
    List<String> differences = new ArrayList<>();
    expected.forEach((key, row) -> {
      if (!row.equals(actual.get(key)) && differences.size() < 5) {
        differences.add("key " + key + ": " + actual.get(key) + " instead of " + row);
      }
    });
    actual.forEach((key, row) -> {
      if (!expected.containsKey(key) && differences.size() < 10) {
        differences.add("key " + key + ": " + row + ", which the table does not have");
      }
    });
    throw new AssertionError(what + ": " + actual.size() + " keys, " + expected.size() + " expected; " + differences);
  }

  private static StreamExecutionEnvironment streaming() {
    return StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(Map.of(
        "execution.runtime-mode", "STREAMING",
        "parallelism.default", "2",
        "execution.checkpointing.interval", "100ms",
        "restart-strategy.type", "fixed-delay",
        "restart-strategy.fixed-delay.attempts", "5",
        "restart-strategy.fixed-delay.delay", "50ms")));
  }

  private CloseableIterator<Row> changelog(KartothekDatasetSource source) throws Exception {
    return streaming().fromSource(source, WatermarkStrategy.noWatermarks(), "cdc changelog")
        .map(row -> {
          if (ROWS_BEFORE_FAILURE.decrementAndGet() == 0) {
            ROWS_BEFORE_FAILURE.set(-1);
            throw new IllegalStateException("injected failure");
          }
          return row;
        }).returns(source.getProducedType())
        .executeAndCollect();
  }

  /** The next {@code count} rows of the changelog. */
  private static List<Row> take(CloseableIterator<Row> it, int count) {
    List<Row> rows = new ArrayList<>();
    while (rows.size() < count && it.hasNext()) {
      rows.add(it.next());
    }
    return rows;
  }

  @Test
  @Timeout(600)
  void aCopyBuiltFromTheChangelogEqualsTheDatasetAfterEveryRound() throws Exception {
    String url = dir.toUri().toString();
    KeyedRounds rounds = new KeyedRounds(20240501L, 3_000, 4);
    KeyedRounds.commit(url, rounds.next(3_000));
    KartothekDatasetSource source = KartothekDatasetSource.builder(url, KeyedRounds.DATASET).query(COLUMNS)
        .changelog(true).continuous(true).discoveryInterval(Duration.ofMillis(100)).build();
    assertThat(source.isChangelog()).isTrue();

    Map<List<Object>, List<Object>> copy = new HashMap<>();
    ROWS_BEFORE_FAILURE.set(Integer.MAX_VALUE);
    try (CloseableIterator<Row> it = changelog(source)) {
      List<Row> expected = rounds.inserts();
      List<Row> served = take(it, expected.size());
      assertRows("the pinned version, as +I rows", served, expected);
      served.forEach(row -> KeyedRounds.apply(copy, row));
      assertTable("the copy of the pinned version", copy, rounds.table());

      for (int round = 1; round <= 6; round++) {
        if (round == 3) {
          ROWS_BEFORE_FAILURE.set(200); // in the middle of the third round's rows
        }
        List<KeyedRounds.Change> changes = rounds.next(1_500);
        KeyedRounds.commit(url, changes);
        expected = rounds.events(changes);
        served = take(it, expected.size());
        assertRows("round " + round + ": one +U or -D per key it changed", served, expected);
        served.forEach(row -> KeyedRounds.apply(copy, row));
        assertTable("the copy after round " + round, copy, rounds.table());
      }
      assertThat(ROWS_BEFORE_FAILURE.get()).as("the injected failure happened").isNegative();

      // nothing served twice: the next round's rows come next, and only they
      List<KeyedRounds.Change> last = rounds.next(1);
      KeyedRounds.commit(url, last);
      assertThat(take(it, 1)).containsExactlyElementsOf(rounds.events(last));
    }
    assertTable("the dataset read bounded", read(url), rounds.table());
  }

  /**
   * Key 7 is served (the pinned version), then deleted, and a rewrite after the delete folds it
   * away (no file holds key 7 or a delete any more) before the source's first discovery: the
   * versions before the rewrite are served first, so the copy still learns of the delete, once.
   */
  @Test
  @Timeout(300)
  void aDeleteFoldedAwayByACompactionBeforeItWasServedIsServedOnce() throws Exception {
    String url = dir.toUri().toString();
    KeyedRounds rounds = new KeyedRounds(7L, 100, 4);
    List<KeyedRounds.Change> inserts = new ArrayList<>();
    for (long k = 0; k < 100; k++) {
      inserts.add(new KeyedRounds.Change(RowKind.INSERT, Arrays.asList(k, "p" + k % 4, k * 10, "s" + k)));
    }
    KeyedRounds.commit(url, inserts);
    long pinned;
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      pinned = new LogReader(store, KeyedRounds.DATASET).latest().version();
    }
    List<KeyedRounds.Change> changes = List.of(
        new KeyedRounds.Change(RowKind.DELETE, Arrays.asList(7L, "p3", 70L, "s7")),
        new KeyedRounds.Change(RowKind.UPDATE_AFTER, Arrays.asList(8L, "p0", 81L, "t8")));
    KeyedRounds.commit(url, changes);
    KtkRun compact = KtkRun.ktk("compact", "--store", url, "--dataset", KeyedRounds.DATASET,
        "--min-input-files", "2");
    assertThat(compact.exitCode()).as(compact.toString()).isZero();
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      DatasetState latest = new LogReader(store, KeyedRounds.DATASET).latest();
      assertThat(latest.lastRewriteVersion()).as("a rewrite after the delete").isGreaterThan(pinned + 1);
      assertThat(latest.files().values()).as("files at version " + latest.version() + ": the delete is folded away")
          .noneMatch(file -> file.physicalSchema().getFields().stream()
              .anyMatch(field -> field.getName().equals(PrimaryKey.DELETED_COLUMN)));
    }

    Map<List<Object>, List<Object>> expectedTable = new HashMap<>();
    for (KeyedRounds.Change insert : inserts) {
      expectedTable.put(insert.row().subList(0, 2), insert.row());
    }
    Map<List<Object>, List<Object>> copy = new HashMap<>();
    KartothekDatasetSource source = KartothekDatasetSource.builder(url, KeyedRounds.DATASET).version(pinned).query(COLUMNS)
        .changelog(true).continuous(true).discoveryInterval(Duration.ofMillis(100)).build();
    ROWS_BEFORE_FAILURE.set(Integer.MAX_VALUE);
    try (CloseableIterator<Row> it = changelog(source)) {
      // two readers: the changes of one partition may come before the pinned rows of another
      List<Row> expected = new ArrayList<>();
      inserts.forEach(insert -> expected.add(Row.ofKind(RowKind.INSERT, insert.row().toArray())));
      expected.add(Row.ofKind(RowKind.DELETE, 7L, "p3", null, null));
      expected.add(Row.ofKind(RowKind.UPDATE_AFTER, 8L, "p0", 81L, "t8"));
      List<Row> served = take(it, expected.size());
      assertRows("the pinned version as +I, then the changes before the rewrite once; the rewrite serves nothing",
          served, expected);
      served.forEach(row -> KeyedRounds.apply(copy, row)); // in the order served: a key's rows keep theirs
      expectedTable.remove(List.of(7L, "p3"));
      expectedTable.put(List.of(8L, "p0"), Arrays.asList(8L, "p0", 81L, "t8"));
      assertTable("the copy after the changes", copy, expectedTable);

      KeyedRounds.commit(url, List.of(new KeyedRounds.Change(RowKind.INSERT, Arrays.asList(7L, "p3", 7L, "again"))));
      assertThat(take(it, 1)).as("the next commit's row comes next, nothing else")
          .containsExactly(Row.ofKind(RowKind.UPDATE_AFTER, 7L, "p3", 7L, "again"));
    }
    expectedTable.put(List.of(7L, "p3"), Arrays.asList(7L, "p3", 7L, "again"));
    assertTable("the dataset read bounded", read(url), expectedTable);
  }

  /** The dataset's latest state, read bounded in process, by key {@code [k, p]}. */
  private Map<List<Object>, List<Object>> read(String url) throws Exception {
    Map<List<Object>, List<Object>> table = new HashMap<>();
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      new CubeReader(store, PlainDatasetSnapshot.latest(store, KeyedRounds.DATASET)
          .plan(COLUMNS.toCubeQuery()))
          .rows().forEachRemaining(row -> table.put(row.subList(0, 2), row));
    }
    return table;
  }
}
