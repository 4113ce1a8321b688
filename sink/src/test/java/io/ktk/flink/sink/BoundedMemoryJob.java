package io.ktk.flink.sink;

import java.time.LocalDateTime;
import java.util.Map;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * The job of {@link BoundedMemoryTest}, run in a JVM of its own with a small heap: records spread
 * over many partitions, written with a small memory budget. Arguments: store URL, partitions,
 * records, budget in MiB.
 */
public final class BoundedMemoryJob {
  static final RowType ROW_TYPE = (RowType) DataTypes.ROW(
      DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
      DataTypes.FIELD("p", DataTypes.STRING().notNull()),
      DataTypes.FIELD("c", DataTypes.BIGINT()),
      DataTypes.FIELD("v", DataTypes.DOUBLE()),
      DataTypes.FIELD("s", DataTypes.STRING()),
      DataTypes.FIELD("ts", DataTypes.TIMESTAMP(6))).getLogicalType();

  /** About 64 bytes a value, so that the records outgrow the heap unless the budget holds. */
  private static final String PAYLOAD = "payload that takes room in the buffers of the writer, number ";

  private BoundedMemoryJob() {}

  public static void main(String[] args) throws Exception {
    String store = args[0];
    int partitions = Integer.parseInt(args[1]);
    long records = Long.parseLong(args[2]);
    int budgetMib = Integer.parseInt(args[3]);
    StreamExecutionEnvironment env = Jobs.env(Map.of(
        "execution.runtime-mode", "STREAMING",
        // Rare checkpoints: everything stays buffered until the end of input unless the budget
        // makes the writer flush part files.
        "execution.checkpointing.interval", "10min",
        "parallelism.default", "2",
        "restart-strategy.type", "none"));
    LocalDateTime epoch = LocalDateTime.of(2024, 1, 1, 0, 0);
    env.fromSequence(0, records - 1)
        .map(id -> (RowData) GenericRowData.of(
            id,
            StringData.fromString("partition-" + (id * 7919 % partitions)),
            id % 1000,
            id % 10 == 0 ? null : id * 0.5,
            id % 3 == 0 ? null : StringData.fromString(PAYLOAD + id),
            TimestampData.fromLocalDateTime(epoch.plusSeconds(id))), InternalTypeInfo.of(ROW_TYPE))
        .sinkTo(KartothekSink.forRowData(ROW_TYPE)
            .store(store)
            .dataset("many")
            .partitionBy("p")
            .memoryBudget(MemorySize.ofMebiBytes(budgetMib))
            .build());
    env.execute("bounded memory");
    Runtime runtime = Runtime.getRuntime();
    System.out.println("max heap " + runtime.maxMemory() / (1 << 20) + " MiB");
  }
}
