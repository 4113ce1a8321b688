package io.ktk.flink.state.store;

import io.ktk.flink.state.config.OptionKeys;
import io.ktk.flink.state.config.UnknownOptionException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The options a store URL accepts ({@code --store-option key=value} on the command line): their
 * keys, defaults, descriptions and checks. A local directory ({@code file:///dir}) takes none; an S3
 * store ({@code s3://bucket/prefix}) takes the keys of {@link #S3_DESCRIPTIONS}, for example
 *
 * <pre>
 * endpoint=http://127.0.0.1:9000  region=eu-west-1  path-style=true
 * access-key-id=AKIA...  secret-access-key=...  part-size=16777216
 * </pre>
 */
public final class StoreOptions {
  private StoreOptions() {}

  public static final String ENDPOINT = "endpoint";
  public static final String REGION = "region";
  public static final String PATH_STYLE = "path-style";
  public static final String ACCESS_KEY_ID = "access-key-id";
  public static final String SECRET_ACCESS_KEY = "secret-access-key";
  public static final String SESSION_TOKEN = "session-token";
  public static final String ANONYMOUS = "anonymous";
  public static final String MULTIPART_THRESHOLD = "multipart-threshold";
  public static final String PART_SIZE = "part-size";
  public static final String LIST_PAGE_SIZE = "list-page-size";

  private static final int MIB = 1 << 20;
  /** S3 refuses parts below 5 MiB, except the last one. */
  public static final int MIN_PART_SIZE = 5 * MIB;
  /** Parts and single uploads are buffered in one array: keep them far below 2 GiB. */
  public static final int MAX_BUFFER_SIZE = 1 << 30;
  public static final int DEFAULT_MULTIPART_THRESHOLD = 16 * MIB;
  public static final int DEFAULT_PART_SIZE = 16 * MIB;
  public static final int DEFAULT_LIST_PAGE_SIZE = 1000;

  /** Every S3 option with what it does and its default, in the order a help text shows them. */
  public static final Map<String, String> S3_DESCRIPTIONS = s3Descriptions();

  /** A local directory takes no options. */
  static final Set<String> LOCAL_KEYS = Set.of();

  private static final Pattern REGION_PATTERN = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

  private static Map<String, String> s3Descriptions() {
    Map<String, String> descriptions = new LinkedHashMap<>();
    descriptions.put(ENDPOINT, "URL of an S3-compatible service, e.g. http://127.0.0.1:9000; default: AWS");
    descriptions.put(REGION, "AWS region; default: the SDK's region chain (AWS_REGION, profile, instance),"
        + " us-east-1 when an endpoint is given and no region is found");
    descriptions.put(PATH_STYLE, "true to address the bucket in the path (http://host/bucket/key) rather than"
        + " the host name; default: false");
    descriptions.put(ACCESS_KEY_ID, "static access key id, together with secret-access-key;"
        + " default: the SDK's credential chain");
    descriptions.put(SECRET_ACCESS_KEY, "static secret access key, together with access-key-id");
    descriptions.put(SESSION_TOKEN, "session token of temporary static credentials (needs both keys)");
    descriptions.put(ANONYMOUS, "true to send unsigned requests (public buckets); default: false");
    descriptions.put(MULTIPART_THRESHOLD, "a streamed object of at most this many bytes is sent in one"
        + " PutObject, a larger one as a multipart upload; 0 to " + MAX_BUFFER_SIZE + "; default: "
        + DEFAULT_MULTIPART_THRESHOLD);
    descriptions.put(PART_SIZE, "bytes per multipart part, " + MIN_PART_SIZE + " (5 MiB) to "
        + MAX_BUFFER_SIZE + "; an open stream buffers up to the larger of part-size and multipart-threshold;"
        + " default: " + DEFAULT_PART_SIZE);
    descriptions.put(LIST_PAGE_SIZE, "keys per ListObjectsV2 request, 1 to 1000; default: "
        + DEFAULT_LIST_PAGE_SIZE);
    return Collections.unmodifiableMap(descriptions);
  }

  static void checkKeys(String url, Map<String, String> options, Set<String> allowed) {
    try {
      OptionKeys.check("open store '" + url + "'", options.keySet(), allowed);
    } catch (UnknownOptionException e) {
      throw new InvalidStoreUrlException(e.getMessage(), e);
    }
  }

  /** Checks the options of an S3 store and fills in the defaults. */
  static S3Settings s3(String url, Map<String, String> options) {
    checkKeys(url, options, S3_DESCRIPTIONS.keySet());
    URI endpoint = options.containsKey(ENDPOINT) ? endpoint(url, options.get(ENDPOINT)) : null;
    String region = options.get(REGION);
    if (region != null && !REGION_PATTERN.matcher(region).matches()) {
      throw invalid(url, REGION, region, "use an AWS region name such as eu-west-1");
    }
    String accessKeyId = options.get(ACCESS_KEY_ID);
    String secretAccessKey = options.get(SECRET_ACCESS_KEY);
    String sessionToken = options.get(SESSION_TOKEN);
    boolean anonymous = bool(url, options, ANONYMOUS, false);
    if ((accessKeyId == null) != (secretAccessKey == null)) {
      throw new InvalidStoreUrlException("Cannot open store '" + url + "': option "
          + (accessKeyId == null ? ACCESS_KEY_ID : SECRET_ACCESS_KEY) + " is missing; give both "
          + ACCESS_KEY_ID + " and " + SECRET_ACCESS_KEY + ", or neither to use the SDK's credential chain");
    }
    if (sessionToken != null && accessKeyId == null) {
      throw new InvalidStoreUrlException("Cannot open store '" + url + "': option " + SESSION_TOKEN
          + " needs " + ACCESS_KEY_ID + " and " + SECRET_ACCESS_KEY);
    }
    if (anonymous && accessKeyId != null) {
      throw new InvalidStoreUrlException("Cannot open store '" + url + "': option " + ANONYMOUS
          + "=true contradicts the static keys; give one or the other");
    }
    return new S3Settings(
        endpoint,
        region,
        bool(url, options, PATH_STYLE, false),
        accessKeyId,
        secretAccessKey,
        sessionToken,
        anonymous,
        integer(url, options, MULTIPART_THRESHOLD, DEFAULT_MULTIPART_THRESHOLD, 0, MAX_BUFFER_SIZE),
        integer(url, options, PART_SIZE, DEFAULT_PART_SIZE, MIN_PART_SIZE, MAX_BUFFER_SIZE),
        integer(url, options, LIST_PAGE_SIZE, DEFAULT_LIST_PAGE_SIZE, 1, 1000));
  }

  private static URI endpoint(String url, String value) {
    try {
      URI uri = new URI(value);
      if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
        return uri;
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    throw invalid(url, ENDPOINT, value, "use an http:// or https:// URL such as http://127.0.0.1:9000");
  }

  private static boolean bool(String url, Map<String, String> options, String key, boolean defaultValue) {
    String value = options.get(key);
    if (value == null) {
      return defaultValue;
    }
    if (value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(value);
    }
    throw invalid(url, key, value, "use true or false");
  }

  private static int integer(
      String url, Map<String, String> options, String key, int defaultValue, int min, int max) {
    String value = options.get(key);
    if (value == null) {
      return defaultValue;
    }
    try {
      long parsed = Long.parseLong(value.trim());
      if (parsed >= min && parsed <= max) {
        return (int) parsed;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw invalid(url, key, value, "use a whole number from " + min + " to " + max);
  }

  private static InvalidStoreUrlException invalid(String url, String key, String value, String allowed) {
    return new InvalidStoreUrlException(
        "Cannot open store '" + url + "': option " + key + " is '" + value + "'; " + allowed);
  }
}
