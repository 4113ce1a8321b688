package io.ktk.flink.sink.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.compaction.CompactionResult.Outcome;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.LogReader;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.ForwardingObjectStore;
import io.ktk.flink.state.testing.TestDataset;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rewrite against writers and other compactions working at the same time: appends commute with
 * it, a second rewrite of the same files loses and leaves nothing behind, a failed rewrite commits
 * nothing and deletes what it wrote.
 */
class ConcurrentRewriteTest {
  private static final CompactionSettings SETTINGS = CompactionSettings.defaults().withMinInputFiles(2);

  @TempDir Path dir;
  private LocalObjectStore store;
  private TestDataset dataset;

  @BeforeEach
  void writeSmallFiles() throws IOException {
    store = new LocalObjectStore(dir);
    dataset = new TestDataset(store, "events", CompactorTest.SCHEMA, List.of("p"), List.of("c"));
    for (int append = 0; append < 4; append++) {
      dataset.append(CompactorTest.rows(append * 50L, append * 50L + 50));
    }
  }

  /** A store that runs {@code action} once, when the first data file is created through it. */
  private static ObjectStore onFirstDataFile(ObjectStore store, IoAction action) {
    AtomicBoolean done = new AtomicBoolean();
    return new ForwardingObjectStore(store) {
      @Override
      public ObjectOutputStream create(String key) throws IOException {
        if (key.contains("/table/") && done.compareAndSet(false, true)) {
          action.run();
        }
        return super.create(key);
      }
    };
  }

  @FunctionalInterface
  private interface IoAction {
    void run() throws IOException;
  }

  @Test
  void anAppendCommittedWhileTheRewriteIsWrittenCommutesWithIt() throws Exception {
    List<List<Object>> before = dataset.rows();
    List<DataFile> appended = new ArrayList<>();
    ObjectStore racing = onFirstDataFile(store, () -> appended.addAll(dataset.append(CompactorTest.rows(200, 260))));
    Compactor compactor = Compactor.of(racing, "events", SETTINGS);
    CompactionPlan plan = compactor.plan();

    CompactionResult result = compactor.compact(plan);

    assertThat(result.partitions()).allSatisfy(p -> assertThat(p.outcome()).isEqualTo(Outcome.COMMITTED));
    DatasetState state = dataset.state();
    assertThat(appended).hasSize(2);
    assertThat(state.files().keySet()).containsAll(appended.stream().map(DataFile::label).toList());
    assertThat(state.files()).hasSize(4); // one output and the appended file per partition
    // The appended rows come after the rewritten ones: the append's version is above the outputs' sequence.
    List<List<Object>> expected = new ArrayList<>();
    for (String partition : List.of("p=p0", "p=p1")) {
      before.stream().filter(row -> row.get(0).equals(partition)).forEach(expected::add);
      CompactorTest.rows(200, 260).stream().filter(row -> ("p=" + row.get(0)).equals(partition))
          .map(row -> withPartitionPath(partition, row)).forEach(expected::add);
    }
    assertThat(dataset.rows()).isEqualTo(expected);
    CompactorTest.assertIndexListsExactlyTheFilesHoldingEachValue(dataset, "c");
  }

  @Test
  void aSecondRewriteOfTheSameFilesLosesAndLeavesNoTrace() throws Exception {
    Set<String> filesBefore = dataFiles();
    Compactor first = Compactor.of(store, "events", SETTINGS);
    CompactionPlan firstPlan = first.plan();
    List<CompactionResult> firstResult = new ArrayList<>();
    // the second compactor plans the same files, and the first one commits while it writes
    ObjectStore racing = onFirstDataFile(store, () -> firstResult.add(first.compact(firstPlan)));
    Compactor second = Compactor.of(racing, "events", SETTINGS);
    CompactionPlan secondPlan = second.plan();
    assertThat(secondPlan.inputFiles()).isEqualTo(firstPlan.inputFiles());

    CompactionResult result = second.compact(secondPlan);

    assertThat(firstResult).singleElement().satisfies(r -> assertThat(r.notCommitted()).isEmpty());
    long firstVersion = firstResult.get(0).partitions().get(0).version();
    assertThat(result.partitions()).allSatisfy(partition -> {
      assertThat(partition.outcome()).isEqualTo(Outcome.CONFLICT);
      assertThat(partition.message()).contains("is no longer part of it");
    });
    assertThat(new LogReader(store, "events").latest().version()).isEqualTo(firstVersion);
    Set<String> expected = new HashSet<>(filesBefore);
    dataset.state().files().values().forEach(file -> expected.add(file.key("events")));
    assertThat(dataFiles()).isEqualTo(expected); // the old files (for GC) and the first's outputs, nothing else
  }

