package io.ktk.flink.state.parquet;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * The page codecs of this project, without Hadoop: parquet-java's own {@code CodecFactory} loads
 * codecs through Hadoop's {@code CompressionCodec} classes, which are not on our classpath.
 *
 * <p>Supported: {@code UNCOMPRESSED}, {@code SNAPPY} (snappy-java, the default of pyarrow and
 * plateau), {@code ZSTD} (zstd-jni, what Kartothek cubes use; the level is configurable, 3 by
 * default like pyarrow) and {@code GZIP} (the JDK; only so that files written elsewhere with it can
 * be read). Each codec block is one raw frame, as the Parquet format defines: a Snappy block in
 * the raw (not framed) format, one ZSTD frame, one gzip member.
 *
 * <p>Decompression works on heap and direct {@link ByteBuffer}s, as parquet-java's reader asks for
 * either depending on its allocator. Instances are stateless and thread-safe.
 */
public final class ParquetCodecs implements CompressionCodecFactory {
  /** pyarrow's default ZSTD level. */
  public static final int DEFAULT_ZSTD_LEVEL = 3;

  private final int zstdLevel;

  public ParquetCodecs() {
    this(DEFAULT_ZSTD_LEVEL);
  }

  public ParquetCodecs(int zstdLevel) {
    if (zstdLevel < Zstd.minCompressionLevel() || zstdLevel > Zstd.maxCompressionLevel()) {
      throw new IllegalArgumentException(
          "Cannot use ZSTD level " + zstdLevel + ": it must be between " + Zstd.minCompressionLevel()
              + " and " + Zstd.maxCompressionLevel());
    }
    this.zstdLevel = zstdLevel;
  }

  public int zstdLevel() {
    return zstdLevel;
  }

