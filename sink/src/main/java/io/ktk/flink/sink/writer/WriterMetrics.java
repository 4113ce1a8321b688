package io.ktk.flink.sink.writer;

import java.util.function.LongSupplier;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;

/**
 * The writer's metrics, in the group {@code kartothek} of the sink writer's metric group:
 * {@code recordsIn}, {@code recordsRejected}, {@code bufferedBytes} (gauge), {@code filesWritten},
 * {@code bytesWritten}. Rows and bytes written also count in Flink's standard {@code
 * numRecordsSend} and {@code numBytesSend}.
 */
final class WriterMetrics {
  private final Counter recordsIn;
  private final Counter recordsRejected;
  private final Counter filesWritten;
  private final Counter bytesWritten;
  private final Counter recordsSend;
  private final Counter bytesSend;

  WriterMetrics(SinkWriterMetricGroup group, LongSupplier bufferedBytes) {
    MetricGroup kartothek = group.addGroup("kartothek");
    this.recordsIn = kartothek.counter("recordsIn");
    this.recordsRejected = kartothek.counter("recordsRejected");
    this.filesWritten = kartothek.counter("filesWritten");
    this.bytesWritten = kartothek.counter("bytesWritten");
    kartothek.gauge("bufferedBytes", bufferedBytes::getAsLong);
    this.recordsSend = group.getNumRecordsSendCounter();
    this.bytesSend = group.getNumBytesSendCounter();
  }

  void recordIn() {
    recordsIn.inc();
  }

  void recordRejected() {
    recordsRejected.inc();
  }

  void fileWritten(long rows, long bytes) {
    filesWritten.inc();
    bytesWritten.inc(bytes);
    recordsSend.inc(rows);
    bytesSend.inc(bytes);
  }
}
