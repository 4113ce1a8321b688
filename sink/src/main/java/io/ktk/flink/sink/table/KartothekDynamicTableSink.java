package io.ktk.flink.sink.table;

import io.ktk.flink.state.KtkValidationException;
import java.util.Map;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.types.RowKind;

/**
 * The SQL table sink of a Kartothek dataset, partitioned by the dataset's partition columns.
 * Without a primary key it is insert-only: a query whose changelog holds updates or deletes is
 * refused while it is planned. With one ({@code PRIMARY KEY (...) NOT ENFORCED}, or a cube dataset
 * written as a changelog) it takes an upsert changelog ({@code docs/cdc.md}): inserts, updates
 * after and deletes (deletes may carry the key only).
 * Static partitions ({@code INSERT INTO t PARTITION (p = 'x')}) need nothing from the sink: the
 * planner puts their values into the rows, and rows are routed by their values.
 */
final class KartothekDynamicTableSink implements DynamicTableSink, SupportsPartitioning {
  private final SinkRuntimeProvider provider;
  /** What is written, for messages: {@code dataset 'events'}. */
  private final String target;
  private final String table;
  /** Whether the dataset has a primary key, and so takes an upsert changelog. */
  private final boolean upsert;

  KartothekDynamicTableSink(SinkRuntimeProvider provider, String target, String table, boolean upsert) {
    this.provider = provider;
    this.target = target;
    this.table = table;
    this.upsert = upsert;
  }

  @Override
  public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
    if (upsert) {
      return ChangelogMode.upsert(true);
    }
    if (!requestedMode.containsOnly(RowKind.INSERT)) {
      throw new KtkValidationException("Cannot write the query into table " + table + " (" + target + "): a Kartothek "
          + "dataset without a primary key takes inserts only, but the query produces "
          + requestedMode.getContainedKinds() + " changes; write an append-only query (no updating aggregation, "
          + "join or deduplication without a window), or declare the table's PRIMARY KEY (...) NOT ENFORCED to "
          + "upsert by it");
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
    return new KartothekDynamicTableSink(provider, target, table, upsert);
  }

  @Override
  public String asSummaryString() {
    return "Kartothek(" + target + ")";
  }
}
