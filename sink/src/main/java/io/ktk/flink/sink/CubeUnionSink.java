package io.ktk.flink.sink;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.sink.config.CubeSinkConfig;
import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.sink.maintenance.MaintenanceSettings;
import io.ktk.flink.sink.writer.CubeContract;
import io.ktk.flink.sink.writer.KartothekWriter;
import io.ktk.flink.sink.writer.WriterState;
import io.ktk.flink.state.metadata.CubeSpec;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.table.data.RowData;

/**
 * The Sink V2 behind {@link KartothekCubeSink#addTo}: it takes the tagged, keyed and validated
 * rows of {@link CubeSinkConfig#unionType()}, never a dataset's own rows, which is why it is not
 * public.
 */
@Internal
final class CubeUnionSink extends FileBatchSink {
  private static final long serialVersionUID = 1L;

  private final CubeSinkConfig config;

  CubeUnionSink(CubeSinkConfig config, MaintenanceSettings maintenance, boolean hasUid) {
    super(maintenance, hasUid);
    this.config = requireNonNull(config, "config is null");
  }

  @Override
  public StatefulSinkWriter<RowData, WriterState> restoreWriter(WriterInitContext context,
      Collection<WriterState> recoveredState) throws IOException {
    return new KartothekWriter(config.datasets(),
        (store, committed) -> CubeContract.check(config.spec(), config.datasetIds(), config.datasets(), store,
            committed),
        new CubeRows.Routing(config), true, context, recoveredState); // CubeValidationFunction checked them
  }

  @Override
  List<KartothekSinkConfig> committedDatasets() {
    return config.datasets();
  }

  @Override
  CubeSpec cube() {
    return config.spec();
  }

  @Override
  String aggregatorName() {
    return "cube " + config.cube();
  }

  @Override
  public String toString() {
    return "CubeUnionSink{" + config.cube() + ", datasets=" + config.datasetIds() + "}";
  }
}
