package io.ktk.flink.sink;

import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import io.ktk.flink.state.testing.ForwardingObjectStore;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/** Stores that make a compactor fail the ways a process fails. */
final class CompactorFaults {
  private static final Pattern LOG_ENTRY = Pattern.compile(".*/_ktk_log/\\d{20}\\.json");

  private CompactorFaults() {}

  /**
   * A store that fails the {@code filesEvery}-th data file it writes halfway through, once (the
   * rewrite it belongs to fails), and loses the response to every {@code entriesEvery}-th log entry it
   * creates: the entry lands but the call fails, so the commit must learn its outcome by reading
   * the entry back. (A rewrite writes a file per partition it compacts: failing one file once lets
   * the later rewrites reach their commits.)
   */
  static final class Flaky extends ForwardingObjectStore {
    private final int filesEvery;
    private final int entriesEvery;
    private final AtomicInteger files = new AtomicInteger();
    private final AtomicInteger entries = new AtomicInteger();
    final AtomicInteger brokenFiles = new AtomicInteger();
    final AtomicInteger lostResponses = new AtomicInteger();

    Flaky(ObjectStore delegate, int filesEvery, int entriesEvery) {
      super(delegate);
      this.filesEvery = filesEvery;
      this.entriesEvery = entriesEvery;
    }

    @Override
    public ObjectOutputStream create(String key) throws IOException {
      ObjectOutputStream out = delegate.create(key);
      if (!key.contains("/table/") || files.incrementAndGet() != filesEvery) {
        return out;
      }
      brokenFiles.incrementAndGet();
      return new ObjectOutputStream() {
        @Override
        public void write(int b) throws IOException {
          write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          if (out.position() + len > 64) {
            throw new IOException("injected failure while writing " + key + " after " + out.position() + " bytes");
          }
          out.write(b, off, len);
        }

        @Override
        public long position() {
          return out.position();
        }

        @Override
        public void abort() {
          out.abort();
        }

        @Override
        public void close() throws IOException {
          out.abort(); // a file that failed halfway never appears
        }
      };
    }

    @Override
    public boolean putIfAbsent(String key, byte[] data) throws IOException {
      boolean created = delegate.putIfAbsent(key, data);
      if (created && LOG_ENTRY.matcher(key).matches() && entries.incrementAndGet() % entriesEvery == 0) {
        lostResponses.incrementAndGet();
        throw new IOException("injected loss of the response to creating " + key + " (it was created)");
      }
      return created;
    }
  }

  /**
   * A store that dies with its process: once it has written {@code filesBeforeDeath} data files,
   * every call fails, so the compactor neither commits nor deletes what it wrote.
   */
  static final class Killable extends ForwardingObjectStore {
    private final int filesBeforeDeath;
    private volatile boolean dead;
    final List<String> written = new CopyOnWriteArrayList<>();

    Killable(ObjectStore delegate, int filesBeforeDeath) {
      super(delegate);
      this.filesBeforeDeath = filesBeforeDeath;
    }

    boolean dead() {
      return dead;
    }

    private void checkAlive() throws IOException {
      if (dead) {
        throw new IOException("injected: the compactor's process was killed");
      }
    }

    @Override
    public ObjectOutputStream create(String key) throws IOException {
      checkAlive();
      ObjectOutputStream out = delegate.create(key);
      return new ObjectOutputStream() {
        @Override
        public void write(int b) throws IOException {
          checkAlive();
          out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          checkAlive();
          out.write(b, off, len);
        }

        @Override
        public long position() {
          return out.position();
        }

        @Override
        public void abort() {
          if (!dead) {
            out.abort();
          }
        }

        @Override
        public void close() throws IOException {
          checkAlive();
          out.close();
          if (key.contains("/table/")) {
            written.add(key);
            if (written.size() >= filesBeforeDeath) {
              dead = true;
            }
          }
        }
      };
    }

    @Override
    public byte[] get(String key) throws IOException {
      checkAlive();
      return delegate.get(key);
    }

    @Override
    public byte[] getRange(String key, long offset, int length) throws IOException {
      checkAlive();
      return delegate.getRange(key, offset, length);
    }

    @Override
    public InputStream open(String key) throws IOException {
      checkAlive();
      return delegate.open(key);
    }

    @Override
    public void put(String key, byte[] data) throws IOException {
      checkAlive();
      delegate.put(key, data);
    }

    @Override
    public boolean putIfAbsent(String key, byte[] data) throws IOException {
      checkAlive();
      return delegate.putIfAbsent(key, data);
    }

    @Override
    public Optional<ObjectInfo> head(String key) throws IOException {
      checkAlive();
      return delegate.head(key);
    }

    @Override
    public Iterator<ObjectInfo> list(String prefix, String startAfter) throws IOException {
      checkAlive();
      return delegate.list(prefix, startAfter);
    }

    @Override
    public void delete(String key) throws IOException {
      checkAlive();
      delegate.delete(key);
    }
  }
}
