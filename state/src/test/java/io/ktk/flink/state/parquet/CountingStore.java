package io.ktk.flink.state.parquet;

import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Optional;

/** A store that counts reads: ranged requests and their bytes, and whole-object reads. */
final class CountingStore implements ObjectStore {
  private final ObjectStore delegate;
  int rangeReads;
  long bytesRead;
  int wholeReads;

  CountingStore(ObjectStore delegate) {
    this.delegate = delegate;
  }

  void reset() {
    rangeReads = 0;
    bytesRead = 0;
    wholeReads = 0;
  }

  @Override
  public String url() {
    return delegate.url();
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
