package io.ktk.flink.benchmarks.longrun;

import io.ktk.flink.state.store.LocalObjectStore;
import io.ktk.flink.state.testing.ForwardingObjectStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.time.Clock;

/**
 * A local directory whose objects carry the simulated time as their modification time: every
 * object written is stamped with the simulated clock's instant once it exists. Expiry (the age of
 * log entries and index files), garbage collection (the safety age) and compaction (idle
 * partitions) judge age by the store's modification times, so they see the simulated job's
 * history rather than the few hours the simulation took.
 */
final class SimulatedTimeStore extends ForwardingObjectStore {
  private final LocalObjectStore local;
  private final Clock clock;

  SimulatedTimeStore(LocalObjectStore local, Clock clock) {
    super(local);
    this.local = local;
    this.clock = clock;
  }

  @Override
  public void put(String key, byte[] data) throws IOException {
    super.put(key, data);
    stamp(key);
  }

  @Override
  public boolean putIfAbsent(String key, byte[] data) throws IOException {
    boolean created = super.putIfAbsent(key, data);
    if (created) {
      stamp(key);
    }
    return created;
  }

  @Override
  public ObjectOutputStream create(String key) throws IOException {
    ObjectOutputStream out = super.create(key);
    return new ObjectOutputStream() {
      private boolean closed;

      @Override
      public void write(int b) throws IOException {
        out.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void flush() throws IOException {
        out.flush();
      }

      @Override
      public long position() {
        return out.position();
      }

      @Override
      public void abort() {
        closed = true;
        out.abort();
      }

      @Override
      public void close() throws IOException {
        if (closed) {
          return;
        }
        closed = true;
        out.close();
        stamp(key);
      }
    };
  }

  private void stamp(String key) throws IOException {
    Files.setLastModifiedTime(local.root().resolve(key), FileTime.from(clock.instant()));
  }
}
