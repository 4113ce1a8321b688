package io.ktk.flink.state.store;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Opens an {@link ObjectStore} from a URL: {@code file:///dir} for a local directory, {@code
 * s3://bucket/prefix} for S3 (see {@link StoreOptions} for endpoint, region, path-style access and
 * credentials).
 */
public final class ObjectStores {
  private ObjectStores() {}

  public static ObjectStore open(String url) {
    return open(url, Map.of());
  }

  public static ObjectStore open(String url, Map<String, String> options) {
    URI uri = parse(url);
    String scheme = uri.getScheme();
    if (scheme == null) {
      throw new InvalidStoreUrlException(
          "Cannot open store '" + url + "': the URL has no scheme; use file:///dir or s3://bucket/prefix");
    }
    switch (scheme) {
      case "file":
        if (uri.getPath() == null || uri.getPath().isEmpty() || uri.getAuthority() != null && !uri.getAuthority().isEmpty()) {
          throw new InvalidStoreUrlException(
              "Cannot open store '" + url + "': a local store URL is file:///absolute/path");
        }
        StoreOptions.checkKeys(url, options, StoreOptions.LOCAL_KEYS);
        return new LocalObjectStore(Path.of(uri));
      default:
        throw new InvalidStoreUrlException(
            "Cannot open store '" + url + "': unknown scheme '" + scheme + "'; use file:///dir or s3://bucket/prefix");
    }
  }

  private static URI parse(String url) {
    if (url == null || url.isBlank()) {
      throw new InvalidStoreUrlException("Cannot open store: the URL is empty");
    }
    try {
      return new URI(url);
    } catch (URISyntaxException e) {
      throw new InvalidStoreUrlException("Cannot open store '" + url + "': " + e.getMessage(), e);
    }
  }
}
