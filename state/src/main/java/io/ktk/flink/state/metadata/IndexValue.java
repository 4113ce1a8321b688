package io.ktk.flink.state.metadata;

import static java.util.Objects.requireNonNull;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * One value of a secondary index column, as the key of the index maps that commits, log entries
 * and dataset states carry (value to the labels of the files holding it). The value is a typed
 * value by the project's convention ({@code Long}, {@code Double}, {@code String}, {@code byte[]},
 * {@code LocalDate}, ...); two index values are equal when their values are, binary values by
 * content (a {@code byte[]} on its own compares by identity, so it cannot key a map).
 *
 * <p>The bytes of a binary value are not copied: neither side changes them once they are an index
 * value.
 *
 * @param value the typed value, never null (key columns hold no nulls)
 */
public record IndexValue(Object value) {
  public IndexValue {
    requireNonNull(value, "value is null");
  }

  /** The index value of a typed value. */
  public static IndexValue of(Object value) {
    return new IndexValue(value);
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof IndexValue other)) {
      return false;
    }
    if (value instanceof byte[] bytes) {
      return other.value instanceof byte[] otherBytes && Arrays.equals(bytes, otherBytes);
    }
    return value.equals(other.value);
  }

  @Override
  public int hashCode() {
    return value instanceof byte[] bytes ? Arrays.hashCode(bytes) : value.hashCode();
  }

  /** The value as text; binary values in hex, e.g. {@code 0x0a1b}. */
  @Override
  public String toString() {
    return value instanceof byte[] bytes ? "0x" + HexFormat.of().formatHex(bytes) : value.toString();
  }
}
