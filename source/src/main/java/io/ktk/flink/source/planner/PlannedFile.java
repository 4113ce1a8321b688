package io.ktk.flink.source.planner;

import org.apache.flink.annotation.Internal;

import static java.util.Objects.requireNonNull;

/**
 * One data file a query group reads.
 *
 * @param key the object key, {@code <uuid>/table/<label>.parquet}
 * @param label the Kartothek label (physical partition and file id)
 * @param rows row count, or -1 when unknown
 * @param bytes size, or -1 when unknown
 * @param addedIn the version that added the file, or -1 when unknown; with the label it orders the
 *     files of a partition by when they were written (see {@link GroupPartition})
 * @param keysOnly read only the key columns: the file was pruned by a condition on payload (so
 *     none of its rows qualifies), but it was written after a file that qualifies and may hold newer
 *     rows of the same cells, which then must not be returned
 */
@Internal
public record PlannedFile(String key, String label, long rows, long bytes, long addedIn, boolean keysOnly) {
  public PlannedFile {
    requireNonNull(key, "key is null");
    requireNonNull(label, "label is null");
  }

  public PlannedFile asKeysOnly() {
    return new PlannedFile(key, label, rows, bytes, addedIn, true);
  }
}
