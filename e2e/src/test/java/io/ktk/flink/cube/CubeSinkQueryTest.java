package io.ktk.flink.cube;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.KartothekCubeSink;
import io.ktk.flink.source.engine.CubeReader;
import io.ktk.flink.source.planner.CubeSnapshot;
import io.ktk.flink.source.query.CubeQuery;
import io.ktk.flink.state.store.LocalObjectStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cube written by the cube sink (seed and two enrichments, one job, two writer subtasks) is
 * queried by the source's planner and reader: the seed's cells, each joined with the weather of
 * its store and day and the price of its product and day where they exist.
 */
class CubeSinkQueryTest {
  private static final RowType SEED = (RowType) DataTypes.ROW(
      DataTypes.FIELD("day", DataTypes.STRING()),
      DataTypes.FIELD("store", DataTypes.BIGINT()),
      DataTypes.FIELD("product", DataTypes.BIGINT()),
      DataTypes.FIELD("qty", DataTypes.BIGINT())).getLogicalType();
  private static final RowType WEATHER = (RowType) DataTypes.ROW(
      DataTypes.FIELD("day", DataTypes.STRING()),
      DataTypes.FIELD("store", DataTypes.BIGINT()),
      DataTypes.FIELD("temp", DataTypes.DOUBLE())).getLogicalType();
  private static final RowType PRICES = (RowType) DataTypes.ROW(
      DataTypes.FIELD("day", DataTypes.STRING()),
      DataTypes.FIELD("product", DataTypes.BIGINT()),
      DataTypes.FIELD("price", DataTypes.DOUBLE())).getLogicalType();
  private static final int SEED_ROWS = 500;
  private static final int WEATHER_ROWS = 30;
  private static final int PRICE_ROWS = 100;

  @TempDir Path dir;

  @Test
  void theSourceJoinsTheSeedWithBothEnrichments() throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(Map.of(
        "execution.runtime-mode", "BATCH", "parallelism.default", "2")));
    KartothekCubeSink.forCube("sales")
        .store(dir.toUri().toString())
        .dimensionColumns("store", "product")
        .partitionColumns("day")
        .seed("seed", SEED)
        .enrichment("weather", WEATHER)
        .enrichment("prices", PRICES)
        .build()
        .addTo(Map.of(
            "seed", env.fromData(ids(SEED_ROWS)).map(i -> (RowData) GenericRowData.of(day(i), i / 50, i % 50, i),
                info(SEED)),
            "weather", env.fromData(ids(WEATHER_ROWS)).map(w -> (RowData) GenericRowData.of(day(w), w / 5, w / 2.0),
                info(WEATHER)),
            "prices", env.fromData(ids(PRICE_ROWS)).map(k -> (RowData) GenericRowData.of(day(k), k / 5, (double) k),
                info(PRICES))));
    env.execute("cube");

    List<List<Object>> rows = new ArrayList<>();
    try (LocalObjectStore store = new LocalObjectStore(dir)) {
      CubeSnapshot cube = CubeSnapshot.latest(store, "sales");
      assertThat(cube.spec().seedDatasetId()).isEqualTo("seed");
      new CubeReader(store, cube.plan(CubeQuery.builder()
              .columns("day", "store", "product", "qty", "temp", "price").build()))
          .rows().forEachRemaining(rows::add);
    }
    rows.sort(Comparator.comparingLong(row -> (Long) row.get(3)));
    List<List<Object>> expected = new ArrayList<>();
    for (long i = 0; i < SEED_ROWS; i++) {
      long dayNumber = i % 5;
      long weatherRow = (i / 50) * 5 + dayNumber;
      long priceRow = (i % 50) * 5 + dayNumber;
      expected.add(Arrays.asList("d" + dayNumber, i / 50, i % 50, i,
          weatherRow < WEATHER_ROWS ? weatherRow / 2.0 : null, priceRow < PRICE_ROWS ? (double) priceRow : null));
    }
    assertThat(rows).isEqualTo(expected);
  }

  private static List<Long> ids(int count) {
    return LongStream.range(0, count).boxed().toList();
  }

  private static StringData day(long i) {
    return StringData.fromString("d" + (i % 5));
  }

  private static TypeInformation<RowData> info(RowType type) {
    return InternalTypeInfo.of(type);
  }
}
