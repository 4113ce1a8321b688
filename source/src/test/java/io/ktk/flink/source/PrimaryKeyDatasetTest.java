package io.ktk.flink.source;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.testing.FlinkRows;
import io.ktk.flink.source.testing.PlainDatasetRows;
import io.ktk.flink.source.testing.SqlTables;
import io.ktk.flink.state.commit.CommitLog;
import io.ktk.flink.state.commit.CommitLogOptions;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.commit.DatasetChange;
import io.ktk.flink.state.metadata.IndexValue;
import io.ktk.flink.state.metadata.PartitionLabel;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.parquet.ParquetRowsWriter;
import io.ktk.flink.state.parquet.ParquetWriteOptions;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plain dataset with a primary key is read merged (docs/cdc.md): of the rows of a key the last
 * written counts (by the version that added its file, then the label, then the row), and a row
 * whose {@value PrimaryKey#DELETED_COLUMN} is true deletes its key. The change files are written
 * here directly through the state's API, as a changelog sink writes them; the expected rows are
 * the changes applied by hand.
 */
class PrimaryKeyDatasetTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = SqlTables.cluster();

  static final String UUID = "customers";
  static final Field P = field("p", new ArrowType.Int(64, true));
  static final Field ID = field("id", new ArrowType.Int(64, true));
  static final Field NAME = field("name", ArrowType.Utf8.INSTANCE);
  static final Field DELETED = field(PrimaryKey.DELETED_COLUMN, ArrowType.Bool.INSTANCE);
  static final Schema SCHEMA = new Schema(List.of(P, ID, NAME));

  @TempDir Path dir;
  ObjectStore store;
  CommitLog log;

  /** A change: a row of a change file. */
  private static List<Object> upsert(long id, String name) {
    return Arrays.asList(id, name, false);
  }

  private static List<Object> delete(long id) {
    return Arrays.asList(id, null, true);
  }

  /**
   * Commits one version of change files, by file id: partition value to rows {@code (id, name,
   * deleted)}. Files without deletes may leave the deleted column out (a folded file); the index of
   * {@code id} lists the keys of upserts only, as a writer may leave deletes out of it.
   */
  private void commit(boolean deletedColumn, Map<String, Map.Entry<Long, List<List<Object>>>> files) throws Exception {
    Schema physical = new Schema(deletedColumn ? List.of(ID, NAME, DELETED) : List.of(ID, NAME));
    List<DataFile> written = new ArrayList<>();
    Map<IndexValue, List<String>> index = new LinkedHashMap<>();
    for (Map.Entry<String, Map.Entry<Long, List<List<Object>>>> file : files.entrySet()) {
      long p = file.getValue().getKey();
      String label = PartitionLabel.of(List.of(P), List.of(p), file.getKey()).toString();
      String key = UUID + "/table/" + label + ".parquet";
      try (ParquetRowsWriter writer = ParquetRowsWriter.create(store, key, physical, Map.of(),
          ParquetWriteOptions.defaults())) {
        for (List<Object> row : file.getValue().getValue()) {
          writer.write(deletedColumn ? row : row.subList(0, 2));
          if (!(Boolean) row.get(2)) {
            index.computeIfAbsent(IndexValue.of(row.get(0)), v -> new ArrayList<>()).add(label);
          }
        }
      }
      written.add(new DataFile(label, file.getValue().getValue().size(), store.head(key).orElseThrow().size(),
          physical));
    }
    log.commit(DatasetChange.append(List.of("p"), SCHEMA, written)
        .withIndex(List.of("id"), Map.of("id", index))
        .withMetadata(Map.of(PrimaryKey.METADATA_KEY, PrimaryKey.toJson(List.of("id", "p")))));
  }

  /**
   * Three versions. Partition 1: version 1 upserts 1 (twice in one file: its later row wins), 2 and
   * 3; version 2 deletes 2, updates 3, inserts 4 and 5; version 3 inserts 2 again, deletes 4 and
   * updates 5 in a file whose label sorts before version 2's. Partition 2: a folded file (no
   * deleted column), then a delete.
   */
  @BeforeEach
  void writeChanges() throws Exception {
    store = new LocalObjectStore(dir);
    log = CommitLog.open(store, UUID, CommitLogOptions.DEFAULTS);
    Map<String, Map.Entry<Long, List<List<Object>>>> first = new LinkedHashMap<>();
    first.put("m-1", Map.entry(1L, List.of(upsert(1, "ann"), upsert(2, "bob"), upsert(3, "cy"), upsert(1, "anna"))));
    commit(true, first);
    commit(false, Map.of("m-2", Map.entry(2L, List.of(upsert(7, "gus"), upsert(8, "hal"), upsert(9, "ida")))));
    Map<String, Map.Entry<Long, List<List<Object>>>> second = new LinkedHashMap<>();
    second.put("z-1", Map.entry(1L, List.of(delete(2), upsert(3, "cyd"), upsert(4, "dee"), upsert(5, "eve"))));
    second.put("z-2", Map.entry(2L, List.of(delete(8))));
    commit(true, second);
    commit(true, Map.of("a-1", Map.entry(1L, List.of(upsert(2, "bo"), delete(4), upsert(5, "eva")))));
  }

  private List<List<Object>> read(String where, String... columns) throws Exception {
    return PlainDatasetRows.read(store, UUID, DatasetQuery.builder().where(where).columns(columns).build());
  }

  @Test
  void theLastWrittenRowOfEachKeyCountsAndDeletesRemoveKeys() throws Exception {
    assertThat(read("")).containsExactly(
        List.of(1L, 1L, "anna"), List.of(1L, 2L, "bo"), List.of(1L, 3L, "cyd"), List.of(1L, 5L, "eva"),
        List.of(2L, 7L, "gus"), List.of(2L, 9L, "ida"));
  }

  @Test
  void conditionsJudgeTheLastRowOfAKey() throws Exception {
    assertThat(read("name == 'cy'", "id")).isEmpty();
    assertThat(read("name in ('cyd', 'dee', 'bob')", "id", "name")).containsExactly(List.of(3L, "cyd"));
    assertThat(read("id >= 4", "p", "id")).containsExactly(List.of(1L, 5L), List.of(2L, 7L), List.of(2L, 9L));
    // the index lists 4 (inserted in version 2) but not its delete: the delete is read all the same
    assertThat(read("id == 4", "id")).isEmpty();
    assertThat(read("id == 8", "id")).isEmpty();
  }

  @Test
  void pruningRowGroupsNeverBringsBackAnOverwrittenOrDeletedRow() throws Exception {
    for (String where : List.of("name >= 'c'", "name < 'c'", "name == 'dee'", "id == 2", "id != 3 and name > 'b'")) {
      CubeReader pruned = new CubeReader(store, PlainDatasetRows.plan(store, UUID,
          DatasetQuery.builder().where(where).build()), true);
      CubeReader unpruned = new CubeReader(store, PlainDatasetRows.plan(store, UUID,
          DatasetQuery.builder().where(where).build()), false);
      assertThat(PlainDatasetRows.read(pruned)).as(where).isEqualTo(PlainDatasetRows.read(unpruned));
    }
    assertThat(read("name >= 'c'", "id")).containsExactly(List.of(3L), List.of(5L), List.of(7L), List.of(9L));
  }

  @Test
  void theFlinkSourceAndSqlReadTheSameMergedRows() throws Exception {
    List<List<Object>> expected = read("id != 1", "id", "name");
    KartothekDatasetSource source = KartothekDatasetSource.builder(dir.toUri().toString(), UUID)
        .query(DatasetQuery.builder().where("id != 1").columns("id", "name").build()).build();
    List<List<Object>> viaSource = FlinkRows.collect(source, 2);
    TableEnvironment tables = SqlTables.batch();
    tables.executeSql("CREATE TABLE customers (p BIGINT, id BIGINT, name STRING) WITH ('connector' = 'kartothek',"
        + " 'store' = '" + dir.toUri() + "', 'dataset' = '" + UUID + "')");

    assertThat(expected).hasSize(5);
    assertThat(viaSource).containsExactlyInAnyOrderElementsOf(expected);
    assertThat(SqlTables.rows(tables, "SELECT id, name FROM customers WHERE id <> 1"))
        .containsExactlyInAnyOrderElementsOf(expected);
    assertThat(SqlTables.rows(tables, "SELECT COUNT(*) FROM customers")).containsExactly(List.of(6L));
  }
}
