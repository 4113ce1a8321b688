package io.ktk.flink.state.parquet;

import java.util.Arrays;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;

/**
 * Encodes ints of {@code bitWidth} bits (definition levels, dictionary ids) in Parquet's RLE /
 * bit-packing hybrid encoding, from an array in bulk; {@link HybridDecoder} reads it back. A run of
 * at least 8 equal values becomes a repeated run (a varint header {@code count << 1}, then the
 * value in {@code ceil(bitWidth / 8)} little-endian bytes); everything between such runs is
 * bit-packed in groups of 8 (header {@code groups << 1 | 1}, then {@code bitWidth} bytes per group,
 * packed by parquet-column's packers), the last group padded with zeros. A repeated run starts at
 * a group boundary only, so values before it that do not fill a group are bit-packed with it.
 */
public final class HybridEncoder {
  private final int bitWidth;
  private final int valueBytes;
  private final BytePacker packer;
  private final int[] group = new int[8];
  private byte[] out = new byte[256];
  private int length;

  public HybridEncoder(int bitWidth) {
    if (bitWidth < 0 || bitWidth > 32) {
      throw new IllegalArgumentException("bitWidth must be in [0, 32]: " + bitWidth);
    }
    this.bitWidth = bitWidth;
    this.valueBytes = (bitWidth + 7) / 8;
    this.packer = Packer.LITTLE_ENDIAN.newBytePacker(bitWidth);
  }

  /**
   * Encodes {@code values[0, count)}; the result is {@link #bytes()}{@code [0, }{@link
   * #length()}{@code )} until the next call.
   */
  public void encode(int[] values, int count) {
    length = 0;
    int i = 0;
    while (i < count) {
      int run = runLength(values, i, count);
      if (run >= 8) {
        repeated(values[i], run);
        i += run;
        continue;
      }
      int start = i;
      do {
        i += 8;
      } while (i < count && runLength(values, i, count) < 8);
      int end = Math.min(i, count);
      packed(values, start, end);
      i = end;
    }
  }

  public byte[] bytes() {
    return out;
  }

  public int length() {
    return length;
  }

  private static int runLength(int[] values, int from, int count) {
    int value = values[from];
    int end = from + 1;
    while (end < count && values[end] == value) {
      end++;
    }
    return end - from;
  }

  private void repeated(int value, int count) {
    ensure(5 + valueBytes);
    varint(count << 1);
    for (int b = 0; b < valueBytes; b++) {
      out[length++] = (byte) (value >>> (8 * b));
    }
  }

  private void packed(int[] values, int from, int to) {
    int groups = (to - from + 7) / 8;
    ensure(5 + groups * bitWidth);
    varint(groups << 1 | 1);
    for (int g = 0; g < groups; g++) {
      int at = from + g * 8;
      if (at + 8 <= to) {
        packer.pack8Values(values, at, out, length);
      } else {
        Arrays.fill(group, 0);
        System.arraycopy(values, at, group, 0, to - at);
        packer.pack8Values(group, 0, out, length);
      }
      length += bitWidth;
    }
  }

  private void varint(int value) {
    int v = value;
    while ((v & ~0x7F) != 0) {
      out[length++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[length++] = (byte) v;
  }

  private void ensure(int more) {
    if (length + more > out.length) {
      out = Arrays.copyOf(out, Math.max(length + more, out.length * 2));
    }
  }
}
