package io.ktk.flink;

import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.sink.table.KartothekDynamicTableFactory;
import io.ktk.flink.source.table.KartothekTableSourceFactory;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.junit.jupiter.api.Test;

/** With the sink and the source on one classpath, {@code 'connector' = 'kartothek'} finds each for its kind. */
class ConnectorFactoriesTest {
  @Test
  void theSinkAndTheSourceFactoryShareTheIdentifierWithoutAmbiguity() {
    ClassLoader loader = getClass().getClassLoader();
    assertThat(FactoryUtil.discoverFactory(loader, DynamicTableSourceFactory.class, "kartothek"))
        .isInstanceOf(KartothekTableSourceFactory.class);
    assertThat(FactoryUtil.discoverFactory(loader, DynamicTableSinkFactory.class, "kartothek"))
        .isInstanceOf(KartothekDynamicTableFactory.class);
  }
}
