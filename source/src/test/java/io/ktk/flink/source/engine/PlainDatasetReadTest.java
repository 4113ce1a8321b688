package io.ktk.flink.source.engine;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.InvalidQueryException;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.source.testing.PlainDatasetRows;
import io.ktk.flink.state.CorruptDatasetException;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Planning and reading a plain dataset (a cube of one dataset without a key): order, partition,
 * index and row-group pruning, errors.
 */
class PlainDatasetReadTest {
  static final String UUID = "c++events";
  static final Schema SCHEMA = new Schema(List.of(
      field("p", new ArrowType.Int(64, true)),
      field("c", new ArrowType.Int(64, true)),
      field("s", ArrowType.Utf8.INSTANCE),
      field("v", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
      field("d", new ArrowType.Date(DateUnit.DAY))));

  @TempDir Path dir;
  ObjectStore store;

  /**
   * Partition p=10 is written first and sorts first by label, but p=2 comes first by value. p=2 has
   * two files (b written before a) of row groups of 2 rows; rows repeat (no de-duplication).
   */
  @BeforeEach
  void writeDataset() throws IOException {
    store = new LocalObjectStore(dir);
    CubeFixture fixture = new CubeFixture(store, new CubeSpec("c", List.of("c"), List.of("p"), "events",
        new TreeSet<>()));
    CubeFixture.DatasetWriter events = fixture.dataset("events", SCHEMA, "c").rowsPerGroup(2);
    events.commit(List.of(
        Arrays.asList(10L, 1L, "a", 0.5, LocalDate.of(2024, 1, 1)),
        Arrays.asList(10L, 2L, null, Double.NaN, LocalDate.of(2024, 1, 2))));
    Map<String, List<List<Object>>> files = new LinkedHashMap<>();
    files.put("b", List.of(
        Arrays.asList(2L, 5L, "", null, LocalDate.of(2024, 1, 5)),
        Arrays.asList(2L, 5L, "", null, LocalDate.of(2024, 1, 5)),
        Arrays.asList(2L, 6L, "z", 7.0, LocalDate.of(2024, 1, 6))));
    files.put("a", List.of(
        Arrays.asList(2L, 3L, "x,y", -0.0, LocalDate.of(2024, 1, 3)),
        Arrays.asList(2L, 4L, "q", 1e20, null)));
    events.commitFiles(files);
  }

  private QueryPlan plan(String where, String... columns) throws IOException {
    return PlainDatasetRows.plan(store, UUID, DatasetQuery.builder().where(where).columns(columns).build());
  }

  static List<List<Object>> read(ObjectStore store, QueryPlan plan, boolean prune, long[] pruned) {
    CubeReader reader = new CubeReader(store, plan, prune);
    List<List<Object>> rows = PlainDatasetRows.read(reader);
    if (pruned != null) {
      pruned[0] += reader.rowGroups().pruned();
    }
    return rows;
  }

  private List<List<Object>> read(QueryPlan plan, boolean prune, long[] pruned) {
    return read(store, plan, prune, pruned);
  }

  private List<List<Object>> rows(String where, String... columns) throws IOException {
    return read(plan(where, columns), true, null);
  }

  private void corrupt(String labelPrefix) throws IOException {
    for (Partition partition : DatasetSnapshot.latest(store, UUID).partitions()) {
      for (DataFile file : partition.files()) {
        if (file.label().startsWith(labelPrefix)) {
          store.put(file.key(UUID), "not parquet".getBytes(StandardCharsets.UTF_8));
        }
      }
    }
  }

  @Test
  void partitionsComeByValueFilesByLabelRowsAsStoredAndDuplicatesStay() throws IOException {
    assertThat(rows("", "p", "c")).containsExactly(List.of(2L, 3L), List.of(2L, 4L), List.of(2L, 5L),
        List.of(2L, 5L), List.of(2L, 6L), List.of(10L, 1L), List.of(10L, 2L));
  }

  @Test
  void defaultColumnsArePartitionColumnsThenTheOthersByName() throws IOException {
    assertThat(plan("").query().output().getFields()).extracting(f -> f.getName())
        .containsExactly("p", "c", "d", "s", "v");
  }

  @Test
  void conditionsOnPartitionColumnsSkipPartitionsWithoutReadingThem() throws IOException {
    corrupt("p=2/");
    QueryPlan plan = plan("p > 5", "c");

    assertThat(plan.fileCount()).isEqualTo(1);
    assertThat(read(plan, true, null)).containsExactly(List.of(1L), List.of(2L));
  }

  @Test
  void equalityOnAnIndexedColumnSkipsTheFilesTheIndexDoesNotList() throws IOException {
    corrupt("p=10/");
    corrupt("p=2/b");

    assertThat(rows("c in (3, 4)", "c", "s")).containsExactly(List.of(3L, "x,y"), List.of(4L, "q"));
    // every operator prunes by the index: only p=2/a holds a c below 5
    assertThat(plan("c < 5 and p == 2", "c").fileCount()).isEqualTo(1);
  }

  @Test
  void partitionColumnsAloneNeedNoFileWhenRowCountsAreLogged() throws IOException {
    corrupt("p=");

    assertThat(rows("p != 3", "p")).hasSize(7);
  }

  @Test
  void rowGroupsThatStatisticsExcludeAreSkippedWithTheSameRows() throws IOException {
    // d has no index, so every file is planned
    QueryPlan plan = plan("d >= '2024-01-05' and s >= 'a'", "c", "s");
    long[] pruned = {0};

    List<List<Object>> rows = read(plan, true, pruned);

    assertThat(rows).containsExactly(List.of(6L, "z"));
    assertThat(rows).isEqualTo(read(plan, false, null));
    // p=2/a (d up to 01-03), p=10 (d up to 01-02) and the first group of p=2/b (s "" only) cannot match
    assertThat(pruned[0]).isEqualTo(3);
  }

  @Test
  void nullsAreUnknownAndNanIsAValue() throws IOException {
    assertThat(rows("v != 0.5", "c")).containsExactly(List.of(3L), List.of(4L), List.of(6L), List.of(2L));
    assertThat(rows("v == nan", "c")).containsExactly(List.of(2L));
    assertThat(rows("v > 1e19", "c")).containsExactly(List.of(4L), List.of(2L));
    assertThat(rows("d >= '2024-01-05' and v == 0", "c")).isEmpty();
  }

  @Test
  void unknownColumnsAndLiteralsThatDoNotFitFailBeforeAnyFileIsRead() throws IOException {
    corrupt("p=");
    assertThatThrownBy(() -> plan("x == 1")).isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Cannot query dataset 'c++events': condition `x == 1` is on column 'x', which the"
            + " dataset does not have (columns: p, c, s, v, d)");
    assertThatThrownBy(() -> plan("c == 'one'")).isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("compares column 'c' of type int64 with 'one', which does not fit");
    assertThatThrownBy(() -> plan("", "c", "nope")).isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("Cannot read column 'nope' of dataset 'c++events': it has no such column");
    assertThatThrownBy(() -> plan("", "c", "c")).isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("column 'c' appears twice");
  }

  @Test
  void aFileWithoutAReadColumnIsCorrupt() throws IOException {
    Schema withoutS = new Schema(List.of(SCHEMA.getFields().get(1), SCHEMA.getFields().get(3),
        SCHEMA.getFields().get(4)));
    String label = "p=3/f-no-s";
    String key = UUID + "/table/" + label + ".parquet";
    try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, key, withoutS, Map.of(),
        ParquetWriteOptions.defaults())) {
      writer.write(Arrays.asList(9L, 1.0, LocalDate.of(2024, 1, 9)));
    }
    DataFile file = new DataFile(label, 1, store.head(key).orElseThrow().size(), withoutS);
    CommitLog.open(store, UUID, CommitLogOptions.DEFAULTS).commit(DatasetChange.append(List.of("p"), SCHEMA,
        List.of(file)));

    assertThat(rows("p == 3", "c", "v")).containsExactly(List.of(9L, 1.0));
    assertThatThrownBy(() -> rows("p == 3", "c", "s")).isInstanceOf(CorruptDatasetException.class)
        .hasMessageContaining("of dataset 'c++events': it lacks columns [s] of the committed schema");
  }
}
