package io.ktk.flink.source.catalog;

import io.ktk.flink.state.config.OptionKeys;
import io.ktk.flink.state.store.ObjectStores;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.factories.CatalogFactory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * {@code CREATE CATALOG ktk WITH ('type' = 'kartothek', 'store' = 's3://bucket/data', ...)}: a
 * {@link KartothekCatalog} over the store. Unknown option keys are refused with the closest known
 * one; the store URL and its options are checked here.
 */
@Internal
public final class KartothekCatalogFactory implements CatalogFactory {
  public static final String IDENTIFIER = "kartothek";

  @Override
  public String factoryIdentifier() {
    return IDENTIFIER;
  }

  @Override
  public Set<ConfigOption<?>> requiredOptions() {
    return Set.of(KartothekCatalogOptions.STORE);
  }

  @Override
  public Set<ConfigOption<?>> optionalOptions() {
    return Set.of(KartothekCatalogOptions.DEFAULT_DATABASE);
  }

  @Override
  public Catalog createCatalog(Context context) {
    Map<String, String> options = context.getOptions();
    String action = "create catalog " + context.getName();
    Set<String> accepted = new TreeSet<>(Set.of(FactoryUtil.PROPERTY_VERSION.key(), CommonCatalogOptionsKeys.TYPE));
    KartothekCatalogOptions.all().forEach(option -> accepted.add(option.key()));
    String url = options.get(KartothekCatalogOptions.STORE.key());
    Map<String, String> storeOptions = new HashMap<>();
    options.forEach((key, value) -> {
      if (key.startsWith(KartothekCatalogOptions.STORE_OPTION_PREFIX)) {
        storeOptions.put(key.substring(KartothekCatalogOptions.STORE_OPTION_PREFIX.length()), value);
      }
    });
    if (url != null) {
      ObjectStores.optionKeys(url).forEach(key -> accepted.add(KartothekCatalogOptions.STORE_OPTION_PREFIX + key));
    }
    OptionKeys.check(action, options.keySet(), accepted);
    Configuration config = Configuration.fromMap(options);
    FactoryUtil.validateFactoryOptions(this, config);
    ObjectStores.check(url, storeOptions);
    return new KartothekCatalog(context.getName(), config.get(KartothekCatalogOptions.DEFAULT_DATABASE), url,
        storeOptions);
  }

  /** The catalog type key, which Flink passes on to the factory. */
  private static final class CommonCatalogOptionsKeys {
    static final String TYPE = "type";
  }
}
