package io.ktk.flink.sink.compaction;

import io.ktk.flink.state.rowformat.RowKeyMap;
import io.ktk.flink.state.vector.LongType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The distinct values of one index column in the rows a compaction writes to one file, gathered
 * in the form the copier writes them (longs, doubles, bytes) and turned into the project's typed
 * values ({@code Long}, {@code LocalDate}, {@code String}, {@code byte[]}, ...) at the end, the
 * values a commit's index delta holds. Values of a dictionary-encoded input are offered once per
 * dictionary entry used, not once per row.
 */
final class IndexCollector {
  private final Field field;
  private final LongType longType;
  private long[] longs = new long[64];
  private boolean zero;
  private int longCount;
  private final RowKeyMap bytes = new RowKeyMap();
  private final Set<Object> typed = new LinkedHashSet<>();

  IndexCollector(Field field) {
    this.field = field;
    this.longType = longType(field.getType());
  }

  String column() {
    return field.getName();
  }

  /** A value of an INT64 or INT32 output column (dates, times, timestamps in the output's unit). */
  void addLong(long value) {
    if (value == 0) {
      zero = true;
      return;
    }
    int mask = longs.length - 1;
    int slot = (int) mix(value) & mask;
    while (longs[slot] != 0) {
      if (longs[slot] == value) {
        return;
      }
      slot = (slot + 1) & mask;
    }
    longs[slot] = value;
    if (++longCount * 2 > longs.length) {
      rehash();
    }
  }

  void addDouble(double value) {
    typed.add(value);
  }

  void addBoolean(boolean value) {
    typed.add(value);
  }

  /** A value of a BINARY or FIXED_LEN_BYTE_ARRAY output column. */
  void addBytes(byte[] data, int from, int length) {
    bytes.getOrAdd(data, from, from + length);
  }

  /** A typed value (from the typed copy path); byte arrays by content. */
  void addTyped(Object value) {
    if (value != null) {
      typed.add(value instanceof byte[] array ? ByteBuffer.wrap(array.clone()) : value);
    }
  }

  /** The distinct values, typed; binary values as {@code byte[]}. */
  Set<Object> values() {
    Set<Object> values = new LinkedHashSet<>();
    for (Object value : typed) {
      values.add(value instanceof ByteBuffer buffer ? buffer.array() : value);
    }
    if (zero) {
      values.add(boxLong(0));
    }
    for (long value : longs) {
      if (value != 0) {
        values.add(boxLong(value));
      }
    }
    for (int id = 0; id < bytes.size(); id++) {
      values.add(boxBytes(bytes.key(id).toByteArray()));
    }
    return dedupeArrays(values);
  }

  private Object boxLong(long value) {
    if (longType == null) {
      throw new IllegalStateException("Column '" + field.getName() + "' of type " + field.getType()
          + " was offered a long index value");
    }
    return longType.box(value);
  }

  private Object boxBytes(byte[] key) {
    ArrowType type = field.getType();
    if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8) {
      return new String(key, StandardCharsets.UTF_8);
    }
    if (type instanceof ArrowType.Decimal decimal) {
      return new BigDecimal(new BigInteger(key), decimal.getScale());
    }
    return key;
  }

  /** Byte arrays equal by content count once (the typed path and the bytes path may both offer one). */
  private static Set<Object> dedupeArrays(Set<Object> values) {
    Set<ByteBuffer> seen = new HashSet<>();
    Set<Object> out = new LinkedHashSet<>();
    for (Object value : values) {
      if (value instanceof byte[] array) {
        if (seen.add(ByteBuffer.wrap(array))) {
          out.add(array);
        }
      } else {
        out.add(value);
      }
    }
    return out;
  }

  private void rehash() {
    long[] old = longs;
    longs = new long[old.length * 2];
    longCount = 0;
    for (long value : old) {
      if (value != 0) {
        addLong(value);
      }
    }
  }

  private static long mix(long x) {
    long z = x * 0x9E3779B97F4A7C15L;
    return z ^ (z >>> 29);
  }

  /**
   * How the longs an output column of this type holds box to typed values; null for types that
   * are not written as longs. Times are written in microseconds (nanoseconds for {@code ns}).
   */
  static LongType longType(ArrowType type) {
    if (type instanceof ArrowType.Int integer) {
      return integer.getIsSigned() || integer.getBitWidth() < 64 ? LongType.INTEGER : LongType.UNSIGNED_64;
    }
    if (type instanceof ArrowType.Date) {
      return LongType.DATE; // written as days, whatever the unit
    }
    if (type instanceof ArrowType.Timestamp timestamp) {
      long nanosPerUnit = switch (timestamp.getUnit()) {
        case SECOND, MILLISECOND -> 1_000_000L; // Parquet has no seconds: they are written as milliseconds
        case MICROSECOND -> 1_000L;
        case NANOSECOND -> 1L;
      };
      return LongType.timestamp(nanosPerUnit, timestamp.getTimezone() != null);
    }
    return null; // times among them: they are copied (and indexed) as typed values
  }

  @Override
  public String toString() {
    return "IndexCollector{" + field.getName() + ", longs=" + longCount + ", bytes=" + bytes.size() + ", typed="
        + typed.size() + "}";
  }
}
