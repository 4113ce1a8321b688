package io.ktk.flink.cli;

import com.fasterxml.jackson.core.io.NumberOutput;
import io.ktk.flink.state.metadata.PythonFloats;
import java.io.IOException;
import java.io.Writer;
import java.time.LocalDate;
import java.util.Arrays;

/**
 * A growing array of characters that the output writers format values into, digit by digit,
 * without a string per value: integers with Jackson's digit writer, floats with {@link
 * PythonFloats}, times of day by hand. Dates are the exception: {@link LocalDate#toString} writes
 * them (its rules for years beyond four digits stay its own), once per day, kept in a small cache
 * by day, since the rows of an output mostly share few days.
 *
 * <p>Not thread-safe.
 */
final class TextBuffer {
  /** Days whose text is kept: the slot of a day is its number modulo this. */
  private static final int DATE_SLOTS = 1024;
  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  private static final long SECONDS_PER_DAY = 86_400L;

  private char[] chars;
  private int length;
  private final long[] cachedDays = new long[DATE_SLOTS];
  private final String[] cachedDates = new String[DATE_SLOTS];

  TextBuffer(int capacity) {
    chars = new char[Math.max(64, capacity)];
  }

  int length() {
    return length;
  }

  /** Forgets what follows the first {@code length} characters. */
  void setLength(int length) {
    this.length = length;
  }

  /** The characters, valid up to {@link #length()}. */
  char[] chars() {
    return chars;
  }

  /** Makes room for {@code more} characters after the current ones. */
  void reserve(int more) {
    if (length + more > chars.length) {
      chars = Arrays.copyOf(chars, Math.max(chars.length * 2, length + more));
    }
  }

  TextBuffer append(char c) {
    reserve(1);
    chars[length++] = c;
    return this;
  }

  TextBuffer append(String text) {
    int n = text.length();
    reserve(n);
    text.getChars(0, n, chars, length);
    length += n;
    return this;
  }

  TextBuffer append(char[] text) {
    reserve(text.length);
    System.arraycopy(text, 0, chars, length, text.length);
    length += text.length;
    return this;
  }

  void appendLong(long value) {
    reserve(20);
    length = NumberOutput.outputLong(value, chars, length);
  }

  /** The digits of the unsigned 64-bit value that {@code bits} holds. */
  void appendUnsignedLong(long bits) {
    if (bits >= 0) {
      appendLong(bits);
    } else {
      append(Long.toUnsignedString(bits));
    }
  }

  /**
   * A float as {@code ktk read} prints it: Python's {@code repr} for finite values; {@code NaN},
   * {@code Infinity} and {@code -Infinity} as JSON writers commonly spell the others.
   */
  void appendFloat(double value) {
    if (Double.isNaN(value)) {
      append("NaN");
    } else if (Double.isInfinite(value)) {
      append(value > 0 ? "Infinity" : "-Infinity");
    } else {
      reserve(PythonFloats.MAX_CHARS);
      length = PythonFloats.write(value, chars, length);
    }
  }

  /** The ISO-8601 date ({@code 2024-01-02}) of day {@code epochDay} after 1970-01-01. */
  void appendDate(long epochDay) {
    int slot = (int) Math.floorMod(epochDay, (long) DATE_SLOTS);
    String text = cachedDates[slot];
    if (text == null || cachedDays[slot] != epochDay) {
      text = LocalDate.ofEpochDay(epochDay).toString();
      cachedDates[slot] = text;
      cachedDays[slot] = epochDay;
    }
    append(text);
  }

  /**
   * {@code HH:MM:SS}, then {@code .ffffff}, or {@code .fffffffff} when the nanoseconds are not
   * whole microseconds, unless they are zero.
   */
  void appendTimeOfDay(long nanoOfDay) {
    reserve(18);
    int seconds = (int) (nanoOfDay / NANOS_PER_SECOND);
    int nanos = (int) (nanoOfDay % NANOS_PER_SECOND);
    putTwoDigits(seconds / 3600);
    chars[length++] = ':';
    putTwoDigits(seconds / 60 % 60);
    chars[length++] = ':';
    putTwoDigits(seconds % 60);
    if (nanos != 0) {
      chars[length++] = '.';
      if (nanos % 1000 == 0) {
        putDigits(nanos / 1000, 6);
      } else {
        putDigits(nanos, 9);
      }
    }
  }

  /** {@code <date>T<time of day>} of the local date-time {@code epochSecond} seconds and {@code nano} after the epoch. */
  void appendDateTime(long epochSecond, int nano) {
    appendDate(Math.floorDiv(epochSecond, SECONDS_PER_DAY));
    append('T');
    appendTimeOfDay(Math.floorMod(epochSecond, SECONDS_PER_DAY) * NANOS_PER_SECOND + nano);
  }

  /** Writes the characters to {@code out} and empties the buffer. */
  void writeTo(Writer out) throws IOException {
    out.write(chars, 0, length);
    length = 0;
  }

  @Override
  public String toString() {
    return new String(chars, 0, length);
  }

  private void putTwoDigits(int value) {
    chars[length++] = (char) ('0' + value / 10);
    chars[length++] = (char) ('0' + value % 10);
  }

  private void putDigits(int value, int count) {
    for (int i = length + count - 1; i >= length; i--) {
      chars[i] = (char) ('0' + value % 10);
      value /= 10;
    }
    length += count;
  }
}
