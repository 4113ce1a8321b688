package io.ktk.flink.cli;

import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Optional;

/**
 * Wraps a real store and, once, runs an action just before a chosen create-if-absent reaches it:
 * another writer that commits between a command's reading and its claim of the next version.
 */
final class RacingStore implements ObjectStore {
  interface Action {
    void run() throws IOException;
  }

  private final ObjectStore delegate;
  private final String key;
  private Action before;

  RacingStore(ObjectStore delegate, String key, Action before) {
    this.delegate = delegate;
    this.key = key;
    this.before = before;
  }

  @Override
  public boolean putIfAbsent(String key, byte[] data) throws IOException {
    if (key.equals(this.key) && before != null) {
      Action action = before;
      before = null;
      action.run();
    }
    return delegate.putIfAbsent(key, data);
  }

  @Override
  public String url() {
    return delegate.url();
  }

  @Override
  public byte[] get(String key) throws IOException {
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
