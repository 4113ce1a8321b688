package io.ktk.flink.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.sink.config.CubeSinkConfig;
import io.ktk.flink.sink.config.ObjectStoreFactory;
import io.ktk.flink.state.KtkValidationException;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/** The cube rules the builder checks before a job runs. */
class CubeSinkBuilderTest {
  private static final ObjectStoreFactory STORE = ObjectStoreFactory.of("file:///tmp/unused", java.util.Map.of());

  private static KartothekCubeSinkBuilder cube() {
    return KartothekCubeSink.forCube("sales").store(STORE).dimensionColumns("store", "product")
        .partitionColumns("day");
  }

  private static RowType row(String... namesAndTypes) {
    DataTypes.Field[] fields = new DataTypes.Field[namesAndTypes.length];
    for (int i = 0; i < namesAndTypes.length; i++) {
      fields[i] = DataTypes.FIELD(namesAndTypes[i], namesAndTypes[i].equals("day") ? DataTypes.STRING()
          : namesAndTypes[i].startsWith("f") ? DataTypes.DOUBLE() : DataTypes.BIGINT());
    }
    return (RowType) DataTypes.ROW(fields).getLogicalType();
  }

  @Test
  void theSeedGetsAnIndexOnEachDimensionColumnNotSuppressedAndEveryDatasetTheCubeColumns() {
    CubeSinkConfig config = cube().suppressIndexOn("product")
        .seed("seed", CubeTestRows.SEED).enrichment("weather", CubeTestRows.WEATHER).build().config();
    assertThat(config.datasetIds()).containsExactly("seed", "weather");
    assertThat(config.dataset("seed").dataset()).isEqualTo("sales++seed");
    assertThat(config.dataset("seed").indexColumns()).containsExactly("store");
    assertThat(config.dataset("weather").indexColumns()).isEmpty();
    assertThat(config.dataset("weather").partitionColumns()).containsExactly("day");
    assertThat(config.dataset("weather").dimensionColumns()).containsExactly("store");
    assertThat(config.unionType().getFieldNames()).containsExactly("_ktk_cube_dataset", "_ktk_cube_cell_hash",
        "day", "store", "product", "qty", "temp");
  }

  @Test
  void brokenCubeRulesFailTheBuildNamingDatasetColumnsAndRule() {
    assertThatThrownBy(() -> cube().seed("seed", row("day", "store", "qty")).build())
        .isInstanceOf(KtkValidationException.class)
        .hasMessage("Cannot build the sink of cube 'sales': seed dataset seed lacks dimension columns [product] "
            + "(rule: the seed has every dimension column)");
    assertThatThrownBy(() -> cube().seed("seed", CubeTestRows.SEED).enrichment("w", row("store", "ftemp")).build())
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("dataset w lacks partition columns [day] (rule: every dataset has all partition columns)");
    assertThatThrownBy(() -> cube().seed("seed", CubeTestRows.SEED).enrichment("w", row("day", "ftemp")).build())
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("dataset w has none of the dimension columns [store, product]");
    assertThatThrownBy(() -> cube().seed("seed", CubeTestRows.SEED).enrichment("w", row("day", "store", "qty"))
        .build())
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("datasets seed and w both have payload column 'qty' (rule: a payload column belongs "
            + "to one dataset)");
    assertThatThrownBy(() -> cube().seed("seed", CubeTestRows.SEED).enrichment("w", row("day", "fstore")).build())
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("none of the dimension columns");
    assertThatThrownBy(() -> cube().seed("a", CubeTestRows.SEED).seed("b", CubeTestRows.SEED))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("two seeds, a and b (rule: exactly one seed)");
    assertThatThrownBy(() -> cube().enrichment("_ktk_cube", CubeTestRows.WEATHER))
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("dataset id _ktk_cube is reserved");
    assertThatThrownBy(() -> cube().dimensionColumns("day").seed("seed", CubeTestRows.SEED).build())
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("partition columns cannot share columns with dimension columns");
    assertThatThrownBy(() -> KartothekCubeSink.forCube("sa/les").store(STORE).build())
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("'sa/les'");
  }

  @Test
  void aCellColumnWithAnotherTypeInAnotherDatasetFailsTheBuild() {
    RowType weather = (RowType) DataTypes.ROW(DataTypes.FIELD("day", DataTypes.STRING()),
        DataTypes.FIELD("store", DataTypes.INT()), DataTypes.FIELD("temp", DataTypes.DOUBLE())).getLogicalType();
    assertThatThrownBy(() -> cube().seed("seed", CubeTestRows.SEED).enrichment("weather", weather).build())
        .isInstanceOf(KtkValidationException.class)
        .hasMessageContaining("cell column 'store' is Int(64, true) in dataset seed but Int(32, true) in dataset "
            + "weather");
  }
}
