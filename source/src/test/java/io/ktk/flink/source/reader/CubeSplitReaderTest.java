package io.ktk.flink.source.reader;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.planner.PlainDatasetSnapshot;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.QuerySettings;
import io.ktk.flink.source.query.QueryTarget;
import io.ktk.flink.source.split.CubeSplit;
import io.ktk.flink.source.split.CubeSplits;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.types.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The split reader returns a group's rows partition by partition (of a plain dataset: a file's rows
 * as stored) and skips what a restored split emitted.
 */
class CubeSplitReaderTest {
  private static final Field P = field("p", new ArrowType.Int(64, true));
  private static final Field Q = field("q", new ArrowType.Int(64, true));
  private static final Field X = field("x", new ArrowType.Int(64, true));

  @TempDir Path dir;

  private static List<List<Object>> readAll(CubeSplitReader<Row> reader, CubeSplit split) throws Exception {
    reader.handleSplitsChanges(new SplitsAddition<>(List.of(split)));
    List<List<Object>> rows = new ArrayList<>();
    while (true) {
      RecordsWithSplitIds<Row> batch = reader.fetch();
      String id;
      while ((id = batch.nextSplit()) != null) {
        assertThat(id).isEqualTo(split.splitId());
        Row row;
        while ((row = batch.nextRecordFromSplit()) != null) {
          List<Object> values = new ArrayList<>();
          for (int i = 0; i < row.getArity(); i++) {
            values.add(row.getField(i));
          }
          rows.add(values);
        }
      }
      if (batch.finishedSplits().contains(split.splitId())) {
        return rows;
      }
    }
  }

  @Test
  void aRestoredSplitSkipsTheRowsItEmittedAcrossPartitions() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    CubeFixture cube = new CubeFixture(store, new CubeSpec("c", List.of("x"), List.of("p", "q"), "seed", new TreeSet<>()));
    List<List<Object>> rows = new ArrayList<>();
    for (long q = 0; q < 3; q++) {
      for (long x = 0; x < 4; x++) {
        rows.add(Arrays.asList(1L, q, x));
      }
    }
    cube.dataset("seed", new Schema(List.of(P, Q, X)), "x").commit(rows);
    CubeQuery query = CubeQuery.builder().partitionBy("p").build();
    CubeSnapshot snapshot = CubeSnapshot.latest(store, "c");
    QueryPlan plan = snapshot.plan(query);
    assertThat(plan.groups()).hasSize(1);
    assertThat(plan.groups().get(0).partitions()).hasSize(3);
    CubeSplit split = new CubeSplit("group-00000", snapshot.versions(), plan.groups().get(0), 0);
    QuerySettings settings = new QuerySettings(dir.toUri().toString(), Map.of(), "c", query);

    List<List<Object>> all;
    try (CubeSplitReader<Row> reader = new CubeSplitReader<>(settings, RecordFormat.ROWS, new SimpleCounter())) {
      all = readAll(reader, split);
    }
    List<List<Object>> rest;
    try (CubeSplitReader<Row> reader = new CubeSplitReader<>(settings, RecordFormat.ROWS, new SimpleCounter())) {
      rest = readAll(reader, split.withEmittedRows(6));
    }

    assertThat(all).hasSize(12).isEqualTo(rows);
    assertThat(rest).isEqualTo(all.subList(6, 12));
  }

  /** A plain dataset: 1 partition, 2 files of 3000 rows, row groups of 500 rows. */
  @Test
  void aRestoredSplitOfAPlainDatasetSkipsTheRowsItEmittedAndThePrunedGroupsAreCounted() throws Exception {
    LocalObjectStore store = new LocalObjectStore(dir);
    CubeFixture fixture = new CubeFixture(store, new CubeSpec("c", List.of("x"), List.of("p"), "events",
        new TreeSet<>()));
    CubeFixture.DatasetWriter events = fixture.dataset("events", new Schema(List.of(P, X,
        field("s", ArrowType.Utf8.INSTANCE))), "x").rowsPerGroup(500);
    for (int commit = 0; commit < 2; commit++) {
      List<List<Object>> rows = new ArrayList<>();
      for (long x = 0; x < 3000; x++) {
        rows.add(Arrays.asList(0L, x, x % 7 == 0 ? null : "s" + (x % 13)));
      }
      events.commit(rows);
    }
    CubeQuery query = DatasetQuery.builder().where("x >= 1200 and s == 's5'").columns("x").build().toCubeQuery();
    PlainDatasetSnapshot snapshot = PlainDatasetSnapshot.latest(store, "c++events");
    List<CubeSplit> splits = CubeSplits.of(snapshot.plan(query), "", 16, 1);
    assertThat(splits).extracting(CubeSplit::splitId).containsExactly("file-000000", "file-000001");
    CubeSplit split = splits.get(0);
    QuerySettings settings = new QuerySettings(dir.toUri().toString(), Map.of(), QueryTarget.dataset("c++events"),
        query);

    SimpleCounter pruned = new SimpleCounter();
    List<List<Object>> all;
    try (CubeSplitReader<Row> reader = new CubeSplitReader<>(settings, RecordFormat.ROWS, pruned)) {
      all = readAll(reader, split);
    }
    List<List<Object>> rest;
    try (CubeSplitReader<Row> reader = new CubeSplitReader<>(settings, RecordFormat.ROWS, new SimpleCounter())) {
      rest = readAll(reader, split.withEmittedRows(50));
    }

    assertThat(all).hasSizeGreaterThan(60).allSatisfy(row -> assertThat((Long) row.get(0)).isGreaterThanOrEqualTo(1200));
    assertThat(rest).isEqualTo(all.subList(50, all.size()));
    assertThat(pruned.getCount()).as("row groups of x < 1200").isEqualTo(2);
  }
}
