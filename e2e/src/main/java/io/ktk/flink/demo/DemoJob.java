package io.ktk.flink.demo;

import io.ktk.flink.sink.KartothekSink;
import io.ktk.flink.sink.RejectedRecord;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * The demo job: an embedded Flink (a local mini cluster in this JVM) streams generated sensor
 * readings into a Kartothek dataset partitioned by day with a secondary index on the sensor,
 * exactly once, committing at every checkpoint and at the end of its input.
 */
public final class DemoJob {
  /** The dataset the demo writes. */
  public static final String DATASET = "demo_readings";

  private DemoJob() {}

  /** Runs the job to completion: {@code records} readings into {@link #DATASET} in the store. */
  public static void run(String storeUrl, Map<String, String> storeOptions, long records, Duration checkpointInterval,
      int parallelism) throws Exception {
    // The embedded cluster closes its RPC class loader before the JVM exits; Pekko's own JVM
    // shutdown hook would then fail to load classes. The cluster shuts Pekko down itself.
    System.setProperty("pekko.coordinated-shutdown.run-by-jvm-shutdown-hook", "off");
    Configuration configuration = new Configuration();
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(200));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(configuration);
    env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
    env.setParallelism(parallelism);
    env.enableCheckpointing(checkpointInterval.toMillis());

    DataStream<RowData> readings = env.fromSequence(0, records - 1)
        .name("generated sensor readings")
        .map(new SensorEvents(), InternalTypeInfo.of(SensorEvents.ROW_TYPE))
        .name("to rows");
    KartothekSink sink = KartothekSink.forRowData(SensorEvents.ROW_TYPE)
        .store(storeUrl, storeOptions)
        .dataset(DATASET)
        .partitionBy("day")
        .indexBy("sensor")
        .build();
    DataStream<RejectedRecord> rejected = sink.addTo(readings, "demo-readings");
    rejected.print("rejected");
    env.execute("ktk demo: sensor readings into " + storeUrl);
  }
}
