package io.ktk.flink.state.types;

import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * The one binary encoding of typed values (the Java values of the project's type convention:
 * {@code Long}, {@code Double}, {@code Boolean}, {@code String}, {@code byte[]}, {@code
 * LocalDate}, {@code LocalDateTime}, {@code Instant}, {@code LocalTime}, {@code BigDecimal} and
 * {@code null}) in checkpointed state: the source's splits and the sink's committables. It works
 * on {@link DataOutput} / {@link DataInput}, so Flink's {@code DataOutputView} and plain data
 * streams both fit. All numbers are big-endian.
 *
 * <p>A value is a tag byte, then its body:
 *
 * <pre>
 * tag  Java value     body                                              example: bytes of the value
 *  0   null           (none)                                            null      -> 00
 *  1   Long           i64                                               7L        -> 01 00 00 00 00 00 00 00 07
 *  2   Double         i64 IEEE 754 bits (raw: NaN payloads are kept)    1.5       -> 02 3f f8 00 00 00 00 00 00
 *  3   String         i32 length, UTF-8 bytes                           "ü"       -> 03 00 00 00 02 c3 bc
 *  4   Boolean        u8 0 or 1                                         true      -> 04 01
 *  5   byte[]         i32 length, bytes                                 {0, -1}   -> 05 00 00 00 02 00 ff
 *  6   LocalDate      i64 epoch day                                     1970-01-02 -> 06 00 00 00 00 00 00 00 01
 *  7   LocalDateTime  i64 epoch second of the wall clock read as UTC, i32 nanosecond
 *  8   Instant        i64 epoch second, i32 nanosecond
 *  9   LocalTime      i64 nanosecond of the day
 * 10   BigDecimal     i32 scale, i32 length, unscaled value as two's-complement bytes
 *                                                                       -1.5      -> 0a 00 00 00 01 00 00 00 01 f1
 * </pre>
 *
 * <p>Unsigned integers are {@code Long}s holding the unsigned bits and encode like signed ones;
 * the column type, not the value, tells them apart. Strings inside the formats that use this codec
 * (dataset ids, labels) are written as the body of tag 3, without the tag ({@link #writeString}).
 *
 * <p>The tags are part of the checkpoint formats of the source's split and of the sink's file
 * batch (version 2 on): they never change. A new type gets a new tag.
 */
public final class TypedValueCodec {
  /** Lengths up to this are read into one array at once; longer ones as they arrive. */
  private static final int CHUNK = 1 << 16;

  private TypedValueCodec() {}

  /**
   * Writes a tagged value.
   *
   * @throws IllegalArgumentException when {@code value} is not of a type of the convention
   */
  public static void write(DataOutput out, Object value) throws IOException {
    if (value == null) {
      out.writeByte(0);
    } else if (value instanceof Long v) {
      out.writeByte(1);
      out.writeLong(v);
    } else if (value instanceof Double v) {
      out.writeByte(2);
      out.writeLong(Double.doubleToRawLongBits(v));
    } else if (value instanceof String v) {
      out.writeByte(3);
      writeString(out, v);
    } else if (value instanceof Boolean v) {
      out.writeByte(4);
      out.writeBoolean(v);
    } else if (value instanceof byte[] v) {
      out.writeByte(5);
      out.writeInt(v.length);
      out.write(v);
    } else if (value instanceof LocalDate v) {
      out.writeByte(6);
      out.writeLong(v.toEpochDay());
    } else if (value instanceof LocalDateTime v) {
      out.writeByte(7);
      out.writeLong(v.toEpochSecond(ZoneOffset.UTC));
      out.writeInt(v.getNano());
    } else if (value instanceof Instant v) {
      out.writeByte(8);
      out.writeLong(v.getEpochSecond());
      out.writeInt(v.getNano());
    } else if (value instanceof LocalTime v) {
      out.writeByte(9);
      out.writeLong(v.toNanoOfDay());
    } else if (value instanceof BigDecimal v) {
      out.writeByte(10);
      out.writeInt(v.scale());
      byte[] unscaled = v.unscaledValue().toByteArray();
      out.writeInt(unscaled.length);
      out.write(unscaled);
    } else {
      throw new IllegalArgumentException("Cannot encode value " + value + " of class " + value.getClass().getName()
          + ": not a typed value (Long, Double, Boolean, String, byte[], LocalDate, LocalDateTime, Instant, "
          + "LocalTime, BigDecimal or null)");
    }
  }

  /**
   * Reads a tagged value.
   *
   * @throws IOException "Unrecognized version or corrupt state" for an unknown tag or a negative
   *     length; {@link java.io.EOFException} when the input ends inside the value
   */
  public static Object read(DataInput in) throws IOException {
    int tag = in.readUnsignedByte();
    return switch (tag) {
      case 0 -> null;
      case 1 -> in.readLong();
      case 2 -> Double.longBitsToDouble(in.readLong());
      case 3 -> readString(in);
      case 4 -> in.readBoolean();
      case 5 -> readBytes(in);
      case 6 -> LocalDate.ofEpochDay(in.readLong());
      case 7 -> LocalDateTime.ofEpochSecond(in.readLong(), in.readInt(), ZoneOffset.UTC);
      case 8 -> Instant.ofEpochSecond(in.readLong(), in.readInt());
      case 9 -> LocalTime.ofNanoOfDay(in.readLong());
      case 10 -> {
        int scale = in.readInt();
        yield new BigDecimal(new BigInteger(readBytes(in)), scale);
      }
      default -> throw new IOException("Unrecognized version or corrupt state: unknown typed value tag " + tag);
    };
  }

  /** Writes a string as the body of tag 3: i32 length, UTF-8 bytes. */
  public static void writeString(DataOutput out, String string) throws IOException {
    byte[] bytes = string.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  /** Reads what {@link #writeString} wrote. */
  public static String readString(DataInput in) throws IOException {
    return new String(readBytes(in), StandardCharsets.UTF_8);
  }

  /**
   * Reads an i32 length and that many bytes. A corrupt length cannot allocate more memory than
   * the input holds: long arrays are read in chunks, so a short input ends in an EOF first.
   */
  private static byte[] readBytes(DataInput in) throws IOException {
    int length = in.readInt();
    if (length < 0) {
      throw new IOException("Unrecognized version or corrupt state: negative length " + length);
    }
    if (length <= CHUNK) {
      byte[] bytes = new byte[length];
      in.readFully(bytes);
      return bytes;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(CHUNK);
    byte[] chunk = new byte[CHUNK];
    for (int left = length; left > 0; left -= CHUNK) {
      int n = Math.min(left, CHUNK);
      in.readFully(chunk, 0, n);
      bytes.write(chunk, 0, n);
    }
    return bytes.toByteArray();
  }
}
