package io.ktk.flink.state.parquet;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A {@link SeekableInputStream} over an object that is read by byte ranges, with one read-ahead
 * window: a read that misses the window fetches {@code readAhead} bytes from the read position
 * (or, near the end of the object, the last {@code readAhead} bytes, so the Parquet footer and
 * what precedes it arrive in one request). A read of at least {@code readAhead} bytes, such as a
 * whole column chunk, bypasses the window and is fetched as it is asked for.
 */
final class RangeInputStream extends SeekableInputStream {
  /** Fetches {@code length} bytes from {@code offset}; the range lies inside the object. */
  @FunctionalInterface
  interface RangeReader {
    byte[] read(long offset, int length) throws IOException;
  }

  /** The largest single range request of a bypassing read. */
  private static final int MAX_RANGE = 64 << 20;

  private static final byte[] EMPTY = new byte[0];

  private final String name;
  private final RangeReader reader;
  private final long length;
  private final int readAhead;
  private byte[] window = EMPTY;
  private long windowStart;
  private long pos;
  private boolean closed;

  RangeInputStream(String name, RangeReader reader, long length, int readAhead) {
    if (readAhead <= 0) {
      throw new IllegalArgumentException("readAhead must be positive: " + readAhead);
    }
    this.name = name;
    this.reader = reader;
    this.length = length;
    this.readAhead = readAhead;
  }

  @Override
  public long getPos() {
    return pos;
  }

  @Override
  public void seek(long newPos) throws IOException {
    checkOpen();
    if (newPos < 0 || newPos > length) {
      throw new EOFException("Cannot seek to " + newPos + " in " + name + ": it has " + length + " bytes");
    }
    pos = newPos;
  }

  @Override
  public int read() throws IOException {
    checkOpen();
    if (pos >= length) {
      return -1;
    }
    if (!inWindow(pos)) {
      fill(pos);
    }
    int b = window[(int) (pos - windowStart)] & 0xFF;
    pos++;
    return b;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    return read(ByteBuffer.wrap(b, off, len));
  }

  @Override
  public void readFully(byte[] bytes) throws IOException {
    readFully(ByteBuffer.wrap(bytes));
  }

  @Override
  public void readFully(byte[] bytes, int start, int len) throws IOException {
    readFully(ByteBuffer.wrap(bytes, start, len));
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    checkOpen();
    if (!dst.hasRemaining()) {
      return 0;
    }
    if (pos >= length) {
      return -1;
    }
    int n = (int) Math.min(dst.remaining(), length - pos);
    copy(dst, n);
    return n;
  }

  @Override
  public void readFully(ByteBuffer dst) throws IOException {
    checkOpen();
    int n = dst.remaining();
    if (pos + n > length) {
      throw new EOFException(
          "Cannot read " + n + " bytes at offset " + pos + " of " + name + ": it has " + length + " bytes");
    }
    copy(dst, n);
  }

  @Override
  public long skip(long n) throws IOException {
    checkOpen();
    long skipped = Math.max(0, Math.min(n, length - pos));
    pos += skipped;
    return skipped;
  }

  @Override
  public int available() {
    return (int) Math.min(Integer.MAX_VALUE, length - pos);
  }

  @Override
  public void close() {
    closed = true;
    window = EMPTY;
  }

  /**
   * Reads the next {@code n} bytes into an array of their own: a range beyond the read-ahead
   * window is fetched from the store into the returned array itself (no copy), which is how
   * column chunks are read.
   */
  byte[] readBytes(int n) throws IOException {
    checkOpen();
    if (n > length - pos) {
      throw new EOFException("Cannot read " + n + " bytes at offset " + pos + " of " + name + ": it has " + length);
    }
    if (n >= readAhead && !inWindow(pos) && n <= MAX_RANGE) {
      byte[] bytes = fetch(pos, n);
      pos += n;
      return bytes;
    }
    byte[] bytes = new byte[n];
    copy(ByteBuffer.wrap(bytes), n);
    return bytes;
  }

  private void copy(ByteBuffer dst, int n) throws IOException {
    int remaining = n;
    while (remaining > 0) {
      if (inWindow(pos)) {
        int offset = (int) (pos - windowStart);
        int k = Math.min(remaining, window.length - offset);
        dst.put(window, offset, k);
        pos += k;
        remaining -= k;
      } else if (remaining >= readAhead) {
        int k = Math.min(remaining, MAX_RANGE);
        byte[] bytes = fetch(pos, k);
        dst.put(bytes);
        pos += k;
        remaining -= k;
      } else {
        fill(pos);
      }
    }
  }

  private boolean inWindow(long position) {
    return position >= windowStart && position < windowStart + window.length;
  }

  private void fill(long position) throws IOException {
    long end = Math.min(length, position + readAhead);
    long start = Math.max(0, Math.min(position, end - readAhead));
    window = fetch(start, (int) (end - start));
    windowStart = start;
  }

  private byte[] fetch(long offset, int len) throws IOException {
    byte[] bytes = reader.read(offset, len);
    if (bytes.length != len) {
      throw new EOFException(
          "Cannot read " + len + " bytes at offset " + offset + " of " + name + ": got " + bytes.length);
    }
    return bytes;
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException("Cannot read " + name + ": the stream is closed");
    }
  }
}
