package io.ktk.flink.state.parquet;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} that writes one object of an {@link ObjectStore} through {@link
 * ObjectStore#create}: the object appears whole when the Parquet writer closes its stream, and
 * never if {@link #abort()} is called first (a failed write leaves nothing behind).
 *
 * <p>Objects are immutable once written, so {@link #create} and {@link #createOrOverwrite} behave
 * alike: the store replaces an existing object only when the new one is complete. One instance
 * creates one stream.
 */
public final class StoreOutputFile implements OutputFile {
  private final ObjectStore store;
  private final String key;
  private ObjectStore.ObjectOutputStream stream;

  public StoreOutputFile(ObjectStore store, String key) {
    this.store = requireNonNull(store, "store is null");
    this.key = requireNonNull(key, "key is null");
  }

  public String key() {
    return key;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) throws IOException {
    if (stream != null) {
      throw new IllegalStateException("Cannot create " + key + " twice from one StoreOutputFile");
    }
    ObjectStore.ObjectOutputStream out = store.create(key);
    stream = out;
    return new PositionOutputStream() {
      @Override
      public long getPos() {
        return out.position();
      }

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
      public void close() throws IOException {
        out.close();
      }
    };
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
    return create(blockSizeHint);
  }

  /** Discards what was written; the object does not appear. Idempotent; a no-op after close. */
  public void abort() {
    if (stream != null) {
      stream.abort();
    }
  }

  @Override
  public boolean supportsBlockSize() {
    return false;
  }

  @Override
  public long defaultBlockSize() {
    return 0;
  }

  @Override
  public String getPath() {
    return key;
  }

  @Override
  public String toString() {
    return key;
  }
}
