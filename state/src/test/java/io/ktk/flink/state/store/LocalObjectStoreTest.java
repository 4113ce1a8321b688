package io.ktk.flink.state.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalObjectStoreTest {
  @TempDir Path dir;

  @Test
  void abortedStreamLeavesNothingAndClosedStreamAppearsWhole() throws IOException {
    try (ObjectStore store = ObjectStores.open(dir.toUri().toString())) {
      ObjectStore.ObjectOutputStream aborted = store.create("a/b.bin");
      aborted.write(new byte[] {1, 2, 3});
      aborted.abort();
      assertThat(store.head("a/b.bin")).isEmpty();

      ObjectStore.ObjectOutputStream out = store.create("a/b.bin");
      out.write("hello".getBytes(UTF_8));
      assertThat(store.head("a/b.bin")).as("invisible before close").isEmpty();
      out.close();
      assertThat(store.get("a/b.bin")).asString(UTF_8).isEqualTo("hello");
      try (var files = Files.list(dir.resolve("a"))) {
        assertThat(files.map(p -> p.getFileName().toString())).containsExactly("b.bin");
      }
    }
  }

  @Test
  void listingSkipsTemporaryFilesAndHonoursPrefixAndStartAfter() throws IOException {
    try (ObjectStore store = ObjectStores.open(dir.toUri().toString())) {
      store.put("log/0002.json", new byte[1]);
      store.put("log/0001.json", new byte[2]);
      store.put("logx/0001.json", new byte[3]);
      store.put("other/x", new byte[4]);
      Files.write(dir.resolve("log").resolve(LocalObjectStore.TEMP_PREFIX + "junk"), new byte[5]);

      assertThat(keys(store, "log/", null)).containsExactly("log/0001.json", "log/0002.json");
      assertThat(keys(store, "log", null)).containsExactly("log/0001.json", "log/0002.json", "logx/0001.json");
      assertThat(keys(store, "log/", "log/0001.json")).containsExactly("log/0002.json");
      assertThat(keys(store, "nothing/", null)).isEmpty();
    }
  }

  @Test
  void putIfAbsentCreatesOnceAndReadsReportMissingKeys() throws IOException {
    try (ObjectStore store = ObjectStores.open(dir.toUri().toString())) {
      assertThat(store.putIfAbsent("k", "first".getBytes(UTF_8))).isTrue();
      assertThat(store.putIfAbsent("k", "second".getBytes(UTF_8))).isFalse();
      assertThat(store.get("k")).asString(UTF_8).isEqualTo("first");
      assertThatThrownBy(() -> store.get("missing"))
          .isInstanceOf(NoSuchObjectException.class)
          .hasMessageContaining("missing");
      assertThat(store.getRange("k", 1, 3)).asString(UTF_8).isEqualTo("irs");
    }
  }

  @Test
  void badUrlsAndKeysAreRefusedWithTheReason() {
    assertThatThrownBy(() -> ObjectStores.open("ftp://host/x"))
        .isInstanceOf(InvalidStoreUrlException.class)
        .hasMessageContaining("unknown scheme 'ftp'");
    assertThatThrownBy(() -> ObjectStores.open("relative/dir"))
        .isInstanceOf(InvalidStoreUrlException.class)
        .hasMessageContaining("no scheme");
    assertThatThrownBy(() -> ObjectStores.open(dir.toUri().toString(), Map.of("region", "x")))
        .isInstanceOf(InvalidStoreUrlException.class)
        .hasMessageContaining("unknown option 'region'; it takes no options");
    try (ObjectStore store = ObjectStores.open(dir.toUri().toString())) {
      assertThatThrownBy(() -> store.put("../escape", new byte[0]))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'..'");
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static List<String> keys(ObjectStore store, String prefix, String startAfter) throws IOException {
    List<String> keys = new ArrayList<>();
    store.list(prefix, startAfter).forEachRemaining(info -> keys.add(info.key()));
    return keys;
  }
}
