package io.ktk.flink.state.store;

import io.ktk.flink.state.KtkValidationException;
import io.ktk.flink.state.config.OptionKeys;
import io.ktk.flink.state.config.UnknownOptionException;
import java.util.Iterator;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * The option keys of one SQL connector, over all its table factories. The sink and the source of
 * {@code 'connector' = 'kartothek'} are separate factories (in separate modules), but one {@code
 * CREATE TABLE} serves {@code INSERT} and {@code SELECT}: so each accepts the keys of every table
 * factory registered under the same identifier, and refuses any other key with the closest known
 * one. Store options ({@code store.<option>}) are checked against what the store URL's scheme takes.
 */
@Internal
public final class ConnectorOptionKeys {
  /** Prefix of the object store's own options in a table's {@code WITH} clause. */
  public static final String STORE_OPTION_PREFIX = "store.";

  private ConnectorOptionKeys() {}

  /**
   * Checks the keys of a table's options against the connector's, naming the first unknown one and
   * the closest known key.
   *
   * @param action what the options are for, as "Cannot &lt;action&gt;" reads
   * @param storeKey the key of the store URL, whose scheme decides which store options exist
   * @throws UnknownOptionException for a key no table factory of the connector accepts
   * @throws KtkValidationException for store options without a store
   */
  public static void check(String action, Map<String, String> options, ClassLoader loader, String identifier,
      String storeKey) {
    Set<String> accepted = accepted(loader, identifier);
    String url = options.get(storeKey);
    if (url != null) {
      ObjectStores.optionKeys(url).forEach(key -> accepted.add(STORE_OPTION_PREFIX + key));
    } else if (options.keySet().stream().anyMatch(key -> key.startsWith(STORE_OPTION_PREFIX))) {
      throw new KtkValidationException("Cannot " + action + ": store options are given without the option '"
          + storeKey + "'");
    }
    OptionKeys.check(action, options.keySet(), accepted);
  }

  /** The keys of {@code 'connector'} and of every option of the table factories named {@code identifier}. */
  public static Set<String> accepted(ClassLoader loader, String identifier) {
    Set<String> keys = new TreeSet<>();
    keys.add(FactoryUtil.CONNECTOR.key());
    Iterator<Factory> factories = ServiceLoader.load(Factory.class, loader).iterator();
    while (hasNext(factories)) {
      Factory factory;
      try {
        factory = factories.next();
      } catch (ServiceConfigurationError e) {
        continue; // another connector's broken factory is not ours to report
      }
      if (factory instanceof DynamicTableFactory && identifier.equals(factory.factoryIdentifier())) {
        for (ConfigOption<?> option : factory.requiredOptions()) {
          keys.add(option.key());
        }
        for (ConfigOption<?> option : factory.optionalOptions()) {
          keys.add(option.key());
        }
      }
    }
    return keys;
  }

  private static boolean hasNext(Iterator<Factory> factories) {
    try {
      return factories.hasNext();
    } catch (ServiceConfigurationError e) {
      return false;
    }
  }
}
