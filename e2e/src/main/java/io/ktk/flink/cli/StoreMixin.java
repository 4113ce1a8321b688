package io.ktk.flink.cli;

import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --store URL} and repeated {@code --store-option key=value}: where the datasets live. The
 * options are those of {@link io.ktk.flink.state.store.StoreOptions} (endpoint, region, path-style,
 * credentials); a local directory takes none.
 */
public final class StoreMixin {
  @Option(
      names = "--store",
      required = true,
      paramLabel = "URL",
      description = "The store: file:///dir or s3://bucket/prefix.")
  String url;

  @Option(
      names = "--store-option",
      paramLabel = "KEY=VALUE",
      description = "An option of the store, repeatable: endpoint, region, path-style, access-key-id, "
          + "secret-access-key, session-token, anonymous, multipart-threshold, part-size, list-page-size.")
  Map<String, String> options = new LinkedHashMap<>();

  /** Opens the store; the caller closes it. */
  ObjectStore open() {
    return ObjectStores.open(url, options);
  }
}
