package io.ktk.flink.sink.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.sink.compaction.CompactionResult.Outcome;
import io.ktk.flink.state.commit.ChangeFiles;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.commit.PlateauPublisher;
import io.ktk.flink.state.metadata.DatasetMetadata;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.TestDataset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rewrites of a dataset with a primary key ({@code docs/cdc.md}): the fold before a publication
 * turns a partition's change files into one file with the last row of each key and no deleted key;
 * compaction merges by key too, and drops deletes only in an output that starts at the partition's
 * oldest file (an older file could still hold the key otherwise).
 */
class KeyedRewriteTest {
  private static final Schema SCHEMA = new Schema(List.of(
      TestDataset.field("p", ArrowType.Utf8.INSTANCE),
      TestDataset.field("k", new ArrowType.Int(64, true)),
      TestDataset.field("v", ArrowType.Utf8.INSTANCE)));

  @TempDir Path dir;

  private static List<Object> upsert(String p, long k, String v) {
    return Arrays.asList(p, k, v, false);
  }

  private static List<Object> delete(String p, long k) {
    return Arrays.asList(p, k, null, true);
  }

  private static TestDataset dataset(LocalObjectStore store) throws Exception {
    return new TestDataset(store, "keyed", SCHEMA, List.of("p"), List.of()).primaryKey(List.of("k", "p"));
  }

  /** What this project's readers answer: per partition and key, the last row in read order unless it deletes. */
  private static Map<String, String> merged(TestDataset dataset) throws Exception {
    Map<String, String> table = new TreeMap<>();
    DatasetState state = dataset.state();
    for (String partition : state.files().values().stream().map(DataFile::physicalPartition).distinct().toList()) {
      for (DataFile file : dataset.filesInReadOrder(partition)) {
        for (List<Object> row : rows(dataset, file)) {
          String key = partition + "/" + row.get(0);
          if (row.size() > 2 && Boolean.TRUE.equals(row.get(2))) {
            table.remove(key);
          } else {
            table.put(key, (String) row.get(1));
          }
        }
      }
    }
    return table;
  }

  private static List<List<Object>> rows(TestDataset dataset, DataFile file) throws Exception {
    try (ParquetRowsReader reader = ParquetRowsReader.open(dataset.store, file.key(dataset.uuid))) {
      List<String> columns = new ArrayList<>(List.of("k", "v"));
      if (reader.parquetSchema().containsField(PrimaryKey.DELETED_COLUMN)) {
        columns.add(PrimaryKey.DELETED_COLUMN);
      }
      return reader.readAll(columns);
    }
  }

  private static boolean hasDeletedColumn(DataFile file) {
    return file.physicalSchema().getFields().stream().anyMatch(f -> f.getName().equals(PrimaryKey.DELETED_COLUMN));
  }

  @Test
  void theFoldKeepsTheLastRowOfEachKeyAndNoDeletedKey() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      TestDataset dataset = dataset(store);
      Schema changes = dataset.changeSchema();
      dataset.append(changes, List.of(upsert("a", 1, "a1"), upsert("a", 2, "a2"), upsert("a", 3, "a3"),
          upsert("b", 1, "b1")));
      dataset.append(changes, List.of(upsert("a", 1, "a1'"), delete("a", 2), upsert("a", 1, "a1''")));
      dataset.append(changes, List.of(delete("a", 3), upsert("a", 3, "a3'"), upsert("a", 4, "a4"), delete("a", 4),
          delete("a", 9)));
      Map<String, String> before = merged(dataset);
      assertThat(before).isEqualTo(Map.of("p=a/1", "a1''", "p=a/3", "a3'", "p=b/1", "b1"));

      DatasetState base = dataset.state();
      CompactionPlan plan = CompactionPlanner.planFold(base);
      assertThat(plan.rewrites()).extracting(PartitionRewrite::partition).containsExactlyInAnyOrder("p=a", "p=b");
      assertThat(plan.rewrites()).allSatisfy(rewrite -> {
        assertThat(rewrite.trigger()).isEqualTo(PartitionRewrite.Trigger.FOLD);
        assertThat(rewrite.outputs()).singleElement().satisfies(output -> assertThat(output.fromOldest()).isTrue());
      });
      CompactionResult result = Compactor.of(store, "keyed", CompactionSettings.defaults()).compact(plan);
      assertThat(result.partitions()).allSatisfy(partition -> assertThat(partition.outcome()).isEqualTo(Outcome.COMMITTED));

