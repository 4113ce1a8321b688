package io.ktk.flink.state.rowformat;

import java.util.Arrays;

/**
 * Byte-level rules of the variable-length family (strings, binary, and the byte form of lists).
 *
 * <p>Ordered: null is the null byte; empty is {@code 0x01}; a non-empty value is {@code 0x02}
 * followed by its bytes in blocks of {@link #BLOCK_SIZE}; every block but the last is followed
 * by {@code 0xFF}, the last block is padded with zeros and followed by its unpadded length
 * (1..block size). Descending inverts every byte after a non-null value's first byte included.
 * The block size is a parameter only so that tests can check the documented 4-byte examples.
 *
 * <p>Unordered: a 4-byte big-endian length, then the raw bytes; null is length {@code -1}.
 */
final class VariableEncoding {
  static final int BLOCK_SIZE = 32;
  static final byte EMPTY = 0x01;
  static final byte NON_EMPTY = 0x02;
  static final byte CONTINUATION = (byte) 0xFF;
  /** The unordered form's length of a null value (u32::MAX in arrow-row). */
  static final int UNORDERED_NULL = -1;

  // Largest value whose encoding still fits an int with room for a few headers.
  private static final int MAX_VALUE_LENGTH = (Integer.MAX_VALUE - 64) / (BLOCK_SIZE + 1) * BLOCK_SIZE;

  private VariableEncoding() {}

  /** Encoded length of a present value of {@code length} bytes, ordered form. */
  static int orderedLength(int length, int blockSize) {
    if (length == 0) {
      return 1;
    }
    if (length > MAX_VALUE_LENGTH) {
      throw new IllegalArgumentException(
          "Cannot encode row key: a value of " + length + " bytes exceeds the maximum of "
              + MAX_VALUE_LENGTH);
    }
    int blocks = (length + blockSize - 1) / blockSize;
    return 1 + blocks * (blockSize + 1);
  }

  /**
   * Encodes a value whose raw bytes already sit at {@code out[pos + 1 .. pos + 1 + length)}: the
   * blocks are spread out in place (back to front, so no byte is overwritten before it is
   * moved). {@code out} must hold {@link #orderedLength} bytes from {@code pos}, and those after
   * the raw bytes must be zero: they become the padding of the last block, which always lies
   * beyond the raw bytes.
   *
   * @return the encoded length
   */
  static int encodeInPlace(byte[] out, int pos, int length, boolean descending, int blockSize) {
    if (length == 0) {
      out[pos] = descending ? (byte) ~EMPTY : EMPTY;
      return 1;
    }
    int blocks = (length + blockSize - 1) / blockSize;
    int lastLength = length - (blocks - 1) * blockSize;
    int src = pos + 1 + (blocks - 1) * blockSize;
    int dst = pos + 1 + (blocks - 1) * (blockSize + 1);
    if (dst != src) {
      System.arraycopy(out, src, out, dst, lastLength);
    }
    out[dst + blockSize] = (byte) lastLength;
    for (int k = blocks - 2; k >= 0; k--) {
      src = pos + 1 + k * blockSize;
      dst = pos + 1 + k * (blockSize + 1);
      if (dst != src) {
        System.arraycopy(out, src, out, dst, blockSize);
      }
      out[dst + blockSize] = CONTINUATION;
    }
    out[pos] = NON_EMPTY;
    int encoded = 1 + blocks * (blockSize + 1);
    if (descending) {
      FixedEncoding.invert(out, pos, encoded);
    }
    return encoded;
  }

  /**
   * Decodes the present (not null) ordered value at {@code pos} into {@code into}.
   *
   * @return the position after the value
   */
  static int decodeOrdered(byte[] in, int pos, boolean descending, int blockSize, Scratch into) {
    int flip = descending ? 0xFF : 0;
    int sentinel = (in[pos] ^ flip) & 0xFF;
    into.length = 0;
    if (sentinel == EMPTY) {
      return pos + 1;
    }
    if (sentinel != NON_EMPTY) {
      throw new IllegalArgumentException(
          "Cannot decode row: byte " + sentinel + " at " + pos + " is not a value marker");
    }
    int p = pos + 1;
    while (true) {
      int marker = (in[p + blockSize] ^ flip) & 0xFF;
      int n = marker == 0xFF ? blockSize : marker;
      if (n == 0 || n > blockSize) {
        throw new IllegalArgumentException(
            "Cannot decode row: block length " + marker + " at " + (p + blockSize) + " is invalid");
      }
      into.ensureCapacity(into.length + blockSize);
      System.arraycopy(in, p, into.bytes, into.length, n);
      into.length += n;
      p += blockSize + 1;
      if (marker != 0xFF) {
        break;
      }
    }
    if (descending) {
      FixedEncoding.invert(into.bytes, 0, into.length);
    }
    return p;
  }

  /** The ordered encoding of one value as a new array; for tests and examples. */
  static byte[] encodeOrdered(byte[] value, boolean descending, boolean nullsFirst, int blockSize) {
    if (value == null) {
      return new byte[] {FixedEncoding.nullByte(nullsFirst)};
    }
    byte[] out = new byte[orderedLength(value.length, blockSize)];
    System.arraycopy(value, 0, out, 1, value.length);
    encodeInPlace(out, 0, value.length, descending, blockSize);
    return out;
  }

  /** A growable byte array reused across decoded values. */
  static final class Scratch {
    byte[] bytes = new byte[64];
    int length;

    void ensureCapacity(int capacity) {
      if (bytes.length < capacity) {
        bytes = Arrays.copyOf(bytes, Math.max(capacity, bytes.length * 2));
      }
    }
  }
}
