package io.ktk.flink.source.dataset;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A split of a plain dataset: one data file of the pinned version, with its partition's typed
 * values, and how many of its (passing) rows a reader has emitted already, so that a restored
 * reader skips them: a file's rows come in a fixed order.
 *
 * @param splitId unique within the source, e.g. {@code file-000012}
 * @param version the dataset version the file belongs to
 * @param partitionValues the typed values of the file's partition (partition columns in label order)
 * @param key the file's object key
 * @param label the file's label ({@code p=1/part-0})
 * @param rows the file's row count, -1 when unknown
 * @param bytes the file's size, -1 when unknown
 * @param emittedRows rows already emitted (0 for a fresh split)
 */
@Internal
public record DatasetSplit(String splitId, long version, List<Object> partitionValues, String key, String label,
    long rows, long bytes, long emittedRows) implements SourceSplit {

  public DatasetSplit {
    requireNonNull(splitId, "splitId is null");
    partitionValues = Collections.unmodifiableList(new ArrayList<>(requireNonNull(partitionValues,
        "partitionValues is null")));
    requireNonNull(key, "key is null");
    requireNonNull(label, "label is null");
    if (emittedRows < 0) {
      throw new IllegalArgumentException("emittedRows is negative: " + emittedRows);
    }
  }

  /** The same split after {@code rows} rows were emitted. */
  public DatasetSplit withEmittedRows(long rows) {
    return new DatasetSplit(splitId, version, partitionValues, key, label, this.rows, bytes, rows);
  }

  @Override
  public String toString() {
    return "DatasetSplit{" + splitId + ", " + label + "@" + version + ", emitted=" + emittedRows + "}";
  }
}
