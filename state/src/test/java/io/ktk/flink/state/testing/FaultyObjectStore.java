package io.ktk.flink.state.testing;

import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps a real store and makes chosen operations fail: before they reach the store (nothing
 * happens) or after (the operation happened, but the caller sees an error, as when a response is
 * lost). Used to test what the commit protocol does when the store misbehaves.
 */
public final class FaultyObjectStore implements ObjectStore {
  /** When an injected failure strikes. */
  public enum When { BEFORE, AFTER }

  private final ObjectStore delegate;
  private final AtomicInteger putIfAbsentFailures = new AtomicInteger();
  private volatile When putIfAbsentWhen = When.BEFORE;
  private final AtomicInteger getFailures = new AtomicInteger();

  public FaultyObjectStore(ObjectStore delegate) {
    this.delegate = delegate;
  }

  /** The next {@code count} calls of putIfAbsent fail, {@code when} says before or after writing. */
  public FaultyObjectStore failPutIfAbsent(int count, When when) {
    putIfAbsentWhen = when;
    putIfAbsentFailures.set(count);
    return this;
  }

  /** The next {@code count} calls of get fail before reading. */
  public FaultyObjectStore failGet(int count) {
    getFailures.set(count);
    return this;
  }

  private static boolean take(AtomicInteger counter) {
    return counter.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
  }

  @Override
  public String url() {
    return delegate.url();
  }

  @Override
  public byte[] get(String key) throws IOException {
    if (take(getFailures)) {
      throw new IOException("injected failure: get " + key);
    }
    return delegate.get(key);
  }

  @Override
  public byte[] getRange(String key, long offset, int length) throws IOException {
    return delegate.getRange(key, offset, length);
  }

  @Override
  public InputStream open(String key) throws IOException {
    return delegate.open(key);
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    delegate.put(key, data);
  }

  @Override
  public boolean putIfAbsent(String key, byte[] data) throws IOException {
    if (take(putIfAbsentFailures)) {
      if (putIfAbsentWhen == When.AFTER) {
        delegate.putIfAbsent(key, data);
      }
      throw new IOException("injected failure (" + putIfAbsentWhen + "): putIfAbsent " + key);
    }
    return delegate.putIfAbsent(key, data);
  }

  @Override
  public ObjectOutputStream create(String key) throws IOException {
    return delegate.create(key);
  }

  @Override
  public Optional<ObjectInfo> head(String key) throws IOException {
    return delegate.head(key);
  }

  @Override
  public Iterator<ObjectInfo> list(String prefix, String startAfter) throws IOException {
    return delegate.list(prefix, startAfter);
  }

  @Override
  public void delete(String key) throws IOException {
    delegate.delete(key);
  }

  @Override
  public void close() throws IOException {
    delegate.close();
  }
}
