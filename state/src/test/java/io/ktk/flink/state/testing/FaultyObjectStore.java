package io.ktk.flink.state.testing;

import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Wraps a real store and makes chosen operations fail: before they reach the store (nothing
 * happens) or after (the operation happened, but the caller sees an error, as when a response is
 * lost). Used to test what the commit protocol does when the store misbehaves.
 */
public final class FaultyObjectStore extends ForwardingObjectStore {
  /** When an injected failure strikes. */
  public enum When { BEFORE, AFTER }

  private final AtomicInteger putIfAbsentFailures = new AtomicInteger();
  private volatile When putIfAbsentWhen = When.BEFORE;
  private volatile String putIfAbsentPrefix = "";
  private final AtomicInteger getFailures = new AtomicInteger();
  private volatile String getPrefix = "";

  public FaultyObjectStore(ObjectStore delegate) {
    super(delegate);
  }

  /** The next {@code count} calls of putIfAbsent fail, {@code when} says before or after writing. */
  public FaultyObjectStore failPutIfAbsent(int count, When when) {
    return failPutIfAbsent(count, when, "");
  }

  /** The next {@code count} calls of putIfAbsent of a key starting with {@code keyPrefix} fail. */
  public FaultyObjectStore failPutIfAbsent(int count, When when, String keyPrefix) {
    putIfAbsentWhen = when;
    putIfAbsentPrefix = keyPrefix;
    putIfAbsentFailures.set(count);
    return this;
  }

  /** The next {@code count} calls of get fail before reading. */
  public FaultyObjectStore failGet(int count) {
    return failGet(count, "");
  }

  /** The next {@code count} calls of get of a key starting with {@code keyPrefix} fail before reading. */
  public FaultyObjectStore failGet(int count, String keyPrefix) {
    getPrefix = keyPrefix;
    getFailures.set(count);
    return this;
  }

  private static boolean take(AtomicInteger counter) {
    return counter.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
  }


  @Override
  public byte[] get(String key) throws IOException {
    if (key.startsWith(getPrefix) && take(getFailures)) {
      throw new IOException("injected failure: get " + key);
    }
    return delegate.get(key);
  }




  @Override
  public boolean putIfAbsent(String key, byte[] data) throws IOException {
    if (key.startsWith(putIfAbsentPrefix) && take(putIfAbsentFailures)) {
      if (putIfAbsentWhen == When.AFTER) {
        delegate.putIfAbsent(key, data);
      }
      throw new IOException("injected failure (" + putIfAbsentWhen + "): putIfAbsent " + key);
    }
    return delegate.putIfAbsent(key, data);
  }





}
