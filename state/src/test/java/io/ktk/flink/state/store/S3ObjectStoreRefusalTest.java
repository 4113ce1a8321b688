package io.ktk.flink.state.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.testing.S3Proxy;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Answers that no retry can change (wrong keys, a missing bucket) surface as {@link
 * StoreRefusedException}, so that jobs fail at once instead of restarting; a missing object and
 * other failures stay what they were.
 */
class S3ObjectStoreRefusalTest {
  @RegisterExtension static final S3Proxy S3 = S3Proxy.inMemory();

  @Test
  void aWrongSecretIsARefusalNamingTheStoreAndTheFix() throws IOException {
    Map<String, String> options = new HashMap<>(S3.options());
    options.put(StoreOptions.SECRET_ACCESS_KEY, "not-the-secret");
    try (ObjectStore store = ObjectStores.open(S3.url("refused"), options)) {
      assertThatThrownBy(() -> store.get("_ktk_log/0.json"))
          .isInstanceOfSatisfying(StoreRefusedException.class,
              e -> assertThat(e.errorCode()).isEqualTo("SignatureDoesNotMatch"))
          .hasMessageContaining("Cannot read _ktk_log/0.json in s3://ktk-test/refused")
          .hasMessageContaining("S3 answered 403")
          .hasMessageContaining("check the store's credentials");
      assertThatThrownBy(() -> store.put("x", "y".getBytes(UTF_8))).isInstanceOf(StoreRefusedException.class);
      assertThatThrownBy(() -> store.list("").hasNext()).isInstanceOf(StoreRefusedException.class);
    }
  }

  @Test
  void anUnknownAccessKeyIsARefusal() throws IOException {
    Map<String, String> options = new HashMap<>(S3.options());
    options.put(StoreOptions.ACCESS_KEY_ID, "nobody");
    try (ObjectStore store = ObjectStores.open(S3.url("refused"), options)) {
      assertThatThrownBy(() -> store.put("x", "y".getBytes(UTF_8)))
          .isInstanceOfSatisfying(StoreRefusedException.class,
              e -> assertThat(e.errorCode()).isEqualTo("InvalidAccessKeyId"));
    }
  }

  @Test
  void aMissingBucketIsARefusal() throws IOException {
    try (ObjectStore store = ObjectStores.open("s3://no-such-bucket/data", S3.options())) {
      assertThatThrownBy(() -> store.put("x", "y".getBytes(UTF_8)))
          .isInstanceOfSatisfying(StoreRefusedException.class,
              e -> assertThat(e.errorCode()).isEqualTo("NoSuchBucket"))
          .hasMessageContaining("s3://no-such-bucket/data");
    }
  }

  @Test
  void aMissingObjectIsNoRefusal() throws IOException {
    try (ObjectStore store = ObjectStores.open(S3.url("present"), S3.options())) {
      assertThatThrownBy(() -> store.get("absent")).isInstanceOf(NoSuchObjectException.class);
    }
  }
}
