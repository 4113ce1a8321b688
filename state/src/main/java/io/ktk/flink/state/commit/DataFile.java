package io.ktk.flink.state.commit;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One committed Parquet file of a dataset. Its Kartothek partition label is {@code
 * p=1/q=a/<32 hex>}; the file lives at {@code <uuid>/table/<label>.parquet}.
 *
 * @param label the Kartothek partition label
 * @param rows row count, or -1 when unknown (files adopted from plateau)
 * @param bytes file size, or -1 when unknown
 * @param physicalSchema the file's own Arrow schema (without partition columns), or null when
 *     unknown
 */
public record DataFile(String label, long rows, long bytes, Schema physicalSchema) {
  public DataFile {
    requireNonNull(label, "label is null");
    if (label.isEmpty() || label.startsWith("/") || label.endsWith("/")) {
      throw new IllegalArgumentException("Invalid partition label: '" + label + "'");
    }
  }

  /** The physical partition: the label without the file id, e.g. {@code p=1/q=a}; "" if unpartitioned. */
  public String physicalPartition() {
    int slash = label.lastIndexOf('/');
    return slash < 0 ? "" : label.substring(0, slash);
  }

  /** The store key of the file for dataset {@code uuid}. */
  public String key(String uuid) {
    return uuid + "/table/" + label + ".parquet";
  }

  @Override
  public String toString() {
    return "DataFile{" + label + ", rows=" + rows + ", bytes=" + bytes + "}";
  }
}
