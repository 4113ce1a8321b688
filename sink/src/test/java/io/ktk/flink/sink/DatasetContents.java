package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rows of a dataset's latest version, read with this project's reader (DatasetSnapshot and
 * ParquetRowsReader), and the checks the sink tests make on them.
 */
final class DatasetContents {
  /** A row of the test data as read: partition value, file label and the data columns. */
  record Row(String p, String label, long id, Long c, Double v, String s, LocalDateTime ts) {}

  private final DatasetSnapshot snapshot;
  private final List<Row> rows;

  private DatasetContents(DatasetSnapshot snapshot, List<Row> rows) {
    this.snapshot = snapshot;
    this.rows = rows;
  }

  static DatasetContents read(ObjectStore store, String uuid) throws IOException {
    DatasetSnapshot snapshot = DatasetSnapshot.latest(store, uuid);
    List<Row> rows = new ArrayList<>();
    for (Partition partition : snapshot.partitions()) {
      String p = (String) partition.values().get(0);
      for (DataFile file : partition.files()) {
        try (ParquetRowsReader reader = ParquetRowsReader.open(store, file.key(uuid))) {
          assertThat(reader.rowCount()).as("rows of %s", file).isEqualTo(file.rows());
          for (List<Object> row : reader.readAll(List.of("id", "c", "v", "s", "ts"))) {
            rows.add(new Row(p, file.label(), (Long) row.get(0), (Long) row.get(1), (Double) row.get(2),
                (String) row.get(3), (LocalDateTime) row.get(4)));
          }
        }
      }
    }
    return new DatasetContents(snapshot, rows);
  }

  DatasetSnapshot snapshot() {
    return snapshot;
  }

  List<Row> rows() {
    return rows;
  }

  /** Asserts that the dataset holds rows {@code 0 .. count - 1}, each once, with its own values. */
  void assertExactlyOnce(long count) {
    int[] seen = new int[Math.toIntExact(count)];
    List<String> problems = new ArrayList<>();
    for (Row row : rows) {
      if (row.id() < 0 || row.id() >= count) {
        problems.add("unexpected id " + row.id());
        continue;
      }
      seen[(int) row.id()]++;
      Row expected = new Row(TestRows.p(row.id()), row.label(), row.id(), TestRows.c(row.id()), TestRows.v(row.id()),
          TestRows.s(row.id()), TestRows.ts(row.id()));
      if (!row.equals(expected) && problems.size() < 20) {
        problems.add("row " + row + " should be " + expected);
      }
    }
    int missing = 0;
    int duplicated = 0;
    for (int id = 0; id < seen.length; id++) {
      if (seen[id] == 0) {
        missing++;
        if (problems.size() < 20) {
          problems.add("missing id " + id);
        }
      } else if (seen[id] > 1) {
        duplicated++;
        if (problems.size() < 20) {
          problems.add("id " + id + " " + seen[id] + " times");
        }
      }
    }
    assertThat(problems).as("%d rows of %d expected: %d missing, %d duplicated, in %s", rows.size(), count, missing,
        duplicated, snapshot).isEmpty();
    assertThat(snapshot.rows()).isEqualTo(count);
  }

  /** Asserts that the index of {@code c} lists exactly the files holding each value. */
  void assertIndexOfC() {
    Map<IndexValue, List<String>> index = snapshot.index("c");
    Map<IndexValue, Set<String>> expected = new java.util.HashMap<>();
    for (Row row : rows) {
      expected.computeIfAbsent(IndexValue.of(row.c()), c -> new HashSet<>()).add(row.label());
    }
    assertThat(index.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
    expected.forEach((value, labels) ->
        assertThat(index.get(value)).as("labels of c = %s", value).containsExactlyInAnyOrderElementsOf(labels));
  }
}