  /** Whether {@code codec} can be written and read. */
  public static boolean isSupported(CompressionCodecName codec) {
    switch (codec) {
      case UNCOMPRESSED:
      case SNAPPY:
      case ZSTD:
      case GZIP:
        return true;
      default:
        return false;
    }
  }

  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec) {
    return new Compressor(checkSupported(codec), zstdLevel);
  }

  @Override
  public BytesInputCompressor getCompressor(CompressionCodecName codec, int level) {
    return new Compressor(checkSupported(codec), codec == CompressionCodecName.ZSTD ? level : zstdLevel);
  }

  @Override
  public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
    return new Decompressor(checkSupported(codec));
  }

  @Override
  public void release() {}

  private static CompressionCodecName checkSupported(CompressionCodecName codec) {
    if (!isSupported(codec)) {
      throw new UnsupportedCodecException(
          "Cannot use Parquet codec " + codec + ": supported are UNCOMPRESSED, SNAPPY, ZSTD and GZIP");
    }
    return codec;
  }

  /** A Parquet file or option names a codec this project does not implement. */
  public static final class UnsupportedCodecException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    UnsupportedCodecException(String message) {
      super(message);
    }
  }

  private static final class Compressor implements BytesInputCompressor {
    private final CompressionCodecName codec;
    private final int level;

    Compressor(CompressionCodecName codec, int level) {
      this.codec = codec;
      this.level = level;
    }

    @Override
    public BytesInput compress(BytesInput bytes) throws IOException {
      switch (codec) {
        case UNCOMPRESSED:
          return bytes;
        case SNAPPY:
          return BytesInput.from(Snappy.compress(bytes.toByteArray()));
        case ZSTD:
          return BytesInput.from(Zstd.compress(bytes.toByteArray(), level));
        case GZIP:
          ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(bytes.size(), 1 << 20));
          try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            bytes.writeAllTo(gzip);
          }
          return BytesInput.from(out.toByteArray());
        default:
          throw new IllegalStateException("unreachable: " + codec);
      }
    }

    @Override
    public CompressionCodecName getCodecName() {
      return codec;
    }

    @Override
    public void release() {}
  }

  private static final class Decompressor implements BytesInputDecompressor {
    private final CompressionCodecName codec;

    Decompressor(CompressionCodecName codec) {
      this.codec = codec;
    }

    @Override
    public BytesInput decompress(BytesInput bytes, int uncompressedSize) throws IOException {
      if (codec == CompressionCodecName.UNCOMPRESSED) {
        return bytes;
      }
      // a page is a slice of its chunk's array: decompress from the slice, without copying it out
      ByteBuffer input = bytes.toByteBuffer();
      byte[] output = new byte[uncompressedSize];
      try {
        if (input.hasArray()) {
          decompressArrays(input.array(), input.arrayOffset() + input.position(), input.remaining(), output, 0,
              uncompressedSize);
        } else {
          byte[] copy = bytes.toByteArray();
          decompressArrays(copy, 0, copy.length, output, 0, uncompressedSize);
        }
      } catch (RuntimeException e) {
        throw failed(e);
      }
      return BytesInput.from(output);
    }

    /** The codec libraries report corrupt input with unchecked exceptions of their own. */
    private IOException failed(RuntimeException e) {
      return new IOException("Cannot decompress a " + codec + " page: " + e.getMessage(), e);
    }

    /**
     * Reads {@code compressedSize} bytes from the input's position (leaving the input's position
     * alone) and writes {@code uncompressedSize} bytes at the output's position, advancing it as
     * {@link ByteBuffer#put(ByteBuffer)} would.
     */
    @Override
    public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
        throws IOException {
      try {
        decompressBuffers(input, compressedSize, output, uncompressedSize);
      } catch (RuntimeException e) {
        throw failed(e);
      }
    }

    private void decompressBuffers(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
        throws IOException {
      if (output.remaining() < uncompressedSize) {
        throw new IOException(
            "Cannot decompress a " + codec + " page: " + uncompressedSize + " bytes do not fit into "
                + output.remaining());
      }
      int inPos = input.position();
      int outPos = output.position();
      if (codec == CompressionCodecName.UNCOMPRESSED) {
        ByteBuffer slice = input.duplicate();
        slice.limit(inPos + compressedSize);
        output.put(slice);
        return;
      }
      if (input.isDirect() && output.isDirect() && codec != CompressionCodecName.GZIP) {
        long written;
        if (codec == CompressionCodecName.SNAPPY) {
          ByteBuffer in = input.duplicate();
          in.limit(inPos + compressedSize);
          ByteBuffer out = output.duplicate();
          written = Snappy.uncompress(in, out);
        } else {
          written = Zstd.decompressDirectByteBuffer(output, outPos, uncompressedSize, input, inPos, compressedSize);
          checkZstd(written);
        }
        checkSize(written, uncompressedSize);
        output.position(outPos + uncompressedSize);
        return;
      }
      byte[] in;
      int inOffset;
      if (input.hasArray()) {
        in = input.array();
        inOffset = input.arrayOffset() + inPos;
      } else {
        in = new byte[compressedSize];
        input.duplicate().get(in);
        inOffset = 0;
      }
      if (output.hasArray()) {
        decompressArrays(in, inOffset, compressedSize, output.array(), output.arrayOffset() + outPos, uncompressedSize);
        output.position(outPos + uncompressedSize);
      } else {
        byte[] out = new byte[uncompressedSize];
        decompressArrays(in, inOffset, compressedSize, out, 0, uncompressedSize);
        output.put(out);
      }
    }

    private void decompressArrays(byte[] in, int inOffset, int inLength, byte[] out, int outOffset, int outLength)
        throws IOException {
      long written;
      switch (codec) {
        case SNAPPY:
          written = Snappy.uncompress(in, inOffset, inLength, out, outOffset);
          break;
        case ZSTD:
          written = Zstd.decompressByteArray(out, outOffset, outLength, in, inOffset, inLength);
          checkZstd(written);
          break;
        case GZIP:
          written = 0;
          try (GZIPInputStream gzip = new GZIPInputStream(new ByteArrayInputStream(in, inOffset, inLength))) {
            int n = 0;
            while (written < outLength && n >= 0) {
              n = gzip.read(out, outOffset + (int) written, outLength - (int) written);
              written += Math.max(n, 0);
            }
          }
          break;
        default:
          throw new IllegalStateException("unreachable: " + codec);
      }
      checkSize(written, outLength);
    }

    private void checkZstd(long code) throws IOException {
      if (Zstd.isError(code)) {
        throw new IOException("Cannot decompress a ZSTD page: " + Zstd.getErrorName(code));
      }
    }

    private void checkSize(long written, int expected) throws IOException {
      if (written != expected) {
        throw new IOException(
            "Cannot decompress a " + codec + " page: it holds " + written + " bytes, the page header says "
                + expected);
      }
    }

    @Override
    public void release() {}
  }
}
