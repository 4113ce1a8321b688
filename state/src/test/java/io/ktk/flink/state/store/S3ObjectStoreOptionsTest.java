package io.ktk.flink.state.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** S3 store URLs and options: what is accepted, what is refused and how the refusal reads. */
class S3ObjectStoreOptionsTest {
  private static final Map<String, String> LOCAL_ENDPOINT =
      Map.of(StoreOptions.ENDPOINT, "http://127.0.0.1:9", StoreOptions.REGION, "us-east-1");

  @Test
  void optionKeysAndDefaultsArePinned() {
    assertThat(StoreOptions.S3_DESCRIPTIONS.keySet()).containsExactly(
        "endpoint", "region", "path-style", "access-key-id", "secret-access-key", "session-token",
        "anonymous", "multipart-threshold", "part-size", "list-page-size");
    assertThat(StoreOptions.S3_DESCRIPTIONS.values()).allSatisfy(text -> assertThat(text).isNotBlank());
    assertThat(StoreOptions.DEFAULT_MULTIPART_THRESHOLD).isEqualTo(16 * 1024 * 1024);
    assertThat(StoreOptions.DEFAULT_PART_SIZE).isEqualTo(16 * 1024 * 1024);
    assertThat(StoreOptions.MIN_PART_SIZE).isEqualTo(5 * 1024 * 1024);
    assertThat(StoreOptions.DEFAULT_LIST_PAGE_SIZE).isEqualTo(1000);

    S3Settings defaults = StoreOptions.s3("s3://b", Map.of());
    assertThat(defaults.endpoint()).isNull();
    assertThat(defaults.region()).isNull();
    assertThat(defaults.pathStyle()).isFalse();
    assertThat(defaults.accessKeyId()).isNull();
    assertThat(defaults.anonymous()).isFalse();
    assertThat(defaults.multipartThreshold()).isEqualTo(16 * 1024 * 1024);
    assertThat(defaults.partSize()).isEqualTo(16 * 1024 * 1024);
    assertThat(defaults.listPageSize()).isEqualTo(1000);
  }

  @Test
  void everyOptionIsParsed() {
    Map<String, String> options = new HashMap<>();
    options.put("endpoint", "https://storage.example.com:8443");
    options.put("region", "eu-central-1");
    options.put("path-style", "TRUE");
    options.put("access-key-id", "id");
    options.put("secret-access-key", "very-secret");
    options.put("session-token", "token");
    options.put("multipart-threshold", "0");
    options.put("part-size", "5242880");
    options.put("list-page-size", "1");
    S3Settings settings = StoreOptions.s3("s3://b", options);
    assertThat(settings.endpoint()).hasToString("https://storage.example.com:8443");
    assertThat(settings.region()).isEqualTo("eu-central-1");
    assertThat(settings.pathStyle()).isTrue();
    assertThat(settings.accessKeyId()).isEqualTo("id");
    assertThat(settings.secretAccessKey()).isEqualTo("very-secret");
    assertThat(settings.sessionToken()).isEqualTo("token");
    assertThat(settings.multipartThreshold()).isZero();
    assertThat(settings.partSize()).isEqualTo(5 * 1024 * 1024);
    assertThat(settings.listPageSize()).isEqualTo(1);
    assertThat(settings.toString()).doesNotContain("very-secret").doesNotContain("token");
  }

  @Test
  void urlsWithoutAUsableBucketOrPrefixAreRefused() {
    assertRefused("s3://", Map.of(), "names no bucket", "s3://bucket/prefix");
    assertRefused("s3:///prefix", Map.of(), "names no bucket", "s3://bucket/prefix");
    assertRefused("s3:bucket", Map.of(), "names no bucket", "s3://bucket/prefix");
    assertRefused("s3://My_Bucket/x", Map.of(), "'My_Bucket' is not a valid bucket name", "lowercase letters");
    assertRefused("s3://ab/x", Map.of(), "'ab' is not a valid bucket name", "3 to 63");
    assertRefused("s3://a..b/x", Map.of(), "'a..b' is not a valid bucket name", "");
    assertRefused("s3://192.168.1.1/x", Map.of(), "'192.168.1.1' is not a valid bucket name", "");
    assertRefused("s3://user@bucket:9000/x", Map.of(), "'user@bucket:9000' is not a valid bucket name", "");
    assertRefused("s3://bucket/a b", Map.of(), "Illegal character", "percent-encoded");
    assertRefused("s3://bucket/a//b", Map.of(), "the prefix is not usable", "segment ''");
    assertRefused("s3://bucket/a/../b", Map.of(), "the prefix is not usable", "'..'");
    assertRefused("s3://bucket/x?versionId=1", Map.of(), "no query or fragment", "options separately");
  }

