package io.ktk.flink.state.testing;

import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Optional;

/**
 * A store that counts reads (ranged requests and their bytes, whole-object reads), HEAD requests
 * and listed keys.
 */
public final class CountingObjectStore extends ForwardingObjectStore {
  public int rangeReads;
  public long bytesRead;
  public int wholeReads;
  public int listed;
  public int heads;
  /** The keys of the HEAD requests, in order. */
  public final java.util.List<String> headKeys = java.util.Collections.synchronizedList(new java.util.ArrayList<>());

  public CountingObjectStore(ObjectStore delegate) {
    super(delegate);
  }

  public void reset() {
    rangeReads = 0;
    bytesRead = 0;
    wholeReads = 0;
    listed = 0;
    heads = 0;
    headKeys.clear();
  }

  /** HEAD requests of keys that contain {@code part}. */
  public long headsOf(String part) {
    synchronized (headKeys) {
      return headKeys.stream().filter(key -> key.contains(part)).count();
    }
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    heads++;
    headKeys.add(key);
    return delegate.head(key);
  }

  @Override
  public byte[] get(String key) throws IOException {
    wholeReads++;
    return delegate.get(key);
  }

  @Override
  public byte[] getRange(String key, long offset, int length) throws IOException {
    rangeReads++;
    bytesRead += length;
    return delegate.getRange(key, offset, length);
  }

  @Override
  public InputStream open(String key) throws IOException {
    wholeReads++;
    return delegate.open(key);
  }

  @Override
  public Iterator<ObjectInfo> list(String prefix, String startAfter) throws IOException {
    Iterator<ObjectInfo> keys = delegate.list(prefix, startAfter);
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return keys.hasNext();
      }

      @Override
      public ObjectInfo next() {
        listed++;
        return keys.next();
      }
    };
  }
}
