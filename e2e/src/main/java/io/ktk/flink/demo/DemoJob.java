package io.ktk.flink.demo;

import io.ktk.flink.sink.KartothekCubeSink;
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
 * readings into the Kartothek cube {@value #CUBE}, exactly once: the seed {@value #READINGS}
 * (partitioned by day, indexed by sensor) and the enrichments {@value #CALIBRATION} and {@value
 * #ALERTS}, all three committed together at every checkpoint and at the end of the input.
 */
public final class DemoJob {
  /** The cube the demo writes. */
  public static final String CUBE = "demo";
  /** Its seed: one reading per sensor and time. */
  public static final String READINGS = "readings";
  /** An enrichment per day and sensor. */
  public static final String CALIBRATION = "calibration";
  /** An enrichment for some readings only. */
  public static final String ALERTS = "alerts";

  private DemoJob() {}

  /**
   * Runs the job to completion: events {@code firstEvent .. firstEvent + records - 1} into the cube
   * in the store, with the calibration of every sensor on every day.
   */
  public static void run(String storeUrl, Map<String, String> storeOptions, long firstEvent, long records,
      Duration checkpointInterval, int parallelism) throws Exception {
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

    DataStream<Long> events = env.fromSequence(firstEvent, firstEvent + records - 1).name("generated events");
    DataStream<RowData> readings = events.map(new SensorCube.Readings(), InternalTypeInfo.of(SensorCube.READINGS))
        .name("readings");
    DataStream<RowData> alerts = events.flatMap(new SensorCube.Alerts(), InternalTypeInfo.of(SensorCube.ALERTS))
        .name("alerts");
    DataStream<RowData> calibration = env.fromSequence(0, (long) SensorCube.DAYS * SensorCube.SENSORS - 1)
        .name("sensors")
        .map(new SensorCube.Calibration(), InternalTypeInfo.of(SensorCube.CALIBRATION))
        .name("calibration");

    KartothekCubeSink cube = KartothekCubeSink.forCube(CUBE)
        .store(storeUrl, storeOptions)
        .dimensionColumns("sensor", "ts")
        .partitionColumns("day")
        .suppressIndexOn("ts")
        .seed(READINGS, SensorCube.READINGS)
        .enrichment(CALIBRATION, SensorCube.CALIBRATION)
        .enrichment(ALERTS, SensorCube.ALERTS)
        .build();
    DataStream<RejectedRecord> rejected =
        cube.addTo(Map.of(READINGS, readings, CALIBRATION, calibration, ALERTS, alerts), "demo-cube");
    rejected.print("rejected");
    env.execute("ktk demo: sensor cube '" + CUBE + "' in " + storeUrl);
  }
}
