package io.ktk.flink.state.parquet;

import io.ktk.flink.state.CorruptDatasetException;
import java.util.Arrays;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;

/**
 * Decodes Parquet's RLE / bit-packing hybrid encoding (definition levels, dictionary ids) into an
 * int array in bulk: runs of one value are filled, bit-packed groups of eight are unpacked by
 * parquet-column's packers. Format: a sequence of runs, each an unsigned varint header whose low
 * bit says bit-packed (1: {@code header >>> 1} groups of eight values, {@code bitWidth} bytes per
 * group) or repeated (0: {@code header >>> 1} copies of one value in {@code ceil(bitWidth / 8)}
 * little-endian bytes).
 */
public final class HybridDecoder {
  private HybridDecoder() {}

  /**
   * Decodes {@code count} values of {@code bitWidth} bits from {@code bytes[from, to)} into
   * {@code out[0, count)}; {@code out} must hold {@code count} rounded up to a multiple of 8.
   */
  public static void decode(byte[] bytes, int from, int to, int bitWidth, int count, int[] out) {
    if (bitWidth == 0) {
      Arrays.fill(out, 0, count, 0);
      return;
    }
    BytePacker packer = Packer.LITTLE_ENDIAN.newBytePacker(bitWidth);
    int valueBytes = (bitWidth + 7) / 8;
    int pos = from;
    int done = 0;
    while (done < count) {
      if (pos >= to) {
        throw new CorruptDatasetException("RLE/bit-packed data ends after " + done + " of " + count + " values");
      }
      int header = 0;
      int shift = 0;
      int b;
      do {
        b = bytes[pos++] & 0xFF;
        header |= (b & 0x7F) << shift;
        shift += 7;
      } while ((b & 0x80) != 0 && pos < to);
      if ((header & 1) == 0) {
        int run = header >>> 1;
        int value = 0;
        for (int i = 0; i < valueBytes; i++) {
          value |= (bytes[pos++] & 0xFF) << (8 * i);
        }
        int n = Math.min(run, count - done);
        Arrays.fill(out, done, done + n, value);
        done += n;
      } else {
        int groups = header >>> 1;
        byte[] source = bytes;
        int at = pos;
        int length = groups * bitWidth;
        if (pos + length > to) {
          // the last run may end early (trailing padding left out): unpack from a padded copy
          source = Arrays.copyOfRange(bytes, pos, pos + length);
          Arrays.fill(source, Math.max(0, to - pos), length, (byte) 0);
          at = 0;
        }
        for (int g = 0; g < groups && done < count; g++) {
          if (done + 8 <= out.length) {
            packer.unpack8Values(source, at + g * bitWidth, out, done);
          } else {
            int[] last = new int[8];
            packer.unpack8Values(source, at + g * bitWidth, last, 0);
            System.arraycopy(last, 0, out, done, out.length - done);
          }
          done += 8;
        }
        pos += length;
      }
    }
  }
}
