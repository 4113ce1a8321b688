package io.ktk.flink.sink.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.compaction.CompactionResult.Outcome;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import io.ktk.flink.state.testing.ForwardingObjectStore;
import io.ktk.flink.state.testing.S3Proxy;
import io.ktk.flink.state.testing.TestDataset;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Compaction of a plain dataset on a local directory and on S3: rows, order, index and the log after a rewrite. */
class CompactorTest {
  static final Schema SCHEMA = new Schema(List.of(
      TestDataset.field("p", ArrowType.Utf8.INSTANCE),
      TestDataset.field("id", new ArrowType.Int(64, true)),
      TestDataset.field("c", new ArrowType.Int(64, true)),
      TestDataset.field("v", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      TestDataset.field("s", ArrowType.Utf8.INSTANCE),
      TestDataset.field("ts", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null))));

  @RegisterExtension static final S3Proxy S3 = S3Proxy.inMemory();

  @TempDir Path dir;

  static List<Object> row(long id) {
    return Arrays.asList("p" + (id % 2), id, id % 7, id % 10 == 0 ? null : id * 0.5,
        id % 5 == 0 ? null : "s" + (id % 13), LocalDateTime.of(2024, 1, 1, 0, 0).plusNanos(id * 1000));
  }

  static List<List<Object>> rows(long from, long to) {
    List<List<Object>> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(row(id));
    }
    return rows;
  }

  @Test
  void rewritesEachPartitionsSmallFilesIntoOneHoldingTheSameRowsInTheSameOrder() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      rewritesSmallFiles(store, CompactionSettings.defaults());
    }
  }

  @Test
  void rewritesOnS3WithSeveralThreads() throws Exception {
    try (ObjectStore store = ObjectStores.open(S3.url("compaction"), S3.options())) {
      rewritesSmallFiles(store, CompactionSettings.defaults().withParallelism(2));
    }
    assertThat(S3.pendingUploads()).isEmpty();
  }

  private static void rewritesSmallFiles(ObjectStore store, CompactionSettings settings) throws Exception {
    TestDataset dataset = new TestDataset(store, "events", SCHEMA, List.of("p"), List.of("c"));
    for (int append = 0; append < 10; append++) {
      dataset.append(rows(append * 100L, append * 100L + 100));
    }
    List<List<Object>> before = dataset.rows();
    long versionBefore = dataset.state().version();

    Compactor compactor = Compactor.of(store, "events", settings);
    CompactionPlan plan = compactor.plan();
    assertThat(plan.rewrites()).extracting(PartitionRewrite::partition).containsExactly("p=p0", "p=p1");
    CompactionResult result = compactor.compact(plan);

    assertThat(result.partitions()).allSatisfy(partition -> {
      assertThat(partition.outcome()).isEqualTo(Outcome.COMMITTED);
      assertThat(partition.filesIn()).isEqualTo(10);
      assertThat(partition.filesOut()).isEqualTo(1);
      assertThat(partition.rowsOut()).isEqualTo(500);
    });
    DatasetState state = dataset.state();
    assertThat(state.version()).isEqualTo(versionBefore + 1);
    assertThat(state.files()).hasSize(2);
    assertThat(dataset.rows()).isEqualTo(before);
    for (DataFile file : state.files().values()) {
      assertThat(state.addedIn(file.label())).as("sequence of %s", file).isEqualTo(versionBefore);
    }
    assertIndexListsExactlyTheFilesHoldingEachValue(dataset, "c");
  }

  /**
   * The store writes the rewrite's log entry, then fails with an unchecked exception instead of
   * answering: the log lists the new files, so they must stay (deleting them would lose the
   * partitions' rows), and the compaction counts as committed.
   */
  @Test
  void aCommitThatLandedBeforeTheStoreFailedKeepsItsFiles() throws Exception {
    try (LocalObjectStore local = new LocalObjectStore(dir)) {
      TestDataset dataset = new TestDataset(local, "events", SCHEMA, List.of("p"), List.of("c"));
      for (int append = 0; append < 10; append++) {
        dataset.append(rows(append * 100L, append * 100L + 100));
      }
      List<List<Object>> before = dataset.rows();
      long versionBefore = dataset.state().version();
      ObjectStore failing = new ForwardingObjectStore(local) {
        @Override
        public boolean putIfAbsent(String key, byte[] data) throws java.io.IOException {
          boolean created = delegate.putIfAbsent(key, data);
          if (key.endsWith(String.format("/_ktk_log/%020d.json", versionBefore + 1))) {
            throw new IllegalStateException("injected: the store failed after creating " + key);
          }
          return created;
        }
      };
      Compactor compactor = Compactor.of(failing, "events", CompactionSettings.defaults());
      CompactionResult result = compactor.compact(compactor.plan());

      assertThat(result.partitions()).extracting(CompactionResult.PartitionResult::outcome)
          .containsOnly(Outcome.COMMITTED);
      DatasetState state = dataset.state();
      assertThat(state.version()).isEqualTo(versionBefore + 1);
      for (DataFile file : state.files().values()) {
        assertThat(local.head(file.key(dataset.uuid))).as("file %s of the latest version", file.label()).isPresent();
      }
      assertThat(dataset.rows()).isEqualTo(before);
    }
  }

  /** Reads every file and compares the values found with the committed index of {@code column}. */
  static void assertIndexListsExactlyTheFilesHoldingEachValue(TestDataset dataset, String column) throws Exception {
    DatasetState state = dataset.state();
    Map<IndexValue, Set<String>> found = new HashMap<>();
    for (DataFile file : state.files().values()) {
      try (ParquetRowsReader reader = ParquetRowsReader.open(dataset.store, file.key(dataset.uuid))) {
        for (List<Object> row : reader.readAll(List.of(column))) {
          if (row.get(0) != null) {
            found.computeIfAbsent(IndexValue.of(row.get(0)), v -> new HashSet<>()).add(file.label());
          }
        }
      }
    }
    Map<IndexValue, List<String>> index = state.index(column);
    assertThat(index.keySet()).containsExactlyInAnyOrderElementsOf(found.keySet());
    found.forEach((value, labels) ->
        assertThat(index.get(value)).as("files of %s = %s", column, value).containsExactlyInAnyOrderElementsOf(labels));
  }
}
