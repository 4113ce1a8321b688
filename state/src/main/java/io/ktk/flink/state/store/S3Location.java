package io.ktk.flink.state.store;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.regex.Pattern;

/**
 * The bucket and key prefix an {@code s3://bucket/prefix} URL names. The prefix is percent-decoded
 * and kept as {@code root}: empty for the whole bucket, else the prefix and a {@code /}, so that
 * {@code s3://data/cubes/} and {@code s3://data/cubes} both give root {@code cubes/}.
 */
record S3Location(String bucket, String root) {
  private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
  private static final Pattern IP_ADDRESS = Pattern.compile("\\d+\\.\\d+\\.\\d+\\.\\d+");
  private static final String USE = "use s3://bucket or s3://bucket/prefix";

  /** Parses and checks the URL; bucket names follow the S3 rules for new buckets. */
  static S3Location parse(String url) {
    if (!url.startsWith("s3://") || url.length() == 5 || url.charAt(5) == '/') {
      throw invalid(url, "the URL names no bucket; " + USE);
    }
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new InvalidStoreUrlException("Cannot open store '" + url + "': " + e.getMessage()
          + "; " + USE + " with special characters percent-encoded", e);
    }
    String bucket = uri.getRawAuthority();
    if (bucket == null || bucket.isEmpty()) {
      throw invalid(url, "the URL names no bucket; " + USE);
    }
    if (!BUCKET.matcher(bucket).matches() || bucket.contains("..") || IP_ADDRESS.matcher(bucket).matches()) {
      throw invalid(url, "'" + bucket + "' is not a valid bucket name; use 3 to 63 lowercase letters, digits,"
          + " dots and hyphens, starting and ending with a letter or digit");
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw invalid(url, "a store URL has no query or fragment; give options separately");
    }
    String prefix = uri.getPath() == null ? "" : uri.getPath().replaceAll("^/+|/+$", "");
    if (prefix.isEmpty()) {
      return new S3Location(bucket, "");
    }
    try {
      ObjectKeys.checkKey(prefix);
    } catch (IllegalArgumentException e) {
      throw new InvalidStoreUrlException(
          "Cannot open store '" + url + "': the prefix is not usable: " + e.getMessage(), e);
    }
    return new S3Location(bucket, prefix + "/");
  }

  private static InvalidStoreUrlException invalid(String url, String reason) {
    return new InvalidStoreUrlException("Cannot open store '" + url + "': " + reason);
  }
}
