package io.ktk.flink.state.parquet;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} that collects the file in memory, for small files that are then
 * stored with one {@code put} (or {@code putIfAbsent}). {@link #toByteArray()} returns the bytes
 * written so far.
 */
public final class BytesOutputFile implements OutputFile {
  private final String name;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  public BytesOutputFile(String name) {
    this.name = requireNonNull(name, "name is null");
  }

  public byte[] toByteArray() {
    return bytes.toByteArray();
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) {
    bytes.reset();
    return new PositionOutputStream() {
      @Override
      public long getPos() {
        return bytes.size();
      }

      @Override
      public void write(int b) {
        bytes.write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) {
        bytes.write(b, off, len);
      }
    };
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) {
    return create(blockSizeHint);
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
    return name;
  }

  @Override
  public String toString() {
    return name;
  }
}
