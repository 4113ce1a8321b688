package io.ktk.flink.state.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.junit.jupiter.api.Test;

/**
 * The hybrid encoder against two decoders: parquet-java's own and {@link HybridDecoder}, over
 * seeded random values of every bit width, with long runs, short runs and none.
 */
class HybridEncoderTest {
  @Test
  void parquetJavasDecoderAndOursReadBackWhatWasEncoded() throws IOException {
    Random random = new Random(20240611L);
    for (int bitWidth = 0; bitWidth <= 32; bitWidth++) {
      for (int trial = 0; trial < 20; trial++) {
        int count = random.nextInt(trial < 5 ? 20 : 3000) + 1;
        int[] values = values(random, bitWidth, count);
        HybridEncoder encoder = new HybridEncoder(bitWidth);
        encoder.encode(values, count);
        byte[] bytes = Arrays.copyOf(encoder.bytes(), encoder.length());

        RunLengthBitPackingHybridDecoder parquet =
            new RunLengthBitPackingHybridDecoder(bitWidth, ByteBufferInputStream.wrap(ByteBuffer.wrap(bytes)));
        int[] decoded = new int[(count + 7) & ~7];
        for (int i = 0; i < count; i++) {
          decoded[i] = parquet.readInt();
        }
        assertThat(Arrays.copyOf(decoded, count)).as("bit width %d, %d values", bitWidth, count).isEqualTo(values);

        int[] ours = new int[(count + 7) & ~7];
        HybridDecoder.decode(bytes, 0, bytes.length, bitWidth, count, ours);
        assertThat(Arrays.copyOf(ours, count)).as("bit width %d, %d values", bitWidth, count).isEqualTo(values);
      }
    }
  }

  @Test
  void aRunOfOneValueIsOneRepeatedRun() {
    int[] ones = new int[20_000];
    Arrays.fill(ones, 1);
    HybridEncoder encoder = new HybridEncoder(1);
    encoder.encode(ones, ones.length);
    // header 20000 << 1 as a varint (3 bytes), then the value in one byte
    assertThat(Arrays.copyOf(encoder.bytes(), encoder.length())).containsExactly(0xC0 - 256, 0xB8 - 256, 0x02, 1);
  }

  @Test
  void refusesBitWidthsParquetHasNot() {
    assertThatThrownBy(() -> new HybridEncoder(33)).hasMessage("bitWidth must be in [0, 32]: 33");
  }

  /** Values of {@code bitWidth} bits: runs of random lengths (many shorter than 8) of random values. */
  private static int[] values(Random random, int bitWidth, int count) {
    int[] values = new int[count];
    int i = 0;
    while (i < count) {
      int value = (int) (random.nextLong() & ((1L << bitWidth) - 1));
      int run = random.nextInt(4) == 0 ? 1 + random.nextInt(40) : 1 + random.nextInt(3);
      for (int r = 0; r < run && i < count; r++) {
        values[i++] = value;
      }
    }
    return values;
  }
}
