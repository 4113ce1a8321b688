package io.ktk.flink.state.store;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Opens an {@link ObjectStore} from a URL: {@code file:///dir} for a local directory, {@code
 * s3://bucket/prefix} for S3 (see {@link StoreOptions} for endpoint, region, path-style access and
 * credentials).
 */
public final class ObjectStores {
  private static final Pattern SCHEME = Pattern.compile("([a-zA-Z][a-zA-Z0-9+.-]*):.*", Pattern.DOTALL);
  private static final String USE = "use file:///dir or s3://bucket/prefix";

  private ObjectStores() {}

  public static ObjectStore open(String url) {
    return open(url, Map.of());
  }

  public static ObjectStore open(String url, Map<String, String> options) {
    return switch (scheme(url)) {
      case "file" -> {
        Path root = localRoot(url);
        StoreOptions.checkKeys(url, options, StoreOptions.LOCAL_KEYS);
        yield new LocalObjectStore(root);
      }
      case "s3" -> S3ObjectStore.open(url, options);
      default -> throw new IllegalStateException("scheme() returned an unknown scheme for " + url);
    };
  }

  /**
   * Checks a store URL and its options as {@link #open} does, without opening anything (no
   * directory is created, no connection made), so that builders and planners can refuse a typo
   * where it was written.
   *
   * @throws InvalidStoreUrlException naming the URL, the option and what is accepted
   */
  public static void check(String url, Map<String, String> options) {
    switch (scheme(url)) {
      case "file" -> {
        localRoot(url);
        StoreOptions.checkKeys(url, options, StoreOptions.LOCAL_KEYS);
      }
      case "s3" -> {
        S3Location.parse(url);
        StoreOptions.s3(url, options);
      }
      default -> throw new IllegalStateException("scheme() returned an unknown scheme for " + url);
    }
  }

  /** The option keys a store URL of this scheme accepts (none for a local directory). */
  public static Set<String> optionKeys(String url) {
    return "s3".equals(scheme(url)) ? StoreOptions.S3_DESCRIPTIONS.keySet() : StoreOptions.LOCAL_KEYS;
  }

  private static String scheme(String url) {
    if (url == null || url.isBlank()) {
      throw new InvalidStoreUrlException("Cannot open store: the URL is empty; " + USE);
    }
    Matcher scheme = SCHEME.matcher(url);
    if (!scheme.matches()) {
      throw new InvalidStoreUrlException("Cannot open store '" + url + "': the URL has no scheme; " + USE);
    }
    String name = scheme.group(1);
    if (!name.equals("file") && !name.equals("s3")) {
      throw new InvalidStoreUrlException("Cannot open store '" + url + "': unknown scheme '" + name + "'; " + USE);
    }
    return name;
  }

  private static Path localRoot(String url) {
    URI uri = parse(url);
    boolean hasAuthority = uri.getAuthority() != null && !uri.getAuthority().isEmpty();
    if (uri.getPath() == null || uri.getPath().isEmpty() || hasAuthority) {
      throw new InvalidStoreUrlException("Cannot open store '" + url + "': a local store URL is file:///absolute/path");
    }
    return Path.of(uri);
  }

  private static URI parse(String url) {
    try {
      return new URI(url);
    } catch (URISyntaxException e) {
      throw new InvalidStoreUrlException("Cannot open store '" + url + "': " + e.getMessage(), e);
    }
  }
}
