package io.ktk.flink.state.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Iterator;
import java.util.Optional;

/**
 * A flat key/value store of immutable-ish objects under one root: a local directory or an S3
 * bucket prefix. Keys are relative to the root and use {@code /} as separator; they never start
 * with {@code /}.
 *
 * <p>The one atomic primitive the commit protocol needs is {@link #putIfAbsent}: of any number of
 * concurrent callers for one key, exactly one returns {@code true}. Every other write may be seen
 * partially written by nobody: an object becomes visible whole, when its write completes, or not
 * at all.
 *
 * <p>Implementations are thread-safe.
 */
public interface ObjectStore extends AutoCloseable {

  /** The URL of the root, as given to {@link ObjectStores#open}. */
  String url();

  /** Reads a whole object. Throws {@link NoSuchObjectException} when the key does not exist. */
  byte[] get(String key) throws IOException;

  /** Reads {@code length} bytes from {@code offset}; used for Parquet footers and column chunks. */
  byte[] getRange(String key, long offset, int length) throws IOException;

  /** Opens a stream over a whole object. Throws {@link NoSuchObjectException} when absent. */
  InputStream open(String key) throws IOException;

  /** Writes a whole object, replacing any previous one; visible whole or not at all. */
  void put(String key, byte[] data) throws IOException;

  /**
   * Creates an object only if no object exists under the key.
   *
   * @return {@code true} if this call created it, {@code false} if an object already existed
   */
  boolean putIfAbsent(String key, byte[] data) throws IOException;

  /**
   * Opens a stream that writes an object of unknown size (multipart on S3 above a threshold). The
   * object becomes visible when the stream is closed; an aborted or failed stream leaves nothing.
   */
  ObjectOutputStream create(String key) throws IOException;

  /** Size and modification time, or empty when the key does not exist. */
  Optional<ObjectInfo> head(String key) throws IOException;

  /**
   * Lists the objects whose keys start with {@code prefix}, in ascending key order, page by page
   * as the iterator advances. Keys greater than {@code startAfter} only, when it is non-null.
   * Keys compare by their UTF-8 bytes (code point order), as S3 lists them.
   */
  Iterator<ObjectInfo> list(String prefix, String startAfter) throws IOException;

  /** Lists the objects whose keys start with {@code prefix}, in ascending key order. */
  default Iterator<ObjectInfo> list(String prefix) throws IOException {
    return list(prefix, null);
  }

  /** Deletes an object; deleting a missing key is not an error. */
  void delete(String key) throws IOException;

  @Override
  void close() throws IOException;

  /** An output stream whose object appears on {@link #close()} and never on {@link #abort()}. */
  abstract class ObjectOutputStream extends OutputStream {
    /** Bytes written so far. */
    public abstract long position();

    /** Discards everything written; the object never appears. Idempotent. */
    public abstract void abort();
  }
}
