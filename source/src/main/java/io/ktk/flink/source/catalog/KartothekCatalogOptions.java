package io.ktk.flink.source.catalog;

import static org.apache.flink.configuration.ConfigOptions.key;

import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;

/**
 * The options of {@code CREATE CATALOG ... WITH ('type' = 'kartothek', ...)}: the store and its
 * options ({@code store.<option>}, as for tables), and the name of the catalog's one database.
 */
@PublicEvolving
public final class KartothekCatalogOptions {
  /** Prefix of the object store's own options. */
  public static final String STORE_OPTION_PREFIX = "store.";

  public static final ConfigOption<String> STORE =
      key("store")
          .stringType()
          .noDefaultValue()
          .withDescription("Root of the object store whose datasets and cubes the catalog lists: file:///absolute/dir "
              + "or s3://bucket/prefix. Store options follow with the prefix 'store.'; tables of the catalog use them.");

  public static final ConfigOption<String> DEFAULT_DATABASE =
      key("default-database")
          .stringType()
          .defaultValue("default")
          .withDescription("Name of the catalog's one database, which holds every dataset and cube of the store.");

  private KartothekCatalogOptions() {}

  /** Every option, for the factory. */
  public static List<ConfigOption<?>> all() {
    return List.of(STORE, DEFAULT_DATABASE);
  }
}
