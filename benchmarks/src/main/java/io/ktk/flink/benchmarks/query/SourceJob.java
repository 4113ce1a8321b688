package io.ktk.flink.benchmarks.query;

import io.ktk.flink.source.KartothekSource;
import io.ktk.flink.source.query.CubeQuery;
import java.nio.file.Path;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.types.Row;

/**
 * The benchmark's query as a Flink job: {@link KartothekSource} on a local MiniCluster of {@code
 * parallelism} slots into a sink that only adds up the answer's checksums. The job's own run time
 * is measured ({@link JobExecutionResult#getNetRuntime}), not the cluster's start. The MiniCluster
 * runs in this JVM, so the sink's writers add to counters of this class.
 */
final class SourceJob {
  private static final LongAdder ROWS = new LongAdder();
  private static final LongAdder SUM_X = new LongAdder();
  private static final DoubleAdder SUM_A = new DoubleAdder();
  private static final LongAdder B_COUNT = new LongAdder();

  private SourceJob() {}

  /** The checksums of one run and its job time. */
  record Outcome(long rows, long sumX, double sumA, long bCount, double seconds) {}

  static Outcome run(Path cube, CubeQuery query, int parallelism) throws Exception {
    ROWS.reset();
    SUM_X.reset();
    SUM_A.reset();
    B_COUNT.reset();
    StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism);
    KartothekSource source = KartothekSource.builder(cube.toUri().toString(), BenchCube.NAME).query(query).build();
    env.fromSource(source, WatermarkStrategy.noWatermarks(), "cube query").sinkTo(new ChecksumSink());
    JobExecutionResult result = env.execute("query benchmark");
    return new Outcome(ROWS.sum(), SUM_X.sum(), SUM_A.sum(), B_COUNT.sum(), result.getNetRuntime() / 1e3);
  }

  /** Adds up the rows of {@code p, x, v, a, b}. */
  private static final class ChecksumSink implements Sink<Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public SinkWriter<Row> createWriter(WriterInitContext context) {
      return new SinkWriter<>() {
        @Override
        public void write(Row row, Context context) {
          ROWS.increment();
          SUM_X.add((Long) row.getField(1));
          SUM_A.add((Double) row.getField(3));
          if (row.getField(4) != null) {
            B_COUNT.increment();
          }
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void close() {}
      };
    }
  }
}
