package io.ktk.flink.state.dataset;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.commit.DataFile;
import java.util.Collections;
import java.util.List;

/**
 * One physical partition of a dataset version: the files under {@code p=1/q=a}, with the typed
 * values of the partition columns.
 *
 * @param path the encoded path, e.g. {@code p=1/q=a}; empty for an unpartitioned dataset
 * @param values the partition columns' typed values, in partition key order (never null)
 * @param files the partition's files, in label order
 */
public record Partition(String path, List<Object> values, List<DataFile> files) {
  public Partition {
    requireNonNull(path, "path is null");
    values = Collections.unmodifiableList(List.copyOf(values));
    files = List.copyOf(files);
  }

  /** Rows in the partition, or -1 when a file's row count is unknown (files adopted from plateau). */
  public long rows() {
    long rows = 0;
    for (DataFile file : files) {
      if (file.rows() < 0) {
        return -1;
      }
      rows += file.rows();
    }
    return rows;
  }
}
