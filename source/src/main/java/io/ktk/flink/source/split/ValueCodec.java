package io.ktk.flink.source.split;

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
 * Typed values (partition values, group keys) in split state: a tag byte, then the value.
 *
 * <pre>
 *   0 null
 *   1 Long           8 bytes big-endian
 *   2 Double         8 bytes, the IEEE bits
 *   3 String         int length, UTF-8 bytes
 *   4 Boolean        1 byte
 *   5 byte[]         int length, bytes
 *   6 LocalDate      long epoch day
 *   7 LocalDateTime  long epoch second (as if UTC), int nanosecond
 *   8 Instant        long epoch second, int nanosecond
 *   9 LocalTime      long nanosecond of the day
 *  10 BigDecimal     int scale, int length, unscaled value as two's-complement bytes
 * </pre>
 *
 * <p>Public for the splits of plain datasets ({@code source.dataset}); the tags never change meaning.
 */
public final class ValueCodec {
  private ValueCodec() {}

  public static void write(DataOutput out, Object value) throws IOException {
    if (value == null) {
      out.writeByte(0);
    } else if (value instanceof Long l) {
      out.writeByte(1);
      out.writeLong(l);
    } else if (value instanceof Double d) {
      out.writeByte(2);
      out.writeLong(Double.doubleToRawLongBits(d));
    } else if (value instanceof String s) {
      out.writeByte(3);
      writeString(out, s);
    } else if (value instanceof Boolean b) {
      out.writeByte(4);
      out.writeBoolean(b);
    } else if (value instanceof byte[] bytes) {
      out.writeByte(5);
      out.writeInt(bytes.length);
      out.write(bytes);
    } else if (value instanceof LocalDate date) {
      out.writeByte(6);
      out.writeLong(date.toEpochDay());
    } else if (value instanceof LocalDateTime timestamp) {
      out.writeByte(7);
      out.writeLong(timestamp.toEpochSecond(ZoneOffset.UTC));
      out.writeInt(timestamp.getNano());
    } else if (value instanceof Instant instant) {
      out.writeByte(8);
      out.writeLong(instant.getEpochSecond());
      out.writeInt(instant.getNano());
    } else if (value instanceof LocalTime time) {
      out.writeByte(9);
      out.writeLong(time.toNanoOfDay());
    } else if (value instanceof BigDecimal decimal) {
      out.writeByte(10);
      out.writeInt(decimal.scale());
      byte[] unscaled = decimal.unscaledValue().toByteArray();
      out.writeInt(unscaled.length);
      out.write(unscaled);
    } else {
      throw new IllegalArgumentException("Cannot write value " + value + " of " + value.getClass().getName()
          + " to split state: not a partition or index value type");
    }
  }

  public static Object read(DataInput in) throws IOException {
    int tag = in.readByte();
    return switch (tag) {
      case 0 -> null;
      case 1 -> in.readLong();
      case 2 -> Double.longBitsToDouble(in.readLong());
      case 3 -> readString(in);
      case 4 -> in.readBoolean();
      case 5 -> readBytes(in, in.readInt());
      case 6 -> LocalDate.ofEpochDay(in.readLong());
      case 7 -> LocalDateTime.ofEpochSecond(in.readLong(), in.readInt(), ZoneOffset.UTC);
      case 8 -> Instant.ofEpochSecond(in.readLong(), in.readInt());
      case 9 -> LocalTime.ofNanoOfDay(in.readLong());
      case 10 -> {
        int scale = in.readInt();
        yield new BigDecimal(new BigInteger(readBytes(in, in.readInt())), scale);
      }
      default -> throw new IOException("Unrecognized version or corrupt state: value tag " + tag);
    };
  }

  public static void writeString(DataOutput out, String s) throws IOException {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(bytes.length);
    out.write(bytes);
  }

  public static String readString(DataInput in) throws IOException {
    return new String(readBytes(in, in.readInt()), StandardCharsets.UTF_8);
  }

  private static byte[] readBytes(DataInput in, int length) throws IOException {
    if (length < 0) {
      throw new IOException("Unrecognized version or corrupt state: negative length " + length);
    }
    byte[] bytes = new byte[length];
    in.readFully(bytes);
    return bytes;
  }
}
