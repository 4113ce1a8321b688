package io.ktk.flink.sink;

import io.ktk.flink.sink.config.KartothekSinkConfig;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;

/**
 * Keys a changelog by the hash of its primary key (the key's columns in the unordered row format,
 * as {@link CubeRows.CellHash} hashes a cube's cells), so that all changes of one key reach one
 * writer subtask and are written there in the order they arrive ({@code docs/cdc.md}).
 */
final class PrimaryKeyHash implements KeySelector<RowData, Integer> {
  private static final long serialVersionUID = 1L;

  private final KartothekSinkConfig config;
  private transient CubeRows.CellHash hash;

  PrimaryKeyHash(KartothekSinkConfig config) {
    this.config = config;
  }

  @Override
  public Integer getKey(RowData row) {
    if (hash == null) {
      hash = new CubeRows.CellHash(config, config.primaryKey());
    }
    return hash.hash(row);
  }
}
