package io.ktk.flink.sink.writer;

import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.types.IncompatibleSchemaException;
import io.ktk.flink.state.types.SchemaCompatibility;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * What a sink and the dataset it writes must agree on, checked when a writer starts so that a
 * mismatch fails the job at once instead of at its first commit: the partition columns, the
 * declared row type against the committed schema (with the rules of {@link SchemaCompatibility}),
 * and the index columns. The committer checks the schema again at every commit, since another
 * writer may have committed meanwhile.
 */
@Internal
public final class DatasetContract {
  private DatasetContract() {}

  /**
   * Checks the sink against the committed state of its dataset and returns the index columns in
   * effect: the dataset's own ones, then those the sink adds when it creates the dataset.
   *
   * @throws KtkValidationException when the sink cannot write to the dataset
   */
  public static List<String> check(KartothekSinkConfig config, DatasetState committed) {
    if (!committed.exists()) {
      return config.indexColumns();
    }
    String dataset = config.dataset();
    if (!committed.partitionKeys().equals(config.partitionColumns())) {
      throw new KtkValidationException("Cannot write to dataset '" + dataset + "': it is partitioned by "
          + committed.partitionKeys() + " but the sink is partitioned by " + config.partitionColumns());
    }
    try {
      SchemaCompatibility.check(dataset, committed.schema(), config.declaredSchema());
    } catch (IncompatibleSchemaException e) {
      String prefix = "Cannot append to dataset '" + dataset + "': ";
      String reason = e.getMessage().startsWith(prefix) ? e.getMessage().substring(prefix.length()) : e.getMessage();
      throw new IncompatibleSchemaException(e.dataset(), e.column().orElse(null), "Cannot write to dataset '"
          + dataset + "': the declared row type does not fit its committed schema (version " + committed.version()
          + "): " + reason);
    }
    List<String> indexColumns = new ArrayList<>(committed.indexColumns());
    for (String column : config.indexColumns()) {
      if (!committed.indexColumns().contains(column)) {
        throw new KtkValidationException("Cannot write to dataset '" + dataset + "': column '" + column
            + "' is not indexed (indexed: " + committed.indexColumns() + "); build the index over the existing"
            + " files first");
      }
    }
    return indexColumns;
  }
}
