package io.ktk.flink.source;

import static io.ktk.flink.source.testing.CubeFixture.field;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.source.query.InvalidQueryException;
import io.ktk.flink.source.query.QuerySemantics;
import io.ktk.flink.source.testing.CubeFixture;
import io.ktk.flink.source.testing.FlinkRows;
import io.ktk.flink.source.testing.KartothekAnswers;
import io.ktk.flink.state.metadata.CubeSpec;
import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.store.ObjectStore;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The bounded source on a Flink mini cluster returns the rows of the in-process reader. */
class KartothekSourceTest {
  @RegisterExtension
  static final MiniClusterExtension CLUSTER = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(1).setNumberSlotsPerTaskManager(3).build());

  private static final Field DAY = field("day", new ArrowType.Date(DateUnit.DAY));
  private static final Field SHOP = field("shop", ArrowType.Utf8.INSTANCE);
  private static final Field ITEM = field("item", new ArrowType.Int(64, true));
  private static final Field PRICE = field("price", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE));
  private static final Field STOCK = field("stock", new ArrowType.Int(64, true));
  private static final Field TAG = field("tag", ArrowType.Utf8.INSTANCE);

  @TempDir Path dir;
  ObjectStore store;

  @BeforeEach
  void writeCube() throws Exception {
    store = new LocalObjectStore(dir);
    CubeFixture cube = new CubeFixture(store,
        new CubeSpec("shops", List.of("shop", "item"), List.of("day"), "seed", new TreeSet<>()));
    List<List<Object>> seed = new ArrayList<>();
    List<List<Object>> stock = new ArrayList<>();
    List<List<Object>> tags = new ArrayList<>();
    for (int d = 0; d < 6; d++) {
      LocalDate day = LocalDate.of(2024, 1, 1).plusDays(d);
      for (String shop : List.of("berlin", "paris", "rome")) {
        for (long item = 0; item < 20; item++) {
          seed.add(Arrays.asList(day, shop, item, item % 7 == 0 ? null : item * 1.5 + d));
          if ((item + d) % 3 != 0) {
            stock.add(Arrays.asList(day, shop, item, (item * d) % 11));
          }
          if (item % 4 == 0) {
            tags.add(Arrays.asList(day, item, "t" + (item % 3)));
          }
        }
      }
    }
    cube.dataset("seed", new Schema(List.of(DAY, SHOP, ITEM, PRICE)), "shop", "item").commit(seed);
    cube.dataset("stock", new Schema(List.of(DAY, SHOP, ITEM, STOCK)), "stock").commit(stock)
        .commit(List.of(Arrays.asList(LocalDate.of(2024, 1, 2), "rome", 5L, 99L)));
    cube.dataset("tags", new Schema(List.of(DAY, ITEM, TAG))).commit(tags);
  }

  private List<List<Object>> inProcess(CubeQuery query) throws Exception {
    List<List<Object>> rows = new ArrayList<>();
    new CubeReader(store, CubeSnapshot.latest(store, "shops").plan(query)).rows().forEachRemaining(rows::add);
    return rows;
  }

  @Test
  void withOneReaderTheSourceReturnsTheQueryResultInOrder() throws Exception {
    CubeQuery query = CubeQuery.builder()
        .where("stock > 2 and day < '2024-01-06'").columns("day", "shop", "item", "price", "stock", "tag").build();
    KartothekSource source = KartothekSource.builder(dir.toUri().toString(), "shops").query(query).build();

    List<List<Object>> expected = inProcess(query);
    assertThat(expected).hasSizeGreaterThan(50);
    assertThat(FlinkRows.collect(source, 1)).isEqualTo(expected);
    assertThat(((org.apache.flink.api.java.typeutils.RowTypeInfo) source.getProducedType()).getTypeAt(0))
        .isEqualTo(Types.LOCAL_DATE);
  }

  @Test
  void groupsCutIntoSplitsOfOnePartitionKeepTheOrderWithOneReader() throws Exception {
    CubeQuery query = CubeQuery.builder().partitionBy("shop").columns("shop", "day", "item", "stock").build();
    KartothekSource source = KartothekSource.builder(dir.toUri().toString(), "shops").query(query)
        .maxPartitionsPerSplit(1).build();

    assertThat(source.splits(1)).hasSize(18); // 3 shops, 6 days each
    assertThat(FlinkRows.collect(source, 1)).isEqualTo(inProcess(query));
    assertThat(FlinkRows.collect(source, 3)).containsExactlyInAnyOrderElementsOf(inProcess(query));
  }

  @Test
  void optionsHaveTheirDocumentedDefaults() {
    assertThat(KartothekSourceOptions.CONTINUOUS.key()).isEqualTo("continuous");
    assertThat(KartothekSourceOptions.CONTINUOUS.defaultValue()).isFalse();
    assertThat(KartothekSourceOptions.DISCOVERY_INTERVAL.key()).isEqualTo("discovery-interval");
    assertThat(KartothekSourceOptions.DISCOVERY_INTERVAL.defaultValue()).isEqualTo(java.time.Duration.ofSeconds(10));
    assertThat(KartothekSourceOptions.SPLIT_MAX_PARTITIONS.key()).isEqualTo("split.max-partitions");
    assertThat(KartothekSourceOptions.SPLIT_MAX_PARTITIONS.defaultValue()).isEqualTo(16);
    KartothekSource source = KartothekSource.builder(dir.toUri().toString(), "shops").build();
    assertThat(source.getBoundedness()).isEqualTo(org.apache.flink.api.connector.source.Boundedness.BOUNDED);
    assertThatThrownBy(() -> KartothekSource.builder(dir.toUri().toString(), "shops")
        .discoveryInterval(java.time.Duration.ZERO)).hasMessageContaining("must be positive");
    assertThatThrownBy(() -> KartothekSource.builder(dir.toUri().toString(), "shops").maxPartitionsPerSplit(0))
        .hasMessageContaining("at least 1");
  }

  @Test
  void withSeveralReadersEveryRowArrivesOnce() throws Exception {
    CubeQuery query = CubeQuery.builder().partitionBy("shop").columns("shop", "day", "item", "tag").build();
    KartothekSource source = KartothekSource.builder(dir.toUri().toString(), "shops").query(query).build();

    List<List<Object>> expected = inProcess(query);
    assertThat(FlinkRows.collect(source, 3)).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void theSourceReadsTheVersionsPinnedWhenItWasBuilt() throws Exception {
    CubeQuery query = CubeQuery.builder().columns("day", "shop", "item", "stock").where("stock == 99").build();
    KartothekSource pinned = KartothekSource.builder(dir.toUri().toString(), "shops").query(query)
        .versions(Map.of("seed", 0L, "stock", 0L, "tags", 0L)).build();

    assertThat(FlinkRows.collect(pinned, 1)).isEmpty();
    KartothekSource latest = KartothekSource.builder(dir.toUri().toString(), "shops").query(query).build();
    assertThat(latest.versions()).containsEntry("stock", 1L);
    assertThat(FlinkRows.collect(latest, 1)).containsExactly(Arrays.asList(LocalDate.of(2024, 1, 2), "rome", 5L, 99L));
  }

  @Test
  void aQueryWithKartothekSemanticsReturnsKartothekRowsOverACubeWithSubsetPartitionedEnrichments() throws Exception {
    // Kartothek 5.3's own answer to `z != 'k'` on the cube 'sub', whose enrichments are partitioned by p only;
    // it keeps the rows whose z is null
    KartothekAnswers.Answer answer = KartothekAnswers.answer("sub", "6");
    CubeQuery query = answer.cubeQuery(QuerySemantics.KARTOTHEK);
    KartothekSource source = KartothekSource.builder(KartothekAnswers.store().toUri().toString(), "sub")
        .query(query).build();

    List<List<Object>> rows = FlinkRows.collect(source, 2);

    assertThat(((org.apache.flink.api.java.typeutils.RowTypeInfo) source.getProducedType()).getFieldNames())
        .containsExactlyElementsOf(answer.columns());
    List<Field> fields = CubeSnapshot.latest(new LocalObjectStore(KartothekAnswers.store()), "sub").resolve(query)
        .output().getFields();
    assertThat(KartothekAnswers.canonicalOurs(answer, fields, rows))
        .containsExactlyInAnyOrderElementsOf(KartothekAnswers.canonical(answer, answer.groups().get(0)));
    assertThat(rows).anyMatch(row -> row.get(answer.columns().indexOf("z")) == null);
  }

  @Test
  void aBadQueryFailsWhenTheSourceIsBuilt() {
    assertThatThrownBy(() -> KartothekSource.builder(dir.toUri().toString(), "shops")
        .query(CubeQuery.builder().where("stock == 'many'").build()).build())
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("compares column 'stock' of type int64 with 'many'");
  }
}