  @Test
  void badOptionsAreRefusedWithWhatIsAllowed() {
    assertRefused("s3://bucket/x", Map.of("regoin", "eu-west-1"),
        "unknown option 'regoin' (did you mean 'region'?)", "accepted options are [access-key-id, anonymous, endpoint");
    assertRefused("s3://bucket/x", Map.of("secret-acess-key", "s", "access-key-id", "a"),
        "unknown option 'secret-acess-key' (did you mean 'secret-access-key'?)", "");
    assertRefused("s3://bucket/x", Map.of("proxy", "http://p"), "unknown option 'proxy'; accepted options", "");
    assertRefused("s3://bucket/x", Map.of("multipart-threshold", "16MB"), "option multipart-threshold is '16MB'",
        "use a whole number from 0 to 1073741824");
    assertRefused("s3://bucket/x", Map.of("part-size", "1048576"), "option part-size is '1048576'",
        "use a whole number from 5242880 to 1073741824");
    assertRefused("s3://bucket/x", Map.of("list-page-size", "1001"), "option list-page-size is '1001'",
        "from 1 to 1000");
    assertRefused("s3://bucket/x", Map.of("path-style", "maybe"), "option path-style is 'maybe'", "use true or false");
    assertRefused("s3://bucket/x", Map.of("anonymous", "yes"), "option anonymous is 'yes'", "use true or false");
    assertRefused("s3://bucket/x", Map.of("access-key-id", "id"), "option secret-access-key is missing",
        "give both access-key-id and secret-access-key, or neither");
    assertRefused("s3://bucket/x", Map.of("secret-access-key", "s"), "option access-key-id is missing", "or neither");
    assertRefused("s3://bucket/x", Map.of("session-token", "t"), "option session-token needs access-key-id", "");
    assertRefused("s3://bucket/x", Map.of("anonymous", "true", "access-key-id", "id", "secret-access-key", "s"),
        "anonymous=true contradicts the static keys", "");
    assertRefused("s3://bucket/x", Map.of("endpoint", "localhost:9000"), "option endpoint is 'localhost:9000'",
        "use an http:// or https:// URL");
    assertRefused("s3://bucket/x", Map.of("endpoint", "http://"), "option endpoint is 'http://'",
        "http://127.0.0.1:9000");
    assertRefused("s3://bucket/x", Map.of("region", "EU West"), "option region is 'EU West'", "such as eu-west-1");
  }

  @Test
  void aStoreOpensWithoutContactingTheEndpoint() throws IOException {
    try (ObjectStore store = ObjectStores.open("s3://bucket/some/prefix/", LOCAL_ENDPOINT)) {
      assertThat(store.url()).isEqualTo("s3://bucket/some/prefix/");
      assertThat(store).hasToString("S3ObjectStore{s3://bucket/some/prefix/, endpoint=http://127.0.0.1:9}");
    }
    Map<String, String> anonymous = new HashMap<>(LOCAL_ENDPOINT);
    anonymous.put("anonymous", "true");
    try (ObjectStore store = ObjectStores.open("s3://bucket", anonymous)) {
      assertThat(store.url()).isEqualTo("s3://bucket");
    }
  }

  @Test
  @Timeout(value = 120, unit = TimeUnit.SECONDS) // a guard against hanging, far above the few seconds it takes
  void anUnreachableEndpointFailsSoonNamingTheEndpointAndTheOperation() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort(); // closed again below: nothing listens there
    }
    Map<String, String> options = Map.of(
        "endpoint", "http://127.0.0.1:" + port, "path-style", "true",
        "access-key-id", "id", "secret-access-key", "secret");
    try (ObjectStore store = ObjectStores.open("s3://bucket/x", options)) {
      String where = " in s3://bucket/x (endpoint http://127.0.0.1:" + port + "): ";
      assertThatThrownBy(() -> store.get("log/1.json"))
          .isInstanceOf(IOException.class)
          .hasMessageStartingWith("Cannot read log/1.json" + where)
          .hasMessageContaining("127.0.0.1:" + port)
          .hasMessageContaining("Connection refused")
          .hasMessageContaining("after 3 attempts");
      assertThatThrownBy(() -> store.putIfAbsent("log/1.json", new byte[1]))
          .isInstanceOf(IOException.class)
          .hasMessageStartingWith("Cannot create log/1.json" + where);
      assertThatThrownBy(() -> store.list("log/"))
          .isInstanceOf(IOException.class)
          .hasMessageStartingWith("Cannot list keys under 'log/'" + where);
      ObjectStore.ObjectOutputStream out = store.create("log/2.json");
      out.write(1);
      assertThatThrownBy(out::close)
          .isInstanceOf(IOException.class)
          .hasMessageStartingWith("Cannot write log/2.json" + where);
    }
  }

  private static void assertRefused(String url, Map<String, String> options, String problem, String allowed) {
    // check() refuses what open() refuses, before anything is opened
    assertThatThrownBy(() -> ObjectStores.check(url, options))
        .as("check " + url + " " + options)
        .isInstanceOf(InvalidStoreUrlException.class)
        .hasMessageStartingWith("Cannot open store '" + url + "'")
        .hasMessageContaining(problem)
        .hasMessageContaining(allowed);
    assertThatThrownBy(() -> ObjectStores.open(url, options))
        .as(url + " " + options)
        .isInstanceOf(InvalidStoreUrlException.class)
        .hasMessageStartingWith("Cannot open store '" + url + "'")
        .hasMessageContaining(problem)
        .hasMessageContaining(allowed);
  }
}
