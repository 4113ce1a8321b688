package io.ktk.flink.source;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.source.testing.FlinkRows;
import io.ktk.flink.source.testing.SqlTables;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A limit stops the reading of a cube: once a reader has emitted enough rows it reads no further
 * split. Proof that later files are not read: they are deleted after the commit (planning reads
 * only the log), and a read of them would fail.
 */
class CubeLimitTest {
  @RegisterExtension
  static final MiniClusterExtension FLINK = SqlTables.cluster();

  private static final Field P = field("p", new ArrowType.Int(64, true));
  private static final Field X = field("x", new ArrowType.Int(64, true));
  private static final Field V = field("v", new ArrowType.Int(64, true));
  private static final Field W = field("w", new ArrowType.Int(64, true));

  @TempDir Path dir;

  /** The cube's rows in the query's order: partitions p = 1..5, in each cells x = 1..3. */
  private final List<List<Object>> all = new ArrayList<>();

  @BeforeEach
  void writeFivePartitionsAndDeleteTheFilesOfTheLastFour() throws IOException {
    ObjectStore store = new LocalObjectStore(dir);
    CubeFixture cube = new CubeFixture(store, CubeSpec.of("shop", List.of("x"), List.of("p")));
    List<List<Object>> seed = new ArrayList<>();
    List<List<Object>> enrich = new ArrayList<>();
    for (long p = 1; p <= 5; p++) {
      for (long x = 1; x <= 3; x++) {
        seed.add(row(p, x, p * 10 + x));
        enrich.add(row(p, x, p * 100 + x));
        all.add(row(p, x, p * 10 + x, p * 100 + x));
      }
    }
    cube.dataset("seed", new Schema(List.of(P, X, V)), "x").commit(seed);
    cube.dataset("enrich", new Schema(List.of(P, X, W))).commit(enrich);
    for (CubeFixture.WrittenFile file : cube.written()) {
      if (!file.partitionValues().equals(List.of(1L))) {
        store.delete(file.key());
      }
    }
  }

  @Test
  void aSqlLimitReadsOnlyTheSplitsItNeeds() throws Exception {
    TableEnvironment tables = SqlTables.batch();
    tables.getConfig().set("table.exec.resource.default-parallelism", "1");
    tables.executeSql("CREATE TABLE shop (p BIGINT, x BIGINT, v BIGINT, w BIGINT) WITH ('connector' = 'kartothek',"
        + " 'store' = '" + dir.toUri() + "', 'cube' = 'shop')");
    assertThat(tables.explainSql("SELECT * FROM shop LIMIT 2")).contains("limit=[2]");

    assertThat(SqlTables.rows(tables, "SELECT * FROM shop LIMIT 2")).isEqualTo(all.subList(0, 2));
    assertThatThrownBy(() -> SqlTables.rows(tables, "SELECT * FROM shop"))
        .as("without a limit the deleted files are read")
        .satisfies(e -> assertThat(ExceptionUtils.findThrowable(e, NoSuchObjectException.class))
            .hasValueSatisfying(missing -> assertThat(missing).hasMessageContaining("p=2")));
  }

  @Test
  void theSourceWithALimitEmitsTheFirstRowsAndStops() throws Exception {
    KartothekSource limited = KartothekSource.builder(dir.toUri().toString(), "shop")
        .query(CubeQuery.builder().columns("p", "x", "v", "w").build()).limit(3).build();
    assertThat(FlinkRows.collect(limited, 1)).isEqualTo(all.subList(0, 3));
  }

  private static List<Object> row(Object... values) {
    return Arrays.asList(values);
  }
}
