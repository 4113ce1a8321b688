package io.ktk.flink.state.store;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/** An object's key, size in bytes and last modification time. */
public record ObjectInfo(String key, long size, Instant lastModified) {
  public ObjectInfo {
    requireNonNull(key, "key is null");
    requireNonNull(lastModified, "lastModified is null");
    if (size < 0) {
      throw new IllegalArgumentException("size is negative: " + size);
    }
  }
}
