package io.ktk.flink.state.store;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
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
    if (url == null || url.isBlank()) {
      throw new InvalidStoreUrlException("Cannot open store: the URL is empty; " + USE);
    }
    Matcher scheme = SCHEME.matcher(url);
    if (!scheme.matches()) {
      throw new InvalidStoreUrlException("Cannot open store '" + url + "': the URL has no scheme; " + USE);
    }
    switch (scheme.group(1)) {
      case "file":
        URI uri = parse(url);
        boolean hasAuthority = uri.getAuthority() != null && !uri.getAuthority().isEmpty();
        if (uri.getPath() == null || uri.getPath().isEmpty() || hasAuthority) {
          throw new InvalidStoreUrlException(
              "Cannot open store '" + url + "': a local store URL is file:///absolute/path");
        }
        StoreOptions.checkKeys(url, options, StoreOptions.LOCAL_KEYS);
        return new LocalObjectStore(Path.of(uri));
      case "s3":
        return S3ObjectStore.open(url, options);
      default:
        throw new InvalidStoreUrlException(
            "Cannot open store '" + url + "': unknown scheme '" + scheme.group(1) + "'; " + USE);
    }
  }

  private static URI parse(String url) {
    try {
      return new URI(url);
    } catch (URISyntaxException e) {
      throw new InvalidStoreUrlException("Cannot open store '" + url + "': " + e.getMessage(), e);
    }
  }
}
