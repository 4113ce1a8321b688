package io.ktk.flink.sink.table;

import io.ktk.flink.state.KtkValidationException;
import java.util.Map;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.types.RowKind;

/**
 * The SQL table sink of a Kartothek dataset: insert-only, partitioned by the dataset's partition
 * columns. A query whose changelog holds updates or deletes is refused while it is planned.
 * Static partitions ({@code INSERT INTO t PARTITION (p = 'x')}) need nothing from the sink: the
 * planner puts their values into the rows, and rows are routed by their values.
 */
final class KartothekDynamicTableSink implements DynamicTableSink, SupportsPartitioning {
  private final SinkRuntimeProvider provider;
  /** What is written, for messages: {@code dataset 'events'}. */
  private final String target;
  private final String table;

  KartothekDynamicTableSink(SinkRuntimeProvider provider, String target, String table) {
    this.provider = provider;
    this.target = target;
    this.table = table;
  }

  @Override
  public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
    if (!requestedMode.containsOnly(RowKind.INSERT)) {
      throw new KtkValidationException("Cannot write the query into table " + table + " (" + target + "): a Kartothek dataset takes inserts only, but the query produces "
          + requestedMode.getContainedKinds() + " changes; write an append-only query (no updating aggregation, "
          + "join or deduplication without a window)");
    }
    return ChangelogMode.insertOnly();
  }

  @Override
  public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
    return provider;
  }

  @Override
  public void applyStaticPartition(Map<String, String> partition) {
    // The planner writes the static values into the rows.
  }

  @Override
  public boolean requiresPartitionGrouping(boolean supportsGrouping) {
    return false;
  }

  @Override
  public DynamicTableSink copy() {
    return new KartothekDynamicTableSink(provider, target, table);
  }

  @Override
  public String asSummaryString() {
    return "Kartothek(" + target + ")";
  }
}
