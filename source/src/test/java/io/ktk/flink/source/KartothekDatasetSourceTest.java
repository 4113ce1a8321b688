package io.ktk.flink.source;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.source.dataset.DatasetQuery;
import io.ktk.flink.source.query.InvalidQueryException;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.source.testing.FlinkRows;
import io.ktk.flink.source.testing.PlainDatasetRows;
import io.ktk.flink.source.testing.SqlTables;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bounded dataset source on a mini cluster returns the rows that the in-process reader returns
 * (a restored split: {@code CubeSplitReaderTest}).
 */
class KartothekDatasetSourceTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = SqlTables.cluster();

  static final String UUID = "c++events";

  @TempDir Path dir;
  ObjectStore store;
  String url;
  CubeFixture.DatasetWriter events;

  /** 6 partitions of 2 files of 3000 rows, row groups of 500 rows; every row appears twice. */
  @BeforeEach
  void writeDataset() throws Exception {
    store = new LocalObjectStore(dir);
    url = dir.toUri().toString();
    CubeFixture fixture = new CubeFixture(store, new CubeSpec("c", List.of("x"), List.of("p"), "events",
        new TreeSet<>()));
    events = fixture.dataset("events", new Schema(List.of(field("p", new ArrowType.Int(64, true)),
        field("x", new ArrowType.Int(64, true)), field("s", ArrowType.Utf8.INSTANCE))), "x").rowsPerGroup(500);
    for (int commit = 0; commit < 2; commit++) {
      List<List<Object>> rows = new ArrayList<>();
      for (long p = 0; p < 6; p++) {
        for (long x = 0; x < 3000; x++) {
          rows.add(Arrays.asList(p, x, x % 7 == 0 ? null : "s" + (x % 13)));
        }
      }
      events.commit(rows);
    }
  }

  private List<List<Object>> viaPlan(DatasetQuery query) throws Exception {
    return PlainDatasetRows.read(store, UUID, query);
  }

  @Test
  void withOneReaderRowsArriveInThePlansOrder() throws Exception {
    DatasetQuery query = DatasetQuery.builder().where("p >= 2 and x < 1700 and s != 's3'").columns("s", "p").build();
    KartothekDatasetSource source = KartothekSource.forDataset(url, UUID).query(query).build();

    List<List<Object>> rows = FlinkRows.collect(source, 1);

    assertThat(rows).hasSizeGreaterThan(1000).isEqualTo(viaPlan(query));
    assertThat(source.getProducedType().toString()).contains("s: String", "p: Long");
  }

  @Test
  void withSeveralReadersEachFileKeepsItsOrder() throws Exception {
    DatasetQuery query = DatasetQuery.builder().where("x >= 2990")
        .columns("p", "x").build();
    KartothekDatasetSource source = KartothekDatasetSource.builder(url, UUID).query(query).build();

    List<List<Object>> rows = FlinkRows.collect(source, 2);

    List<List<Object>> expected = viaPlan(query);
    assertThat(rows).hasSize(expected.size()).containsExactlyInAnyOrderElementsOf(expected);
    for (long p = 0; p < 6; p++) {
      long partition = p;
      List<Object> xs = rows.stream().filter(row -> row.get(0).equals(partition)).map(row -> row.get(1)).toList();
      List<Object> once = new ArrayList<>();
      for (long x = 2990; x < 3000; x++) {
        once.add(x);
      }
      List<Object> twice = new ArrayList<>(once);
      twice.addAll(once);
      // two files per partition, possibly interleaved by two readers, each in its own order
      assertThat(xs).containsExactlyInAnyOrderElementsOf(twice);
    }
  }

  @Test
  void anEarlierVersionIsReadWhenPinned() throws Exception {
    long first = DatasetSnapshot.latest(store, UUID).version() - 1;
    KartothekDatasetSource source = KartothekDatasetSource.builder(url, UUID).version(first)
        .query(DatasetQuery.builder().columns("p").build()).build();

    assertThat(source.version()).isEqualTo(first);
    assertThat(FlinkRows.collect(source, 1)).hasSize(6 * 3000);
  }

  @Test
  void aBadQueryFailsWhenTheSourceIsBuilt() {
    assertThatThrownBy(() -> KartothekDatasetSource.builder(url, UUID)
        .query(DatasetQuery.builder().where("x == 'a'").build()).build())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("dataset 'c++events'", "column 'x' of type int64", "'a'");
  }
}
