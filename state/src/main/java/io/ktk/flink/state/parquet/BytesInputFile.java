package io.ktk.flink.state.parquet;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet {@link InputFile} over bytes in memory, for small files such as {@code
 * _common_metadata} and index files that were fetched whole. The name (usually the store key)
 * appears in error messages.
 */
public final class BytesInputFile implements InputFile {
  private final String name;
  private final byte[] data;

  /** Keeps {@code data} without copying; the caller must not change it. */
  public BytesInputFile(String name, byte[] data) {
    this.name = requireNonNull(name, "name is null");
    this.data = requireNonNull(data, "data is null");
  }

  @Override
  public long getLength() {
    return data.length;
  }

  @Override
  public SeekableInputStream newStream() {
    return new RangeInputStream(
        name,
        (offset, length) -> Arrays.copyOfRange(data, (int) offset, (int) offset + length),
        data.length,
        Math.max(1, data.length));
  }

  @Override
  public String toString() {
    return name;
  }
}