  @Test
  void aRewriteThatFailsCommitsNothingAndDeletesWhatItWrote() throws Exception {
    Set<String> filesBefore = dataFiles();
    long version = dataset.state().version();
    List<List<Object>> rows = dataset.rows();
    String failing = dataset.filesInReadOrder("p=p1").get(2).key("events");
    ObjectStore faulty = new ForwardingObjectStore(store) {
      @Override
      public byte[] getRange(String key, long offset, int length) throws IOException {
        if (key.equals(failing)) {
          throw new IOException("injected failure: getRange " + key);
        }
        return super.getRange(key, offset, length);
      }
    };
    Compactor compactor = Compactor.of(faulty, "events", SETTINGS);

    CompactionResult result = compactor.compact(compactor.plan());

    // both partitions were in one batch: p=p0 was written, p=p1 failed, neither was committed
    assertThat(result.partitions()).hasSize(2).allSatisfy(partition -> {
      assertThat(partition.outcome()).isEqualTo(Outcome.FAILED);
      assertThat(partition.message()).contains("injected failure");
    });
    assertThat(dataset.state().version()).isEqualTo(version);
    assertThat(dataFiles()).isEqualTo(filesBefore);
    assertThat(dataset.rows()).isEqualTo(rows);
  }

  /**
   * Garbage collection deletes an output of a rewrite that took longer than its safety age (it is
   * unreferenced until the commit): the rewrite must not commit, or the rows of its inputs would be
   * lost with the output.
   */
  @Test
  void aRewriteWhoseOutputIsCollectedBeforeItsCommitCommitsNothing() throws Exception {
    long version = dataset.state().version();
    List<List<Object>> rows = dataset.rows();
    List<String> outputs = new ArrayList<>();
    ObjectStore collecting = new ForwardingObjectStore(store) {
      @Override
      public ObjectOutputStream create(String key) throws IOException {
        if (key.contains("/table/")) {
          outputs.add(key);
          if (outputs.size() == 2) {
            store.delete(outputs.get(0)); // the collector takes the first output while the second is written
          }
        }
        return super.create(key);
      }
    };
    Compactor compactor = Compactor.of(collecting, "events", SETTINGS);

    CompactionResult result = compactor.compact(compactor.plan());

    assertThat(outputs).hasSize(2);
    assertThat(result.partitions()).hasSize(2).allSatisfy(partition -> {
      assertThat(partition.outcome()).isEqualTo(Outcome.FAILED);
      assertThat(partition.message()).contains("was deleted before the commit");
    });
    assertThat(dataset.state().version()).isEqualTo(version);
    assertThat(dataset.rows()).isEqualTo(rows);
  }

  private Set<String> dataFiles() throws IOException {
    Set<String> keys = new HashSet<>();
    for (Iterator<ObjectInfo> it = store.list("events/table/"); it.hasNext(); ) {
      String key = it.next().key();
      if (key.endsWith(".parquet")) {
        keys.add(key);
      }
    }
    return keys;
  }

  private static List<Object> withPartitionPath(String partition, List<Object> row) {
    List<Object> result = new ArrayList<>();
    result.add(partition);
    result.addAll(row.subList(1, row.size()));
    return result;
  }
}
