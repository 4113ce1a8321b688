package io.ktk.flink.state.testing;

import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Optional;

/** Passes every call to a real store; test wrappers override the calls they watch or break. */
public class ForwardingObjectStore implements ObjectStore {
  protected final ObjectStore delegate;

  public ForwardingObjectStore(ObjectStore delegate) {
    this.delegate = delegate;
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
  public boolean putIfAbsent(String key, byte[] data) throws IOException {
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
