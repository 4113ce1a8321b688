package io.ktk.flink.cluster;

import io.ktk.flink.sink.KartothekCubeSink;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * A user's DataStream job, submitted as a jar through the JobManager's REST API: writes readings
 * {@code FIRST..LAST} into the seed of cube {@code sensors} (partitioned by day, one cell per
 * sensor and reading id) with the cube sink.
 *
 * <p>Arguments: {@code STORE_URL FIRST LAST [store-option=value ...]}.
 */
public final class CubeJob {
  static final RowType SEED = (RowType) DataTypes.ROW(
      DataTypes.FIELD("day", DataTypes.STRING()),
      DataTypes.FIELD("sensor", DataTypes.BIGINT()),
      DataTypes.FIELD("reading", DataTypes.BIGINT()),
      DataTypes.FIELD("value", DataTypes.DOUBLE())).getLogicalType();

  private CubeJob() {}

  public static void main(String[] args) throws Exception {
    String store = args[0];
    long first = Long.parseLong(args[1]);
    long last = Long.parseLong(args[2]);
    Map<String, String> storeOptions = new HashMap<>();
    for (int i = 3; i < args.length; i++) {
      String[] option = args[i].split("=", 2);
      storeOptions.put(option[0], option[1]);
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
    env.enableCheckpointing(500);
    DataStream<RowData> rows = env.fromSequence(first, last)
        .map(CubeJob::reading, InternalTypeInfo.of(SEED));
    KartothekCubeSink.forCube("sensors")
        .store(store, storeOptions)
        .dimensionColumns("sensor", "reading")
        .partitionColumns("day")
        .seed("seed", SEED)
        .memoryBudget(MemorySize.parse("16mb"))
        .build()
        .addTo("seed", rows);
    env.execute("cube job " + first + ".." + last);
  }

  static RowData reading(long id) {
    return GenericRowData.of(StringData.fromString("d" + id / 100), id % 7, id, id / 2.0);
  }
}
