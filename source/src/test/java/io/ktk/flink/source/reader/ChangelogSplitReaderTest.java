package io.ktk.flink.source.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.source.KartothekDatasetSource;
import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.planner.PlainDatasetSnapshot;
import io.ktk.flink.source.planner.QueryPlan;
import io.ktk.flink.source.query.InvalidQueryException;
import io.ktk.flink.source.query.QuerySettings;
import io.ktk.flink.source.query.QueryTarget;
import io.ktk.flink.source.split.CubeSplit;
import io.ktk.flink.source.split.CubeSplits;
import io.ktk.flink.source.testing.CustomersChangelog;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a discovery of an upsert changelog serves: per key of the files added after the served
 * version, its newest row as {@code +U}, or a {@code -D} of its key when that row is a delete or
 * fails the conditions (none for a key failing a condition on a key column); the pinned version's
 * splits give {@code +I} rows; a restored split skips what it emitted. Dataset {@link
 * CustomersChangelog}, served up to version 1, so the discovery holds versions 2 and 3.
 */
class ChangelogSplitReaderTest {
  @TempDir Path dir;
  ObjectStore store;

  @BeforeEach
  void writeChanges() throws Exception {
    store = new LocalObjectStore(dir);
    CustomersChangelog.write(store);
  }

  private List<CubeSplit> splits(DatasetQuery query, String prefix, long servedVersion) throws Exception {
    QueryPlan plan = PlainDatasetSnapshot.latest(store, CustomersChangelog.UUID).plan(query.toCubeQuery());
    return CubeSplits.of(servedVersion < 0 ? plan : plan.seedFilesAddedAfter(servedVersion), prefix, 16);
  }

  private List<Row> read(DatasetQuery query, List<CubeSplit> splits) throws Exception {
    QuerySettings settings = new QuerySettings(dir.toUri().toString(), Map.of(),
        QueryTarget.dataset(CustomersChangelog.UUID), query.toCubeQuery());
    List<Row> rows = new ArrayList<>();
    try (CubeSplitReader<Row> reader = new CubeSplitReader<>(settings, RecordFormat.ROWS, new SimpleCounter(),
        new AtomicLong(Long.MAX_VALUE), true)) {
      reader.handleSplitsChanges(new SplitsAddition<>(splits));
      int finished = 0;
      while (finished < splits.size()) {
        RecordsWithSplitIds<Row> batch = reader.fetch();
        while (batch.nextSplit() != null) {
          Row row;
          while ((row = batch.nextRecordFromSplit()) != null) {
            rows.add(row);
          }
        }
        finished += batch.finishedSplits().size();
      }
    }
    return rows;
  }

  private List<Row> discovered(String where) throws Exception {
    DatasetQuery query = DatasetQuery.builder().where(where).columns("p", "id", "name").build();
    return read(query, splits(query, CubeSplits.discoveryPrefix(1), 1));
  }

  @Test
  void eachKeyOfTheAddedFilesIsUpsertedOrDeleted() throws Exception {
    assertThat(discovered("")).containsExactly(
        Row.ofKind(RowKind.UPDATE_AFTER, 1L, 2L, "bo"), Row.ofKind(RowKind.UPDATE_AFTER, 1L, 3L, "cyd"),
        Row.ofKind(RowKind.UPDATE_AFTER, 1L, 5L, "eva"), Row.ofKind(RowKind.DELETE, 1L, 4L, null),
        Row.ofKind(RowKind.DELETE, 2L, 8L, null));
  }

  @Test
  void aKeyWhoseNewestRowFailsTheConditionsIsDeleted() throws Exception {
    // 2's newest row "bo" fails: it leaves the filtered table
    assertThat(discovered("name >= 'c'")).containsExactly(
        Row.ofKind(RowKind.UPDATE_AFTER, 1L, 3L, "cyd"), Row.ofKind(RowKind.UPDATE_AFTER, 1L, 5L, "eva"),
        Row.ofKind(RowKind.DELETE, 1L, 2L, null), Row.ofKind(RowKind.DELETE, 1L, 4L, null),
        Row.ofKind(RowKind.DELETE, 2L, 8L, null));
    // 2 and 3 fail a condition on the key: never in the table, no -D
    assertThat(discovered("id >= 4")).containsExactly(
        Row.ofKind(RowKind.UPDATE_AFTER, 1L, 5L, "eva"), Row.ofKind(RowKind.DELETE, 1L, 4L, null),
        Row.ofKind(RowKind.DELETE, 2L, 8L, null));
  }

  @Test
  void thePinnedVersionGivesInsertsAndARestoredSplitSkipsWhatItEmitted() throws Exception {
    DatasetQuery query = DatasetQuery.builder().columns("p", "id", "name").build();
    assertThat(read(query, splits(query, "", -1))).containsExactly(
        Row.ofKind(RowKind.INSERT, 1L, 1L, "anna"), Row.ofKind(RowKind.INSERT, 1L, 2L, "bo"),
        Row.ofKind(RowKind.INSERT, 1L, 3L, "cyd"), Row.ofKind(RowKind.INSERT, 1L, 5L, "eva"),
        Row.ofKind(RowKind.INSERT, 2L, 7L, "gus"), Row.ofKind(RowKind.INSERT, 2L, 9L, "ida"));
    List<CubeSplit> discovered = splits(query, CubeSplits.discoveryPrefix(1), 1);
    List<Row> all = read(query, discovered);
    CubeSplit partition1 = discovered.get(0);
    assertThat(read(query, List.of(partition1.withEmittedRows(3)))).as("after 3 rows of partition 1")
        .containsExactlyElementsOf(all.subList(3, 4));
  }

  @Test
  void theBuilderAsksForTheChangelogAndTheKeyColumns() {
    String url = dir.toUri().toString();
    assertThatThrownBy(() -> KartothekDatasetSource.builder(url, CustomersChangelog.UUID).continuous(true).build())
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("read it as an upsert changelog (changelog(true))");
    assertThatThrownBy(() -> KartothekDatasetSource.builder(url, CustomersChangelog.UUID).continuous(true)
        .changelog(true).query(DatasetQuery.builder().columns("id", "name").build()).build())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("without its primary key columns [p]");
    assertThat(KartothekDatasetSource.builder(url, CustomersChangelog.UUID).continuous(true).changelog(true).build()
        .isChangelog()).isTrue();
  }
}
