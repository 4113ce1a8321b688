package io.ktk.flink.cli;

import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.ForwardingObjectStore;
import java.io.IOException;

/**
 * Wraps a real store and, once, runs an action just before a chosen create-if-absent reaches it:
 * another writer that commits between a command's reading and its claim of the next version.
 */
final class RacingStore extends ForwardingObjectStore {
  interface Action {
    void run() throws IOException;
  }

  private final String key;
  private Action before;

  RacingStore(ObjectStore delegate, String key, Action before) {
    super(delegate);
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
}
