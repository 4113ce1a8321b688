package io.ktk.flink.source.table;

import static org.apache.flink.configuration.ConfigOptions.key;

import java.util.List;
import org.apache.flink.configuration.ConfigOption;

/**
 * The options of the SQL table source {@code 'connector' = 'kartothek'}, as keys of a table's
 * {@code WITH} clause: {@code store} and exactly one of {@code cube} and {@code dataset}. Store options ({@code endpoint}, {@code region}, credentials, see {@link
 * io.ktk.flink.state.store.StoreOptions}) are given with the prefix {@value #STORE_OPTION_PREFIX},
 * as for the sink.
 *
 * <p>The scan is bounded: it reads the versions that are the latest when the query is planned. A
 * continuous mode would be a further option ({@code scan.mode}) next to these.
 */
public final class KartothekTableSourceOptions {
  /** Prefix of the object store's own options. */
  public static final String STORE_OPTION_PREFIX = "store.";

  public static final ConfigOption<String> STORE =
      key("store")
          .stringType()
          .noDefaultValue()
          .withDescription("Root of the object store holding the cube: file:///absolute/dir or s3://bucket/prefix. "
              + "Store options follow with the prefix 'store.'.");

  public static final ConfigOption<String> CUBE =
      key("cube")
          .stringType()
          .noDefaultValue()
          .withDescription("Name of the cube to read (its datasets are <cube>++<dataset id>). Exactly one of 'cube'"
              + " and 'dataset' is given.");

  public static final ConfigOption<String> DATASET =
      key("dataset")
          .stringType()
          .noDefaultValue()
          .withDescription("Uuid of a plain dataset (not a cube) to read: every row of every file is a row of the"
              + " table. Exactly one of 'cube' and 'dataset' is given.");

  public static final ConfigOption<List<String>> DATASETS =
      key("datasets")
          .stringType()
          .asList()
          .defaultValues()
          .withDescription("Ids of the cube's datasets the table uses (the seed always); default: all. The table's "
              + "columns come from these datasets. Only with 'cube'.");

  private KartothekTableSourceOptions() {}

  /** Every option, for the factory. */
  public static List<ConfigOption<?>> all() {
    return List.of(STORE, CUBE, DATASET, DATASETS);
  }
}
