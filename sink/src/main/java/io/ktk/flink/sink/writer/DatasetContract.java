package io.ktk.flink.sink.writer;

import io.ktk.flink.sink.config.KartothekSinkConfig;
import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.commit.DatasetState;
import io.ktk.flink.state.metadata.PrimaryKey;
import io.ktk.flink.state.types.IncompatibleSchemaException;
import io.ktk.flink.state.types.SchemaCompatibility;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * What a sink and the dataset it writes must agree on, checked when a writer starts so that a
 * mismatch fails the job at once instead of at its first commit: the partition columns, the
 * declared row type against the committed schema (with the rules of {@link SchemaCompatibility}),
 * the index columns, and the primary key. The committer checks the schema again at every commit, since another
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
    checkPrimaryKey(config, committed);
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

  /**
   * The sink declares the key the dataset has ({@code docs/cdc.md}), or the dataset has none and no
   * rows yet: rows written without the key would not be merged by it, and rows written with a key
   * to a dataset that has none would never be merged by its readers.
   */
  private static void checkPrimaryKey(KartothekSinkConfig config, DatasetState committed) {
    String dataset = config.dataset();
    Optional<List<String>> key = PrimaryKey.of(dataset, committed.metadata());
    if (key.isPresent() && !key.get().equals(config.primaryKey())) {
      throw new KtkValidationException("Cannot write to dataset '" + dataset + "': it has the primary key " + key.get()
          + " (" + PrimaryKey.METADATA_KEY + "), but the sink declares "
          + (config.hasPrimaryKey() ? "the primary key " + config.primaryKey() : "none")
          + "; declare the dataset's key (primaryKey(...) on the builder, PRIMARY KEY (...) NOT ENFORCED in SQL) so "
          + "that its rows are upserted by it");
    }
    if (key.isEmpty() && config.hasPrimaryKey() && !committed.files().isEmpty()) {
      throw new KtkValidationException("Cannot write to dataset '" + dataset + "' with the primary key "
          + config.primaryKey() + ": the dataset has no primary key and holds " + committed.files().size()
          + " files already, whose rows nothing deduplicated by that key; a key is declared when a dataset is "
          + "created");
    }
  }
}
