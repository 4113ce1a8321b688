package io.ktk.flink.state.rowformat;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Byte-level rules of the fixed-width family (bool, integers, floats, temporal types, decimal128,
 * fixed-size binary): a marker byte, then the value's bytes big-endian, transformed so that
 * unsigned byte order equals value order.
 *
 * <p>Every value of the family is reduced to "bits" (at most 8 bytes, decimal128 uses two
 * words) and written as {@code bits ^ xorMask}. The mask flips the sign bit of signed values
 * (two's complement order becomes unsigned order) and, for descending columns, all bits.
 */
final class FixedEncoding {
  static final VarHandle LONG_BE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
  static final VarHandle INT_BE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
  static final VarHandle SHORT_BE =
      MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);

  /** Marker of a present value; nulls use 0x00 (nulls first) or 0xFF (nulls last). */
  static final byte VALID = 0x01;

  private FixedEncoding() {}

  static byte nullByte(boolean nullsFirst) {
    return nullsFirst ? (byte) 0x00 : (byte) 0xFF;
  }

  /** The mask applied to the bits of a value of {@code width} bytes. */
  static long xorMask(boolean signed, int width, boolean descending) {
    long mask = signed ? 1L << (width * 8 - 1) : 0L;
    return descending ? ~mask : mask;
  }

  /** Writes the low {@code width} bytes of {@code bits} big-endian at {@code pos}. */
  static void putBits(byte[] out, int pos, long bits, int width) {
    switch (width) {
      case 8 -> LONG_BE.set(out, pos, bits);
      case 4 -> INT_BE.set(out, pos, (int) bits);
      case 2 -> SHORT_BE.set(out, pos, (short) bits);
      case 1 -> out[pos] = (byte) bits;
      default -> throw new IllegalStateException("Unexpected width " + width);
    }
  }

  /** Reads {@code width} bytes big-endian at {@code pos}, zero-extended. */
  static long getBits(byte[] in, int pos, int width) {
    return switch (width) {
      case 8 -> (long) LONG_BE.get(in, pos);
      case 4 -> Integer.toUnsignedLong((int) INT_BE.get(in, pos));
      case 2 -> Short.toUnsignedLong((short) SHORT_BE.get(in, pos));
      case 1 -> Byte.toUnsignedLong(in[pos]);
      default -> throw new IllegalStateException("Unexpected width " + width);
    };
  }

  /**
   * Bits of a float as a signed int in IEEE total order, after mapping -0.0 to 0.0 and every NaN
   * to the canonical quiet NaN (so NaNs are equal and greater than +inf).
   */
  static int orderedFloatBits(float value) {
    // floatToIntBits collapses all NaNs into 0x7fc00000; -0.0f == 0.0f is true
    int bits = Float.floatToIntBits(value == 0f ? 0f : value);
    return bits ^ ((bits >> 31) & 0x7FFFFFFF);
  }

  static float floatFromOrderedBits(int bits) {
    return Float.intBitsToFloat(bits ^ ((bits >> 31) & 0x7FFFFFFF));
  }

  /** As {@link #orderedFloatBits(float)}, for doubles. */
  static long orderedDoubleBits(double value) {
    long bits = Double.doubleToLongBits(value == 0d ? 0d : value);
    return bits ^ ((bits >> 63) & 0x7FFFFFFFFFFFFFFFL);
  }

  static double doubleFromOrderedBits(long bits) {
    return Double.longBitsToDouble(bits ^ ((bits >> 63) & 0x7FFFFFFFFFFFFFFFL));
  }

  /** Inverts {@code length} bytes in place: how descending columns reverse their order. */
  static void invert(byte[] bytes, int from, int length) {
    int i = from;
    int end = from + length;
    for (; i + 8 <= end; i += 8) {
      LONG_BE.set(bytes, i, ~(long) LONG_BE.get(bytes, i));
    }
    for (; i < end; i++) {
      bytes[i] = (byte) ~bytes[i];
    }
  }
}
