package io.ktk.flink.source.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.testing.KartothekAnswers;
import io.ktk.flink.source.testing.KartothekAnswers.Answer;
import io.ktk.flink.source.testing.SqlTables;
import io.ktk.flink.state.store.LocalObjectStore;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A cube written by plateau in Kartothek 5.3's layout, without a commit log, whose enrichments are
 * partitioned by a subset of the cube's partition columns, read as a SQL table: the rows are those
 * Kartothek 5.3's own {@code query_cube} returned ({@link KartothekAnswers}; no {@code !=}, so SQL's
 * semantics and Kartothek's agree).
 */
class KartothekCubeSqlTest {
  @RegisterExtension
  static final MiniClusterExtension FLINK = SqlTables.cluster();

  private static final List<String> COLUMNS = List.of("c", "p", "q", "u", "v", "w", "x", "y", "z");

  @Test
  void aFilterOnASubsetPartitionedEnrichmentGivesKartothekRows() throws Exception {
    Answer answer = KartothekAnswers.answer("sub", "3");
    assertThat(answer.conditions()).isEqualTo("w >= 12");
    assertThat(answer.columns()).isEqualTo(COLUMNS);
    TableEnvironment tables = SqlTables.batch();
    tables.executeSql("CREATE TABLE sub (c STRING, p DATE, q BIGINT, u DOUBLE, v DOUBLE, w BIGINT, x BIGINT,"
        + " y STRING, z STRING) WITH ('connector' = 'kartothek', 'store' = '" + KartothekAnswers.store().toUri()
        + "', 'cube' = 'sub')");

    List<List<Object>> rows = SqlTables.rows(tables, "SELECT " + String.join(", ", COLUMNS) + " FROM sub WHERE w >= 12");

    List<Field> fields = CubeSnapshot.latest(new LocalObjectStore(KartothekAnswers.store()), "sub")
        .resolve(CubeQuery.builder().columns(COLUMNS).build()).output().getFields();
    assertThat(KartothekAnswers.canonicalOurs(answer, fields, rows))
        .containsExactlyInAnyOrderElementsOf(KartothekAnswers.canonical(answer, answer.groups().get(0)));
  }
}
