package io.ktk.flink.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.testing.CustomersChangelog;
import io.ktk.flink.source.testing.FlinkRows;
import io.ktk.flink.source.testing.PlainDatasetRows;
import io.ktk.flink.source.testing.SqlTables;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.nio.file.Path;
import java.util.List;
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
 * directly through the state's API, as a changelog sink writes them ({@link CustomersChangelog});
 * the expected rows are the changes applied by hand.
 */
class PrimaryKeyDatasetTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = SqlTables.cluster();

  static final String UUID = CustomersChangelog.UUID;

  @TempDir Path dir;
  ObjectStore store;

  @BeforeEach
  void writeChanges() throws Exception {
    store = new LocalObjectStore(dir);
    CustomersChangelog.write(store);
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
