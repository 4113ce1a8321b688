package io.ktk.flink.state.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.ktk.flink.state.store.ObjectStore.ObjectOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link ObjectStore} promises, run against each implementation by a subclass. Large
 * objects are sized around {@link #PART}, the part size and (plus one) the multipart threshold the
 * S3 subclass configures, so that streamed writes take both the single-request and the multipart
 * path there.
 */
abstract class ObjectStoreContractTest {
  static final int PART = 5 * 1024 * 1024;
  static final int MULTIPART_THRESHOLD = PART + 1;

  protected ObjectStore store;

  /** An empty store of its own for the running test; the test closes it. */
  protected abstract ObjectStore newStore() throws IOException;

  /** Keys of multipart uploads begun and neither completed nor aborted; none where there are no such uploads. */
  protected List<String> pendingUploads() {
    return List.of();
  }

  @BeforeEach
  void openStore() throws IOException {
    store = newStore();
  }

  @AfterEach
  void closeStore() throws IOException {
    store.close();
  }

  @Test
  void putThenGetReturnsTheBytesAndPutReplaces() throws IOException {
    store.put("a/b/c.bin", bytes("first"));
    store.put("top", bytes("top level"));
    assertThat(store.get("a/b/c.bin")).asString(UTF_8).isEqualTo("first");
    assertThat(store.get("top")).asString(UTF_8).isEqualTo("top level");

    store.put("a/b/c.bin", bytes("second, longer"));
    assertThat(store.get("a/b/c.bin")).asString(UTF_8).isEqualTo("second, longer");
    assertThat(store.head("a/b/c.bin")).get().satisfies(info -> {
      assertThat(info.key()).isEqualTo("a/b/c.bin");
      assertThat(info.size()).isEqualTo(14);
    });
  }

  @Test
  void emptyObjectsRoundTripThroughEveryWritePath() throws IOException {
    store.put("empty/put", new byte[0]);
    assertThat(store.putIfAbsent("empty/put-if-absent", new byte[0])).isTrue();
    store.create("empty/stream").close();

    for (String key : List.of("empty/put", "empty/put-if-absent", "empty/stream")) {
      assertThat(store.get(key)).as(key).isEmpty();
      assertThat(store.head(key)).as(key).get().extracting(ObjectInfo::size).isEqualTo(0L);
      assertThat(store.getRange(key, 0, 0)).as(key).isEmpty();
      try (InputStream in = store.open(key)) {
        assertThat(in.read()).as(key).isEqualTo(-1);
      }
    }
    assertThat(list("empty/", null)).containsExactly("empty/put", "empty/put-if-absent", "empty/stream");
  }

  @Test
  void streamedObjectsOnBothSidesOfTheMultipartThresholdArriveByteForByte() throws IOException {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    int[] sizes = {
      1, 1000, PART - 1, PART, MULTIPART_THRESHOLD, MULTIPART_THRESHOLD + 1, 2 * PART + 1, 11 * 1024 * 1024 + 17
    };
    for (int size : sizes) {
      String key = "big/object-" + size + ".bin";
      byte[] data = randomBytes(random, size);
      try (ObjectOutputStream out = store.create(key)) {
        writeInRandomChunks(out, data, random);
        assertThat(out.position()).isEqualTo(size);
      }
      String description = "size " + size + ", seed " + seed;
      assertThat(store.head(key)).as(description).get().extracting(ObjectInfo::size).isEqualTo((long) size);
      assertThat(Arrays.equals(store.get(key), data)).as(description + ": get").isTrue();
      try (InputStream in = store.open(key)) {
        assertThat(Arrays.equals(in.readAllBytes(), data)).as(description + ": open").isTrue();
      }
      if (size >= PART + 3) {
        // across the first part boundary
        byte[] expected = Arrays.copyOfRange(data, PART - 3, PART + 3);
        assertThat(store.getRange(key, PART - 3, 6)).as(description + ": range").isEqualTo(expected);
      }
    }
    assertThat(pendingUploads()).isEmpty();
  }

  @Test
  void streamedObjectIsInvisibleUntilClosed() throws IOException {
    ObjectOutputStream out = store.create("log/00001.json");
    out.write(bytes("{\"version\": 1}"));
    assertThat(store.head("log/00001.json")).isEmpty();
    assertThat(list("", null)).isEmpty();
    out.close();
    assertThat(store.get("log/00001.json")).asString(UTF_8).isEqualTo("{\"version\": 1}");
    assertThat(list("", null)).containsExactly("log/00001.json");
  }

  @Test
  void abortedStreamsLeaveNothingBehind() throws IOException {
    Random random = new Random(7);
    for (int size : new int[] {0, 100, MULTIPART_THRESHOLD + PART + 10}) {
      ObjectOutputStream out = store.create("aborted/" + size);
      out.write(randomBytes(random, size));
      out.abort();
      out.abort(); // idempotent
      out.close(); // and closing an aborted stream publishes nothing
    }
    assertThat(list("", null)).isEmpty();
    assertThat(store.head("aborted/0")).isEmpty();
    assertThat(pendingUploads()).isEmpty();
  }

  @Test
  void closedOrAbortedStreamsRefuseFurtherBytes() throws IOException {
    ObjectOutputStream closed = store.create("done/closed");
    closed.write(1);
    closed.close();
    closed.abort(); // after close: the object stays
    assertThatThrownBy(() -> closed.write(2)).isInstanceOf(IOException.class).hasMessageContaining("done/closed");
    assertThat(store.get("done/closed")).containsExactly(1);

    ObjectOutputStream aborted = store.create("done/aborted");
    aborted.abort();
    assertThatThrownBy(() -> aborted.write(new byte[10])).isInstanceOf(IOException.class)
        .hasMessageContaining("done/aborted");
    assertThat(store.head("done/aborted")).isEmpty();
  }

  @Test
  void rangeReadsReturnExactlyTheBytesAskedFor() throws IOException {
    store.put("range/digits", bytes("0123456789"));
    assertThat(store.getRange("range/digits", 0, 3)).asString(UTF_8).isEqualTo("012");
    assertThat(store.getRange("range/digits", 4, 2)).asString(UTF_8).isEqualTo("45");
    assertThat(store.getRange("range/digits", 7, 3)).asString(UTF_8).isEqualTo("789");
    assertThat(store.getRange("range/digits", 0, 10)).asString(UTF_8).isEqualTo("0123456789");
    assertThat(store.getRange("range/digits", 10, 0)).isEmpty();
  }

  @Test
  void rangeReadsBeyondTheEndFailWithTheObjectSize() throws IOException {
    store.put("range/digits", bytes("0123456789"));
    assertThatThrownBy(() -> store.getRange("range/digits", 8, 3))
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(NoSuchObjectException.class)
        .hasMessageContaining("range/digits")
        .hasMessageContaining("10 bytes");
    assertThatThrownBy(() -> store.getRange("range/digits", 20, 1))
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(NoSuchObjectException.class)
        .hasMessageContaining("10 bytes");
    assertThatThrownBy(() -> store.getRange("range/digits", 11, 0))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("10 bytes");
    assertThatThrownBy(() -> store.getRange("range/digits", -1, 2)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void streamCanBeClosedBeforeTheEndAndReadAgain() throws IOException {
    byte[] data = randomBytes(new Random(3), 3 * 1024 * 1024);
    store.put("stream/data", data);
    try (InputStream in = store.open("stream/data")) {
      assertThat(in.readNBytes(10)).isEqualTo(Arrays.copyOf(data, 10));
    }
    try (InputStream in = store.open("stream/data")) {
      assertThat(Arrays.equals(in.readAllBytes(), data)).isTrue();
    }
  }

  @Test
  void readsOfAMissingKeyNameTheKey() throws IOException {
    assertThatThrownBy(() -> store.get("missing/key")).isInstanceOf(NoSuchObjectException.class)
        .hasMessageContaining("missing/key");
    assertThatThrownBy(() -> store.open("missing/key")).isInstanceOf(NoSuchObjectException.class)
        .hasMessageContaining("missing/key");
    assertThatThrownBy(() -> store.getRange("missing/key", 0, 1)).isInstanceOf(NoSuchObjectException.class)
        .hasMessageContaining("missing/key");
    assertThatThrownBy(() -> store.getRange("missing/key", 0, 0)).isInstanceOf(NoSuchObjectException.class);
    assertThat(store.head("missing/key")).isEmpty();
  }

  @Test
  void aKeyBelowAnObjectIsAbsent() throws IOException {
    store.put("present", bytes("x"));
    assertThat(store.head("present/below")).isEmpty();
    assertThatThrownBy(() -> store.get("present/below")).isInstanceOf(NoSuchObjectException.class);
    assertThatThrownBy(() -> store.open("present/below")).isInstanceOf(NoSuchObjectException.class);
    assertThatThrownBy(() -> store.getRange("present/below", 0, 1)).isInstanceOf(NoSuchObjectException.class);
  }

  @Test
  void deleteRemovesTheObjectAndIgnoresMissingKeys() throws IOException {
    store.put("d/one", bytes("1"));
    store.put("d/two", bytes("2"));
    store.delete("d/one");
    store.delete("d/one");
    store.delete("d/never-existed");
    store.delete("no/such/directory");
    assertThat(store.head("d/one")).isEmpty();
    assertThat(list("d/", null)).containsExactly("d/two");
    assertThat(store.putIfAbsent("d/one", bytes("again"))).as("a deleted key is free again").isTrue();
  }

  @Test
  void putIfAbsentCreatesOnlyWhenTheKeyIsFree() throws IOException {
    assertThat(store.putIfAbsent("_ktk_log/0.json", bytes("first"))).isTrue();
    assertThat(store.putIfAbsent("_ktk_log/0.json", bytes("second"))).isFalse();
    store.put("_ktk_log/1.json", bytes("put"));
    assertThat(store.putIfAbsent("_ktk_log/1.json", bytes("other"))).isFalse();
    try (ObjectOutputStream out = store.create("_ktk_log/2.json")) {
      out.write(bytes("streamed"));
    }
    assertThat(store.putIfAbsent("_ktk_log/2.json", bytes("other"))).isFalse();

    assertThat(store.get("_ktk_log/0.json")).asString(UTF_8).isEqualTo("first");
    assertThat(store.get("_ktk_log/1.json")).asString(UTF_8).isEqualTo("put");
    assertThat(store.get("_ktk_log/2.json")).asString(UTF_8).isEqualTo("streamed");
  }

  @Test
  void concurrentPutIfAbsentHasExactlyOneWinnerWhoseBytesAreStored() throws Exception {
    int writers = 16;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      for (int k = 0; k < 50; k++) {
        String key = "_ktk_log/" + k + ".json";
        CyclicBarrier start = new CyclicBarrier(writers);
        List<Future<Boolean>> results = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          byte[] content = bytes("writer " + w + " commits " + key);
          results.add(pool.submit(() -> {
            start.await(30, TimeUnit.SECONDS);
            return store.putIfAbsent(key, content);
          }));
        }
        List<Integer> winners = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          if (results.get(w).get(60, TimeUnit.SECONDS)) {
            winners.add(w);
          }
        }
        assertThat(winners).as("winners of %s", key).hasSize(1);
        assertThat(store.get(key)).asString(UTF_8).as(key).isEqualTo("writer " + winners.get(0) + " commits " + key);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void listingIsAscendingAndHonoursPrefixAndStartAfter() throws IOException {
    for (String key : List.of("log/0002.json", "log/0001.json", "log/0010.json", "logx/0001.json",
        "data/p=1/a.parquet", "data/p=10/b.parquet", "data/p=2/c.parquet", "z")) {
      store.put(key, bytes(key));
    }
    assertThat(list("", null)).containsExactly("data/p=1/a.parquet", "data/p=10/b.parquet", "data/p=2/c.parquet",
        "log/0001.json", "log/0002.json", "log/0010.json", "logx/0001.json", "z");
    assertThat(list("log/", null)).containsExactly("log/0001.json", "log/0002.json", "log/0010.json");
    assertThat(list("log", null)).containsExactly("log/0001.json", "log/0002.json", "log/0010.json", "logx/0001.json");
    assertThat(list("log/000", null)).containsExactly("log/0001.json", "log/0002.json");
    assertThat(list("data/p=1", null)).containsExactly("data/p=1/a.parquet", "data/p=10/b.parquet");
    assertThat(list("log/", "log/0001.json")).containsExactly("log/0002.json", "log/0010.json");
    assertThat(list("log/", "log/0005")).as("startAfter need not exist").containsExactly("log/0010.json");
    assertThat(list("log/", "log/0010.json")).isEmpty();
    assertThat(list("", "logx")).containsExactly("logx/0001.json", "z");
    assertThat(list("", "data/p=10/")).containsExactly("data/p=10/b.parquet", "data/p=2/c.parquet",
        "log/0001.json", "log/0002.json", "log/0010.json", "logx/0001.json", "z");
    assertThat(list("", "data/p=10/b.parquet")).startsWith("data/p=2/c.parquet", "log/0001.json");
    assertThat(list("data/", "data/p=1")).containsExactly("data/p=1/a.parquet", "data/p=10/b.parquet",
        "data/p=2/c.parquet");
    assertThat(list("nothing/", null)).isEmpty();
    assertThat(list("lo", null)).hasSize(4);

    Iterator<ObjectInfo> infos = store.list("data/p=10/");
    ObjectInfo info = infos.next();
    assertThat(info.key()).isEqualTo("data/p=10/b.parquet");
    assertThat(info.size()).isEqualTo("data/p=10/b.parquet".length());
    assertThat(infos.hasNext()).isFalse();
    assertThat(infos.hasNext()).isFalse();
    assertThatThrownBy(infos::next).isInstanceOf(NoSuchElementException.class);
  }

  @Test
  void listingWalksManyPagesInOrder() throws IOException {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 41; i++) {
      keys.add(String.format("many/%03d", i));
    }
    for (int i = keys.size() - 1; i >= 0; i--) {
      store.put(keys.get(i), new byte[] {(byte) i});
    }
    store.put("many0", new byte[0]);
    assertThat(list("many/", null)).containsExactlyElementsOf(keys);
    assertThat(list("many/", "many/020")).containsExactlyElementsOf(keys.subList(21, 41));
    assertThat(list("many/", "many/039")).containsExactly("many/040");
    assertThat(list("many", "many/038")).containsExactly("many/039", "many/040", "many0");
  }

  @Test
  void keysWithSpacesPercentEqualsAndUnicodeRoundTrip() throws IOException {
    List<String> keys = List.of(
        "odd/a b/c d.parquet",
        "odd/percent%20not-decoded%",
        "odd/plus+sign&amp;?x=1#frag",
        "odd/region=eu/day=2024-01-01",
        "odd/\u00e4\u00f6\u00fc/\u6587\u5b57",
        "odd/\u00e9t\u00e9 \ud83d\ude00.json");
    for (String key : keys) {
      store.put(key, bytes("content of " + key));
    }
    for (String key : keys) {
      assertThat(store.get(key)).as(key).asString(UTF_8).isEqualTo("content of " + key);
      assertThat(store.head(key)).as(key).get().extracting(ObjectInfo::key).isEqualTo(key);
    }
    assertThat(list("odd/", null)).containsExactly(
        "odd/a b/c d.parquet",
        "odd/percent%20not-decoded%",
        "odd/plus+sign&amp;?x=1#frag",
        "odd/region=eu/day=2024-01-01",
        "odd/\u00e4\u00f6\u00fc/\u6587\u5b57",
        "odd/\u00e9t\u00e9 \ud83d\ude00.json");
    assertThat(list("odd/region=", null)).containsExactly("odd/region=eu/day=2024-01-01");
    assertThat(list("odd/", "odd/percent%20not-decoded%")).hasSize(4);
    assertThat(store.putIfAbsent("odd/a b/c d.parquet", bytes("x"))).isFalse();
    store.delete("odd/a b/c d.parquet");
    assertThat(store.head("odd/a b/c d.parquet")).isEmpty();
  }

  @Test
  void keysAreOrderedByTheirUtf8Bytes() throws IOException {
    // U+FF5E is EF BD 9E in UTF-8, U+1F600 is F0 9F 98 80; as UTF-16 the latter's surrogates come first
    store.put("order/\uff5e", new byte[0]);
    store.put("order/\ud83d\ude00", new byte[0]);
    store.put("order/~", new byte[0]);
    assertThat(list("order/", null)).containsExactly("order/~", "order/\uff5e", "order/\ud83d\ude00");
    assertThat(list("order/", "order/\uff5e")).containsExactly("order/\ud83d\ude00");
  }

  @Test
  void malformedKeysAreRefused() {
    for (String key : List.of("", "/abs", "dir/", "a//b", "../up", "a/./b")) {
      assertThatThrownBy(() -> store.put(key, new byte[0])).as("'%s'", key)
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> store.get(key)).as("'%s'", key).isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> store.create(key)).as("'%s'", key).isInstanceOf(IllegalArgumentException.class);
    }
  }

  protected List<String> list(String prefix, String startAfter) throws IOException {
    List<String> keys = new ArrayList<>();
    store.list(prefix, startAfter).forEachRemaining(info -> keys.add(info.key()));
    return keys;
  }

  protected static byte[] bytes(String text) {
    return text.getBytes(UTF_8);
  }

  protected static byte[] randomBytes(Random random, int size) {
    byte[] data = new byte[size];
    random.nextBytes(data);
    return data;
  }

  /** Mixes single bytes, small writes and writes larger than a part. */
  private static void writeInRandomChunks(ObjectOutputStream out, byte[] data, Random random) throws IOException {
    int offset = 0;
    while (offset < data.length) {
      int kind = random.nextInt(10);
      int length = kind == 0 ? 1 : kind < 8 ? random.nextInt(64 * 1024) + 1 : random.nextInt(PART + PART / 2) + 1;
      length = Math.min(length, data.length - offset);
      if (length == 1) {
        out.write(data[offset]);
      } else {
        out.write(data, offset, length);
      }
      offset += length;
    }
  }
}
