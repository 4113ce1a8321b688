package io.ktk.flink.state.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

class ParquetCodecsTest {
  private static final ParquetCodecs CODECS = new ParquetCodecs();

  /** Compressible but not trivial: repeated words with random numbers. */
  private static byte[] payload(long seed) {
    Random random = new Random(seed);
    StringBuilder text = new StringBuilder();
    while (text.length() < 100_000) {
      text.append("partition=").append(random.nextInt(50)).append("/value ").append(random.nextLong()).append('\n');
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  @ParameterizedTest
  @EnumSource(value = CompressionCodecName.class, names = {"UNCOMPRESSED", "SNAPPY", "ZSTD", "GZIP"})
  void pagesRoundTripThroughHeapBytes(CompressionCodecName codec) throws IOException {
    byte[] data = payload(1);
    BytesInput compressed = CODECS.getCompressor(codec).compress(BytesInput.from(data));
    if (codec != CompressionCodecName.UNCOMPRESSED) {
      assertThat(compressed.size()).as("compressed size").isLessThan(data.length * 3 / 4);
    }
    BytesInput restored = CODECS.getDecompressor(codec).decompress(BytesInput.from(compressed.toByteArray()), data.length);
    assertThat(restored.toByteArray()).isEqualTo(data);
  }

  @ParameterizedTest
  @EnumSource(value = CompressionCodecName.class, names = {"UNCOMPRESSED", "SNAPPY", "ZSTD", "GZIP"})
  void pagesDecompressIntoEveryMixOfDirectAndHeapBuffersAtTheirPositions(CompressionCodecName codec) throws IOException {
    byte[] data = payload(2);
    byte[] compressed = CODECS.getCompressor(codec).compress(BytesInput.from(data)).toByteArray();
    CompressionCodecFactory.BytesInputDecompressor decompressor = CODECS.getDecompressor(codec);
    for (boolean directIn : new boolean[] {false, true}) {
      for (boolean directOut : new boolean[] {false, true}) {
        ByteBuffer in = allocate(compressed.length + 10, directIn);
        in.position(3);
        in.put(compressed);
        in.position(3);
        ByteBuffer out = allocate(data.length + 20, directOut);
        out.position(7);

        decompressor.decompress(in, compressed.length, out, data.length);

        String mix = "in direct=" + directIn + ", out direct=" + directOut;
        assertThat(in.position()).as("input position, " + mix).isEqualTo(3);
        assertThat(out.position()).as("output position, " + mix).isEqualTo(7 + data.length);
        byte[] restored = new byte[data.length];
        out.position(7);
        out.get(restored);
        assertThat(restored).as(mix).isEqualTo(data);
      }
    }
  }

  private static ByteBuffer allocate(int size, boolean direct) {
    return direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
  }

  @Test
  void higherZstdLevelCompressesAtLeastAsWell() throws IOException {
    byte[] data = payload(3);
    long level1 = new ParquetCodecs(1).getCompressor(CompressionCodecName.ZSTD, 1).compress(BytesInput.from(data)).size();
    long level19 = CODECS.getCompressor(CompressionCodecName.ZSTD, 19).compress(BytesInput.from(data)).size();
    assertThat(level19).isLessThanOrEqualTo(level1);
  }

  @Test
  void corruptPageFailsWithTheCodecNamed() {
    byte[] garbage = "definitely not zstd".getBytes(StandardCharsets.UTF_8);
    assertThatThrownBy(() -> CODECS.getDecompressor(CompressionCodecName.ZSTD).decompress(BytesInput.from(garbage), 100))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("ZSTD");
  }

  @Test
  void unsupportedCodecsAndLevelsAreRefused() {
    assertThatThrownBy(() -> CODECS.getDecompressor(CompressionCodecName.LZ4))
        .isInstanceOf(ParquetCodecs.UnsupportedCodecException.class)
        .hasMessageContaining("LZ4");
    assertThatThrownBy(() -> new ParquetCodecs(99))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("99");
  }
}
