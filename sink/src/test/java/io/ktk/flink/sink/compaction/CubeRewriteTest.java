package io.ktk.flink.sink.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.compaction.CompactionResult.Outcome;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.TestDataset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Last written wins across a rewrite of a cube dataset: a cell written in versions 1, 2 and 3
 * keeps version 3's value when versions 1 and 2 are compacted (the output's sequence keeps it below
 * version 3's file), and when everything is; the rows a later row of the same cell supersedes are
 * dropped from the rewritten files.
 */
class CubeRewriteTest {
  private static final Schema SCHEMA = new Schema(List.of(
      TestDataset.field("p", ArrowType.Utf8.INSTANCE),
      TestDataset.field("x", new ArrowType.Int(64, true)),
      TestDataset.field("v", ArrowType.Utf8.INSTANCE)));
  private static final int FILLER = 20_000;

  @TempDir Path dir;

  private static List<List<Object>> cells(String value, long... xs) {
    List<List<Object>> rows = new ArrayList<>();
    for (long x : xs) {
      rows.add(Arrays.asList("a", x, value + "-" + x));
    }
    return rows;
  }

  /** Rows of many other cells from {@code first} on (making the file large), then {@code extra}. */
  private static List<List<Object>> large(String value, long first, List<List<Object>> extra) {
    List<List<Object>> rows = new ArrayList<>();
    for (long x = first; x < first + FILLER; x++) {
      rows.add(Arrays.asList("a", x, value + "-filler-" + x + "-" + "z".repeat(20)));
    }
    rows.addAll(extra);
    return rows;
  }

  /** The cube readers' answer: per cell, the row read last in read order (the reader rule, applied here). */
  private static Map<Long, String> answer(TestDataset dataset) throws Exception {
    Map<Long, String> cells = new LinkedHashMap<>();
    for (List<Object> row : dataset.rows()) {
      cells.put((Long) row.get(1), (String) row.get(2));
    }
    return cells;
  }

  private static List<List<Object>> fileRows(TestDataset dataset, DataFile file) throws Exception {
    try (ParquetRowsReader reader = ParquetRowsReader.open(dataset.store, file.key(dataset.uuid))) {
      return reader.readAll(List.of("x", "v"));
    }
  }

  @Test
  void aCellKeepsItsNewestValueWhenOlderVersionsAreCompactedAndWhenAllAre() throws Exception {
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      TestDataset dataset = new TestDataset(store, "c++seed", SCHEMA, List.of("p"), List.of("x"))
          .cube(List.of("x"), List.of("p"));
      DataFile v0 = dataset.append(large("v0", 1000, cells("v0", 1, 2, 3))).get(0);
      DataFile v1 = dataset.append(cells("v1", 1, 2, 1)).get(0); // a cell twice in one file: the later row wins
      DataFile v2 = dataset.append(cells("v2", 1, 4)).get(0);
      DataFile v3 = dataset.append(large("v3", 100_000, cells("v3", 1))).get(0);
      Map<Long, String> before = answer(dataset);
      assertThat(before).containsEntry(1L, "v3-1").containsEntry(2L, "v1-2").containsEntry(4L, "v2-4");

      // v0 and v3 are large: only v1 and v2 are small, and they are compacted
      long smallEnough = Math.max(v1.bytes(), v2.bytes()) + 1;
      long large = Math.min(v0.bytes(), v3.bytes());
      assertThat(smallEnough).isLessThan(large);
      CompactionSettings olderOnly = CompactionSettings.defaults().withMinInputFiles(2)
          .withTargetFileSize((long) (smallEnough / 0.75) + 1);
      Compactor compactor = Compactor.of(store, "c++seed", olderOnly);
      CompactionPlan plan = compactor.plan();
      assertThat(plan.rewrites().get(0).inputs()).extracting(CompactionInput::label)
          .containsExactly(v1.label(), v2.label());
      CompactionResult result = compactor.compact(plan);

      assertThat(result.partitions()).singleElement().satisfies(partition -> {
        assertThat(partition.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(partition.rowsIn()).isEqualTo(5);
        assertThat(partition.rowsOut()).isEqualTo(3); // x=1 of v1 (twice) superseded by x=1 of v2
      });
      DatasetState state = dataset.state();
      DataFile output = state.files().values().stream()
          .filter(file -> !List.of(v0.label(), v3.label()).contains(file.label())).findFirst().orElseThrow();
      assertThat(state.addedIn(output.label())).as("sequence: v2's version").isEqualTo(2);
      assertThat(fileRows(dataset, output)).containsExactly(List.of(2L, "v1-2"), List.of(1L, "v2-1"),
          List.of(4L, "v2-4"));
      assertThat(answer(dataset)).isEqualTo(before);

      // everything small: one file with the newest row of each cell
      Compactor all = Compactor.of(store, "c++seed", CompactionSettings.defaults().withMinInputFiles(2));
      CompactionResult allResult = all.compact(all.plan());
      assertThat(allResult.partitions()).singleElement().satisfies(partition -> {
        assertThat(partition.outcome()).isEqualTo(Outcome.COMMITTED);
        assertThat(partition.filesIn()).isEqualTo(3);
        assertThat(partition.rowsOut()).isEqualTo(2L * FILLER + 4);
      });
      DatasetState compacted = dataset.state();
      assertThat(compacted.files()).hasSize(1);
      DataFile single = compacted.files().values().iterator().next();
      assertThat(compacted.addedIn(single.label())).isEqualTo(3);
      List<List<Object>> rows = fileRows(dataset, single);
      assertThat(rows.stream().filter(row -> row.get(0).equals(1L)).toList()).containsExactly(List.of(1L, "v3-1"));
      assertThat(answer(dataset)).isEqualTo(before);
      CompactorTest.assertIndexListsExactlyTheFilesHoldingEachValue(dataset, "x");
    }
  }
}
