package io.ktk.flink.state.parquet;

import static java.util.Objects.requireNonNull;

import io.ktk.flink.state.store.NoSuchObjectException;
import io.ktk.flink.state.store.ObjectInfo;
import io.ktk.flink.state.store.ObjectStore;
import java.io.IOException;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet {@link InputFile} over one object of an {@link ObjectStore}, read with ranged reads
 * ({@link ObjectStore#getRange}) so that reading a footer or a few column chunks of a large file
 * never downloads the whole object.
 *
 * <p>Each stream keeps one read-ahead window ({@link #DEFAULT_READ_AHEAD} bytes unless given):
 * the first read near the end of a file fetches its last window, which holds the footer (and all
 * of a small file); later small reads are served from the window; a read of a window's size or
 * more, such as a column chunk, is one range request of its own.
 *
 * <p>The length comes from {@link ObjectStore#head} on first use, unless the caller already knows
 * it from a listing or a log entry and passes it in.
 */
public final class StoreInputFile implements InputFile {
  /** 1 MiB: one S3 request holds the footer of nearly any file and all of a small one. */
  public static final int DEFAULT_READ_AHEAD = 1 << 20;

  private final ObjectStore store;
  private final String key;
  private final int readAhead;
  private long length = -1;

  public StoreInputFile(ObjectStore store, String key) {
    this(store, key, -1, DEFAULT_READ_AHEAD);
  }

  /**
   * @param length the object's size in bytes if known, else -1 to ask the store on first use
   * @param readAhead the size of the read-ahead window in bytes
   */
  public StoreInputFile(ObjectStore store, String key, long length, int readAhead) {
    this.store = requireNonNull(store, "store is null");
    this.key = requireNonNull(key, "key is null");
    if (readAhead <= 0) {
      throw new IllegalArgumentException("readAhead must be positive: " + readAhead);
    }
    this.readAhead = readAhead;
    this.length = length;
  }

  public String key() {
    return key;
  }

  /** The size of the object; throws {@link NoSuchObjectException} when it does not exist. */
  @Override
  public long getLength() throws IOException {
    if (length < 0) {
      ObjectInfo info = store.head(key).orElseThrow(() -> new NoSuchObjectException(store.url(), key));
      length = info.size();
    }
    return length;
  }

  @Override
  public SeekableInputStream newStream() throws IOException {
    return new RangeInputStream(key, (offset, len) -> store.getRange(key, offset, len), getLength(), readAhead);
  }

  @Override
  public String toString() {
    return key;
  }
}
