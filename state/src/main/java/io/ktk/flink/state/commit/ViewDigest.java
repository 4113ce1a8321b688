package io.ktk.flink.state.commit;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A fingerprint of what a published view lists: its files (label and key) and index files. The
 * publisher stores it in the view's metadata ({@link #METADATA_KEY}); plateau keeps the metadata of
 * a dataset it appends to, so a view whose listing no longer matches its fingerprint was changed
 * by another writer. Order-independent (a sum of 64-bit hashes), so it is computed in one pass
 * over maps in any order.
 */
final class ViewDigest {
  /** Key in the published metadata holding the fingerprint of the view as this project wrote it. */
  static final String METADATA_KEY = "ktk_flink_view_digest";

  private ViewDigest() {}

  static String of(Map<String, String> fileKeys, Map<String, String> indexKeys) {
    return of(fileKeys.entrySet(), fileKeys.size(), indexKeys);
  }

  static String of(Iterable<? extends Map.Entry<String, String>> fileKeys, int files, Map<String, String> indexKeys) {
    long sum = 0;
    for (Map.Entry<String, String> file : fileKeys) {
      sum += fileHash(file.getKey(), file.getValue());
    }
    return of(sum, files, indexKeys);
  }

  /** The part of a view's fingerprint that one file (label and key) adds. */
  static long fileHash(String label, String key) {
    return hash("f\u0000" + label + "\u0000" + key);
  }

  /** The fingerprint of a view of {@code files} files whose {@link #fileHash}es sum to {@code fileSum}. */
  static String of(long fileSum, int files, Map<String, String> indexKeys) {
    long sum = fileSum;
    for (Map.Entry<String, String> index : indexKeys.entrySet()) {
      sum += hash("i\u0000" + index.getKey() + "\u0000" + index.getValue());
    }
    return files + ":" + indexKeys.size() + ":" + Long.toHexString(sum);
  }

  /** FNV-1a over the UTF-8 bytes, then a murmur3 finalizer to spread the bits. */
  private static long hash(String text) {
    long h = 0xcbf29ce484222325L;
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }
}
