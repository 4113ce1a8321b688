package io.ktk.flink.source.query;

import static java.util.Objects.requireNonNull;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;

/**
 * A literal of a condition before it is typed by its column. The text form yields numbers, quoted
 * text, hex bytes and keywords exactly as written, so that {@code '2024-01-01'} becomes a date
 * for a date column and stays text for a string column; the Java API yields {@link Value}s. Both
 * are typed when the query is checked against the cube ({@link TypedCondition}), where a literal
 * that does not fit its column fails with a message naming both.
 */
public sealed interface Literal extends Serializable {

  /** The literal as the text form writes it. */
  String text();

  /** A literal for a Java value; {@code null} becomes {@link Null}, which a query refuses when checked. */
  static Literal of(Object value) {
    if (value == null) {
      return Null.INSTANCE;
    }
    if (value instanceof Literal literal) {
      return literal;
    }
    return new Value(value);
  }

  /**
   * A Java value: the project's convention for the column's type ({@code Long}, {@code Double},
   * {@code String}, {@code byte[]}, {@code LocalDate}, ...) or a close Java type ({@code Integer},
   * {@code Float}, {@code BigInteger}, {@code OffsetDateTime}, ...).
   */
  record Value(Object value) implements Literal {
    public Value {
      requireNonNull(value, "value is null (use Literal.of(null) for NULL)");
      if (value instanceof byte[] bytes) {
        value = bytes.clone();
      }
    }

    /** The value (a copy for {@code byte[]}). */
    @Override
    public Object value() {
      return value instanceof byte[] bytes ? bytes.clone() : value;
    }

    @Override
    public String text() {
      return render(value);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Value other && (value instanceof byte[] a && other.value instanceof byte[] b
          ? Arrays.equals(a, b) : value.equals(other.value));
    }

    @Override
    public int hashCode() {
      return value instanceof byte[] bytes ? Arrays.hashCode(bytes) : value.hashCode();
    }

    @Override
    public String toString() {
      return text();
    }
  }

  /** A number as written: {@code 12}, {@code -1.5}, {@code 2e10}. */
  record Number(String text) implements Literal {
    public Number {
      requireNonNull(text, "text is null");
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** Text in quotes: {@code 'abc'}; typed as a string, a date, a timestamp, ... by its column. */
  record Text(String value) implements Literal {
    public Text {
      requireNonNull(value, "value is null");
    }

    @Override
    public String text() {
      return "'" + value.replace("'", "''") + "'";
    }

    @Override
    public String toString() {
      return text();
    }
  }

  /** Bytes in hex: {@code x'0aff'}. */
  record Bytes(byte[] bytes) implements Literal {
    public Bytes {
      bytes = requireNonNull(bytes, "bytes is null").clone();
    }

    @Override
    public byte[] bytes() {
      return bytes.clone();
    }

    @Override
    public String text() {
      return "x'" + HexFormat.of().formatHex(bytes) + "'";
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Bytes other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
      return text();
    }
  }

  /** A keyword literal: {@code true}, {@code false}, {@code nan}, {@code inf}, {@code -inf} (lower case). */
  record Word(String word) implements Literal {
    public Word {
      word = requireNonNull(word, "word is null").toLowerCase(Locale.ROOT);
    }

    @Override
    public String text() {
      return word;
    }

    @Override
    public String toString() {
      return word;
    }
  }

  /** NULL: a comparison with it is unknown and never true, so queries refuse it. */
  enum Null implements Literal {
    INSTANCE;

    @Override
    public String text() {
      return "null";
    }
  }

  /** A Java value as the text form writes it (used by {@link Value#text()}). */
  private static String render(Object value) {
    if (value instanceof String s) {
      return new Text(s).text();
    }
    if (value instanceof byte[] bytes) {
      return new Bytes(bytes).text();
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((java.lang.Number) value).doubleValue();
      if (Double.isNaN(d)) {
        return "nan";
      }
      if (Double.isInfinite(d)) {
        return d > 0 ? "inf" : "-inf";
      }
      return Double.toString(d);
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    if (value instanceof LocalDateTime timestamp) {
      return "'" + timestamp.toLocalDate() + " " + timestamp.toLocalTime() + "'";
    }
    if (value instanceof LocalDate || value instanceof LocalTime || value instanceof Instant
        || value instanceof java.time.temporal.TemporalAccessor) {
      return "'" + value + "'";
    }
    return String.valueOf(value);
  }
}
