package io.ktk.flink.sink.config;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.store.ObjectStores;
import java.io.IOException;
import java.io.Serializable;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Opens the object store a sink writes to, in each task that needs it (writers, committer). It
 * travels with the job graph, so it holds only what is needed to open the store: a URL and its
 * options for {@link #of}, or whatever a custom implementation needs (credentials from a vault, a
 * store wrapped for tests).
 */
@PublicEvolving
@FunctionalInterface
public interface ObjectStoreFactory extends Serializable {

  /** Opens a new store; the caller closes it. */
  ObjectStore open() throws IOException;

  /**
   * A factory for {@code file:///dir} or {@code s3://bucket/prefix} with the store options of
   * {@link io.ktk.flink.state.store.StoreOptions}, checked here (a misspelt option fails where it is
   * written, not in a task). Its {@code toString} shows the URL only, never the options (they may
   * hold secrets).
   *
   * @throws io.ktk.flink.state.store.InvalidStoreUrlException naming the URL or option and what is accepted
   */
  static ObjectStoreFactory of(String url, Map<String, String> options) {
    return new UrlStoreFactory(url, options);
  }

  /** The store at a URL; options are copied into a serializable map. */
  record UrlStoreFactory(String url, Map<String, String> options) implements ObjectStoreFactory {
    private static final long serialVersionUID = 1L;

    public UrlStoreFactory {
      requireNonNull(url, "url is null");
      options = Collections.unmodifiableMap(new TreeMap<>(requireNonNull(options, "options is null")));
      ObjectStores.check(url, options);
    }

    @Override
    public ObjectStore open() {
      return ObjectStores.open(url, options);
    }

    @Override
    public String toString() {
      return url;
    }
  }
}
