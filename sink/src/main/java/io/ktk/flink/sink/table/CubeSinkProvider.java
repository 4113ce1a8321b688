package io.ktk.flink.sink.table;

import io.ktk.flink.sink.KartothekCubeSink;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.table.connector.ProviderContext;
import org.apache.flink.table.connector.sink.DataStreamSinkProvider;
import org.apache.flink.table.data.RowData;

/**
 * Adds a cube sink for one dataset's rows behind the table's query: the cube sink is added with
 * its tagging, keying by cell and validation ({@link KartothekCubeSink#addForTable}), which a
 * {@code SinkV2Provider} could not do.
 */
final class CubeSinkProvider implements DataStreamSinkProvider {
  private final KartothekCubeSink sink;
  private final String datasetId;

  CubeSinkProvider(KartothekCubeSink sink, String datasetId) {
    this.sink = sink;
    this.datasetId = datasetId;
  }

  @Override
  public DataStreamSink<?> consumeDataStream(ProviderContext context, DataStream<RowData> rows) {
    return sink.addForTable(datasetId, rows, context.generateUid("kartothek-cube-sink").orElse(null));
  }
}
