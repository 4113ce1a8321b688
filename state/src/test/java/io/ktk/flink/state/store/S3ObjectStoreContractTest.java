package io.ktk.flink.state.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.ktk.flink.state.store.ObjectStore.ObjectOutputStream;
import io.ktk.flink.state.testing.S3Proxy;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * The store contract over S3 as s3proxy serves it, with a small multipart threshold and part size
 * and two keys per listing page, plus what only S3 has: multipart uploads and bucket prefixes.
 * Subclasses pick the s3proxy backend.
 */
abstract class S3ObjectStoreContractTest extends ObjectStoreContractTest {
  private static final AtomicInteger STORES = new AtomicInteger();

  private String prefix;

  /** The running proxy the tests of the class share. */
  protected abstract S3Proxy proxy();

  @Override
  protected ObjectStore newStore() {
    prefix = "contract-" + STORES.incrementAndGet();
    return open(prefix);
  }

  private ObjectStore open(String prefix) {
    return open(prefix, MULTIPART_THRESHOLD);
  }

  private ObjectStore open(String prefix, int multipartThreshold) {
    Map<String, String> options = new HashMap<>(proxy().options());
    options.put(StoreOptions.MULTIPART_THRESHOLD, String.valueOf(multipartThreshold));
    options.put(StoreOptions.PART_SIZE, String.valueOf(PART));
    options.put(StoreOptions.LIST_PAGE_SIZE, "2");
    return ObjectStores.open(proxy().url(prefix), options);
  }

  @Override
  protected List<String> pendingUploads() {
    return proxy().pendingUploads().stream().filter(key -> key.startsWith(prefix + "/")).toList();
  }

  /** AWS lists in UTF-8 byte order; s3proxy 4.1.0 sorts Java strings, i.e. UTF-16 code units. */
  @Override
  @Test
  @Disabled("s3proxy 4.1.0 lists keys in UTF-16 order, unlike S3")
  void keysAreOrderedByTheirUtf8Bytes() {}

  @Test
  void largeStreamUploadsPartsWhileOpenAndAppearsOnlyOnClose() throws IOException {
    byte[] data = randomBytes(new Random(11), 2 * PART + 100);
    ObjectOutputStream out = store.create("big/streamed.bin");
    out.write(data, 0, MULTIPART_THRESHOLD);
    assertThat(pendingUploads()).as("still below the threshold: one PutObject at close").isEmpty();
    out.write(data, MULTIPART_THRESHOLD, data.length - MULTIPART_THRESHOLD);
    assertThat(pendingUploads()).containsExactly(prefix + "/big/streamed.bin");
    assertThat(store.head("big/streamed.bin")).isEmpty();
    out.close();
    assertThat(pendingUploads()).isEmpty();
    assertThat(store.get("big/streamed.bin")).isEqualTo(data);
  }

  @Test
  void thresholdAboveThePartSizeSendsAllBufferedPartsOnceExceeded() throws IOException {
    int threshold = 2 * PART + 7;
    byte[] data = randomBytes(new Random(13), threshold + 1 + PART);
    try (ObjectStore twoParts = open(prefix + "/two-parts", threshold)) {
      ObjectOutputStream out = twoParts.create("object.bin");
      out.write(data, 0, threshold);
      assertThat(pendingUploads()).isEmpty();
      out.write(data, threshold, 1);
      assertThat(pendingUploads()).containsExactly(prefix + "/two-parts/object.bin");
      out.write(data, threshold + 1, PART);
      out.close();
      assertThat(twoParts.get("object.bin")).isEqualTo(data);
    }
    assertThat(pendingUploads()).isEmpty();
  }

  @Test
  void abortedMultipartStreamRemovesItsUpload() throws IOException {
    ObjectOutputStream out = store.create("big/aborted.bin");
    out.write(new byte[MULTIPART_THRESHOLD + 1]);
    assertThat(pendingUploads()).containsExactly(prefix + "/big/aborted.bin");
    out.abort();
    assertThat(pendingUploads()).isEmpty();
    assertThat(store.head("big/aborted.bin")).isEmpty();
  }

  @Test
  void storesUnderDifferentPrefixesSeeOnlyTheirOwnKeys() throws IOException {
    try (ObjectStore sibling = open(prefix + "x");
        ObjectStore nested = open(prefix + "/nested");
        ObjectStore bucket = open("")) {
      store.put("k", bytes("mine"));
      sibling.put("k", bytes("sibling's"));
      nested.put("k", bytes("nested"));

      assertThat(list("", null)).containsExactly("k", "nested/k");
      assertThat(store.get("k")).asString(UTF_8).isEqualTo("mine");
      assertThat(sibling.get("k")).asString(UTF_8).isEqualTo("sibling's");
      assertThat(bucket.get(prefix + "/nested/k")).asString(UTF_8).isEqualTo("nested");
      List<String> siblingKeys = new java.util.ArrayList<>();
      sibling.list("").forEachRemaining(info -> siblingKeys.add(info.key()));
      assertThat(siblingKeys).containsExactly("k");
    }
  }
}
