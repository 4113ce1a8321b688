package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.commit.DataFile;
import io.ktk.flink.state.dataset.DatasetSnapshot;
import io.ktk.flink.state.dataset.Partition;
import io.ktk.flink.state.parquet.ParquetRowsReader;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * The cube of the cube sink tests, {@code sales}: partition column {@code day} ({@value #DAYS}
 * values), dimension columns {@code store} and {@code product}. The seed's row {@code i} is the
 * cell ({@code d<i % 5>}, i / 50, i % 50) with {@code qty} = i; the enrichment {@code weather}
 * has cells (day, store), row {@code w} = ({@code d<w % 5>}, w / 5) with {@code temp} = w / 2; the
 * enrichment {@code prices} has cells (day, product), row {@code k} = ({@code d<k % 5>}, k / 5)
 * with {@code price} = k. Every value follows from the row number, so rows read back check
 * themselves.
 */
final class CubeTestRows {
  static final int DAYS = 5;
  static final RowType SEED = (RowType) DataTypes.ROW(
      DataTypes.FIELD("day", DataTypes.STRING()),
      DataTypes.FIELD("store", DataTypes.BIGINT()),
      DataTypes.FIELD("product", DataTypes.BIGINT()),
      DataTypes.FIELD("qty", DataTypes.BIGINT())).getLogicalType();
  static final RowType WEATHER = (RowType) DataTypes.ROW(
      DataTypes.FIELD("day", DataTypes.STRING()),
      DataTypes.FIELD("store", DataTypes.BIGINT()),
      DataTypes.FIELD("temp", DataTypes.DOUBLE())).getLogicalType();
  static final RowType PRICES = (RowType) DataTypes.ROW(
      DataTypes.FIELD("day", DataTypes.STRING()),
      DataTypes.FIELD("product", DataTypes.BIGINT()),
      DataTypes.FIELD("price", DataTypes.DOUBLE())).getLogicalType();
  static final TypeInformation<RowData> SEED_INFO = InternalTypeInfo.of(SEED);
  static final TypeInformation<RowData> WEATHER_INFO = InternalTypeInfo.of(WEATHER);
  static final TypeInformation<RowData> PRICES_INFO = InternalTypeInfo.of(PRICES);

  private CubeTestRows() {}

  static String day(long i) {
    return "d" + (i % DAYS);
  }

  static RowData seed(long i) {
    return GenericRowData.of(StringData.fromString(day(i)), i / 50, i % 50, i);
  }

  static RowData weather(long w) {
    return GenericRowData.of(StringData.fromString(day(w)), w / DAYS, w / 2.0);
  }

  static RowData prices(long k) {
    return GenericRowData.of(StringData.fromString(day(k)), k / DAYS, (double) k);
  }

  static GeneratorFunction<Long, RowData> seedGenerator() {
    return CubeTestRows::seed;
  }

  static GeneratorFunction<Long, RowData> weatherGenerator() {
    return CubeTestRows::weather;
  }

  static GeneratorFunction<Long, RowData> pricesGenerator() {
    return CubeTestRows::prices;
  }

  /** The builder of the test cube's sink writing the seed and both enrichments. */
  static KartothekCubeSinkBuilder sink(ObjectStoreFactory store) {
    return KartothekCubeSink.forCube("sales")
        .store(store)
        .dimensionColumns("store", "product")
        .partitionColumns("day")
        .seed("seed", SEED)
        .enrichment("weather", WEATHER)
        .enrichment("prices", PRICES);
  }

  /**
   * Reads one dataset's latest version and asserts that it holds rows {@code 0 .. count - 1} each
   * once, each with its own values; {@code column} is the payload column and {@code number} turns
   * its value back into the row number.
   */
  static void assertExactlyOnce(ObjectStore store, String datasetId, String dimension, String payload, long count)
      throws IOException {
    DatasetSnapshot snapshot = DatasetSnapshot.latest(store, "sales++" + datasetId);
    List<Long> numbers = new ArrayList<>();
    for (Partition partition : snapshot.partitions()) {
      String day = (String) partition.values().get(0);
      for (DataFile file : partition.files()) {
        try (ParquetRowsReader reader = ParquetRowsReader.open(store, file.key(snapshot.uuid()))) {
          for (List<Object> row : reader.readAll(List.of(dimension, payload))) {
            long number = switch (datasetId) {
              case "seed" -> (Long) row.get(1);
              case "weather" -> Math.round((Double) row.get(1) * 2);
              default -> Math.round((Double) row.get(1));
            };
            long expectedDimension = datasetId.equals("seed") ? number / 50 : number / DAYS;
            assertThat(row.get(0)).as("%s of row %s of %s", dimension, number, datasetId).isEqualTo(expectedDimension);
            assertThat(day).as("day of row %s of %s", number, datasetId).isEqualTo(day(number));
            numbers.add(number);
          }
        }
      }
    }
    numbers.sort(null);
    assertThat(numbers).as("rows of %s", datasetId).hasSize((int) count);
    for (int i = 0; i < count; i++) {
      if (numbers.get(i) != i) {
        throw new AssertionError(datasetId + ": row " + i + " is missing or repeated (found " + numbers.get(i) + ")");
      }
    }
  }
}
