package io.ktk.flink.state.store;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The keys a store URL accepts as options, and their checks. */
public final class StoreOptions {
  private StoreOptions() {}

  /** A local directory takes no options. */
  static final Set<String> LOCAL_KEYS = Set.of();

  static void checkKeys(String url, Map<String, String> options, Set<String> allowed) {
    Set<String> unknown = new TreeSet<>(options.keySet());
    unknown.removeAll(allowed);
    if (!unknown.isEmpty()) {
      throw new InvalidStoreUrlException(
          "Cannot open store '" + url + "': unknown option(s) " + unknown
              + (allowed.isEmpty() ? "; this kind of store takes none" : "; known options are " + new TreeSet<>(allowed)));
    }
  }
}