      DatasetState folded = dataset.state();
      assertThat(folded.files().values()).hasSize(2).noneMatch(KeyedRewriteTest::hasDeletedColumn)
          .noneMatch(ChangeFiles::isChangeFile);
      DataFile a = folded.files().values().stream().filter(f -> f.physicalPartition().equals("p=a")).findFirst()
          .orElseThrow();
      assertThat(rows(dataset, a)).containsExactly(List.of(1L, "a1''"), List.of(3L, "a3'"));
      assertThat(folded.addedIn(a.label())).as("the fold's sequence: the newest version folded").isEqualTo(2);
      assertThat(merged(dataset)).isEqualTo(before);
      assertThat(CompactionPlanner.planFold(folded).isEmpty()).as("nothing left to fold").isTrue();
    }
  }

  @Test
  void compactionKeepsDeletesUnlessItsRunStartsAtThePartitionsOldestFile() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      TestDataset dataset = dataset(store);
      Schema changes = dataset.changeSchema();
      List<List<Object>> large = new ArrayList<>();
      for (long k = 0; k < 20_000; k++) {
        large.add(upsert("a", k, "v0-" + k + "-" + "z".repeat(20)));
      }
      DataFile v0 = dataset.append(changes, large).get(0);
      dataset.append(changes, List.of(delete("a", 1), upsert("a", 2, "v1-2")));
      dataset.append(changes, List.of(upsert("a", 2, "v2-2"), delete("a", 3)));
      DataFile v3 = dataset.append(changes, List.of(upsert("a", 1, "v3-1"))).get(0);
      Map<String, String> before = merged(dataset);
      long small = v3.bytes() * 4;
      assertThat(small).isLessThan(v0.bytes());

      // v0 is large: the run of v1..v3 does not start at the oldest file, and v0 still holds keys 1 and 3
      CompactionSettings newerOnly = CompactionSettings.defaults().withMinInputFiles(2)
          .withTargetFileSize((long) (small / 0.75) + 1);
      Compactor compactor = Compactor.of(store, "keyed", newerOnly);
      CompactionPlan plan = compactor.plan();
      assertThat(plan.rewrites()).singleElement().satisfies(rewrite -> assertThat(rewrite.outputs()).singleElement()
          .satisfies(output -> assertThat(output.fromOldest()).isFalse()));
      assertThat(compactor.compact(plan).partitions()).allSatisfy(p -> assertThat(p.outcome()).isEqualTo(Outcome.COMMITTED));
      DataFile output = dataset.state().files().values().stream().filter(f -> !f.label().equals(v0.label()))
          .findFirst().orElseThrow();
      assertThat(hasDeletedColumn(output)).as("a change file still").isTrue();
      assertThat(rows(dataset, output)).containsExactly(List.of(2L, "v2-2", false), Arrays.asList(3L, null, true),
          List.of(1L, "v3-1", false));
      assertThat(merged(dataset)).isEqualTo(before);

    }
  }

  @Test
  void compactionFromThePartitionsOldestFileDropsDeletes() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      TestDataset dataset = dataset(store);
      Schema changes = dataset.changeSchema();
      dataset.append(changes, List.of(upsert("a", 1, "v0-1"), upsert("a", 2, "v0-2"), upsert("a", 3, "v0-3")));
      dataset.append(changes, List.of(delete("a", 1), upsert("a", 2, "v1-2")));
      dataset.append(changes, List.of(delete("a", 3), delete("a", 7)));
      dataset.append(changes, List.of(upsert("a", 1, "v3-1")));
      Map<String, String> before = merged(dataset);

      Compactor all = Compactor.of(store, "keyed", CompactionSettings.defaults().withMinInputFiles(2));
      CompactionPlan plan = all.plan();
      assertThat(plan.rewrites()).singleElement().satisfies(rewrite -> assertThat(rewrite.outputs()).singleElement()
          .satisfies(output -> assertThat(output.fromOldest()).isTrue()));
      assertThat(all.compact(plan).partitions()).allSatisfy(p -> assertThat(p.outcome()).isEqualTo(Outcome.COMMITTED));
      DatasetState compacted = dataset.state();
      assertThat(compacted.files()).hasSize(1);
      DataFile single = compacted.files().values().iterator().next();
      assertThat(hasDeletedColumn(single)).as("no change file: it holds the partition's state").isFalse();
      assertThat(rows(dataset, single)).containsExactly(List.of(2L, "v1-2"), List.of(1L, "v3-1"));
      assertThat(merged(dataset)).isEqualTo(before);
    }
  }

  @Test
  void theViewOfADatasetWithAKeyIsPublishedFoldedAndNeverWithChangeFiles() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      TestDataset dataset = dataset(store);
      Schema changes = dataset.changeSchema();
      dataset.append(changes, List.of(upsert("a", 1, "a1"), upsert("a", 2, "a2")));
      dataset.append(changes, List.of(delete("a", 1), upsert("a", 2, "a2'")));
      long version = dataset.state().version();

      CommitLog log = CommitLog.open(store, "keyed", CommitLogOptions.DEFAULTS);
      assertThatThrownBy(log::publish).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("dataset 'keyed'").hasMessageContaining("has a primary key and lists change files");

      assertThat(ViewFold.publish(log, CompactionSettings.defaults())).isEqualTo(version);
      DatasetMetadata view = DatasetMetadata.load(store, "keyed").orElseThrow();
      assertThat(view.metadata().get(PlateauPublisher.LOG_VERSION_KEY).asLong())
          .as("the view shows the state of the version folded").isEqualTo(version);
      DatasetState latest = dataset.state();
      assertThat(latest.version()).as("the fold's rewrite").isEqualTo(version + 1);
      assertThat(view.fileKeys()).hasSize(1).containsOnlyKeys(latest.files().keySet());
      DataFile folded = latest.files().values().iterator().next();
      assertThat(rows(dataset, folded)).containsExactly(List.of(2L, "a2'"));

      // nothing to fold: the view of the latest version is published as it is
      assertThat(ViewFold.publish(log, CompactionSettings.defaults())).isEqualTo(version + 1);
      assertThat(DatasetMetadata.load(store, "keyed").orElseThrow().metadata().get(PlateauPublisher.LOG_VERSION_KEY)
          .asLong()).isEqualTo(version + 1);
    }
  }
}
