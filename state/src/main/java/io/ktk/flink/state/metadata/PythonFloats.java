package io.ktk.flink.state.metadata;

import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Python's {@code repr(float)} (which {@code str(float)} equals): the shortest decimal that reads
 * back as the same double, in fixed notation for {@code 1e-4 <= |x| < 1e16} and in scientific
 * notation otherwise. Examples: {@code 1.5}, {@code 1.0}, {@code 0.0001}, {@code 1e-05},
 * {@code 1e+16}, {@code 1.2345e+20}, {@code -0.0}, {@code nan}, {@code inf}, {@code -inf}.
 *
 * <p>Java 17's {@code Double.toString} is not always the shortest form (JDK-4511638). The digits
 * come from Jackson's port of Schubfach (the algorithm of {@code Double.toString} from Java 19
 * on), which finds the shortest decimal in the rounding interval and, among those, the closest,
 * as Python's dtoa does. One rule of Java 19 differs: where a single digit would do, it picks the
 * closest two-digit decimal ({@code 4.9E-324} where Python prints {@code 5e-324}). That needs an
 * interval wider than a tenth of the value, which only subnormals with few significant bits have,
 * so subnormals take the exact way: for each precision from 1 to 17 the two neighbouring
 * decimals of the exact value are tried, and the closer one that reads back as the double wins.
 * Between 0.001 and 10^7 Java's text is Python's.
 */
public final class PythonFloats {
  /** The most characters {@link #write} writes: {@code -1.2345678901234567e-308}. */
  public static final int MAX_CHARS = 24;

  private PythonFloats() {}

  /** {@code repr(d)} as Python prints it. */
  public static String repr(double d) {
    char[] text = new char[MAX_CHARS];
    return new String(text, 0, write(d, text, 0));
  }

  /**
   * Writes {@code repr(d)} into {@code out} from {@code pos}, which needs {@link #MAX_CHARS} chars
   * of room; returns the position after it.
   */
  public static int write(double d, char[] out, int pos) {
    if (Double.isNaN(d)) {
      return put("nan", out, pos);
    }
    if (Double.isInfinite(d)) {
      return put(d > 0 ? "inf" : "-inf", out, pos);
    }
    if (d == 0) {
      return put(Double.doubleToRawLongBits(d) < 0 ? "-0.0" : "0.0", out, pos);
    }
    if (d < 0) {
      out[pos++] = '-';
    }
    double positive = Math.abs(d);
    return positive < Double.MIN_NORMAL ? writeExact(positive, out, pos) : writeShortest(positive, out, pos);
  }

  /**
   * Takes the digits of Schubfach's text ({@code 1.2345E20}, {@code 0.001}, {@code 123.0}; at
   * most 17 significant digits, so they fit a long) and writes them Python's way.
   */
  private static int writeShortest(double positive, char[] out, int pos) {
    if (positive >= 1e-3 && positive < 1e7) {
      int end = writeFewPlaces(positive, out, pos);
      if (end >= 0) {
        return end;
      }
    }
    String java = DoubleToDecimal.toString(positive);
    if (positive >= 1e-3 && positive < 1e7) {
      // both print these plainly, with ".0" for whole numbers: the texts are the same
      java.getChars(0, java.length(), out, pos);
      return pos + java.length();
    }
    long digits = 0;
    int digitCount = 0;
    int pointPosition = 0; // significant digits before the '.'; negative for zeros after it
    boolean afterPoint = false;
    int exponent = 0;
    int length = java.length();
    for (int i = 0; i < length; i++) {
      char c = java.charAt(i);
      if (c == '.') {
        afterPoint = true;
      } else if (c == 'E') {
        exponent = Integer.parseInt(java, i + 1, length, 10);
        break;
      } else if (digitCount == 0 && c == '0') {
        if (afterPoint) {
          pointPosition--;
        }
      } else {
        digits = digits * 10 + (c - '0');
        digitCount++;
        if (!afterPoint) {
          pointPosition++;
        }
      }
    }
    while (digits % 10 == 0) {
      digits /= 10;
      digitCount--;
    }
    return render(digits, digitCount, pointPosition + exponent, out, pos);
  }

  /**
   * Writes {@code positive} (in [1e-3, 1e7)) when a decimal of at most four places reads back as it,
   * as {@code <digits>.<places>} with at least one place, and returns the position after it; else
   * returns -1. Such a decimal is the shortest: two decimals of at most four places lie at least
   * 1e-4 apart, far more than a double below 1e7 is wide, so no other one (nor one of fewer
   * places) reads back as the same double. The common case of measurements and prices, without
   * Schubfach's string.
   */
  private static int writeFewPlaces(double positive, char[] out, int pos) {
    long units = Math.round(positive * 1e4);
    // both operands exact, the division correctly rounded: the double nearest to units / 10^4
    if (units / 1e4 != positive) {
      return -1;
    }
    int places = 4;
    while (places > 0 && units % 10 == 0) {
      units /= 10;
      places--;
    }
    long scale = places == 0 ? 1 : places == 1 ? 10 : places == 2 ? 100 : places == 3 ? 1000 : 10_000;
    long whole = units / scale;
    long fraction = units % scale;
    pos = putDigits(whole, whole == 0 ? 1 : digitCount(whole), out, pos);
    out[pos++] = '.';
    return places == 0 ? put("0", out, pos) : putDigits(fraction, places, out, pos);
  }

  private static int digitCount(long value) {
    int count = 1;
    while (value >= 10) {
      value /= 10;
      count++;
    }
    return count;
  }

  private static int writeExact(double positive, char[] out, int pos) {
    BigDecimal shortest = shortestDecimal(positive);
    long digits = shortest.unscaledValue().longValueExact();
    int digitCount = Long.toString(digits).length();
    return render(digits, digitCount, digitCount - shortest.scale(), out, pos);
  }

  private static BigDecimal shortestDecimal(double positive) {
    BigDecimal exact = new BigDecimal(positive);
    for (int precision = 1; precision <= 17; precision++) {
      BigDecimal down = exact.round(new MathContext(precision, RoundingMode.FLOOR));
      BigDecimal up = exact.round(new MathContext(precision, RoundingMode.CEILING));
      boolean downOk = down.doubleValue() == positive;
      boolean upOk = up.doubleValue() == positive;
      BigDecimal chosen = null;
      if (downOk && upOk) {
        int cmp = exact.subtract(down).compareTo(up.subtract(exact));
        chosen = cmp < 0 ? down : cmp > 0 ? up : exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
      } else if (downOk) {
        chosen = down;
      } else if (upOk) {
        chosen = up;
      }
      if (chosen != null) {
        return chosen.stripTrailingZeros();
      }
    }
    throw new IllegalStateException("No 17-digit decimal reads back as " + positive);
  }

  /**
   * Writes {@code 0.<digits> * 10^decimalPoint} ({@code digits} without trailing zeros): fixed for
   * {@code -3 <= decimalPoint <= 16}, else scientific with a signed exponent of two digits or more.
   */
  private static int render(long digits, int digitCount, int decimalPoint, char[] out, int pos) {
    int first = pos;
    if (decimalPoint > 16 || decimalPoint < -3) {
      // d.ddde+XX: write the digits one place to the right, then move the first before the '.'
      pos = putDigits(digits, digitCount, out, pos + 1);
      out[first] = out[first + 1];
      if (digitCount > 1) {
        out[first + 1] = '.';
      } else {
        pos--;
      }
      int exponent = decimalPoint - 1;
      out[pos++] = 'e';
      out[pos++] = exponent < 0 ? '-' : '+';
      int abs = Math.abs(exponent);
      if (abs >= 100) {
        out[pos++] = (char) ('0' + abs / 100);
      }
      out[pos++] = (char) ('0' + abs / 10 % 10);
      out[pos++] = (char) ('0' + abs % 10);
      return pos;
    }
    if (decimalPoint <= 0) {
      out[pos++] = '0';
      out[pos++] = '.';
      for (int i = decimalPoint; i < 0; i++) {
        out[pos++] = '0';
      }
      return putDigits(digits, digitCount, out, pos);
    }
    if (decimalPoint >= digitCount) {
      pos = putDigits(digits, digitCount, out, pos);
      for (int i = digitCount; i < decimalPoint; i++) {
        out[pos++] = '0';
      }
      out[pos++] = '.';
      out[pos++] = '0';
      return pos;
    }
    // ddd.ddd: write the digits one place to the right, then shift the integer part left over the gap
    int end = putDigits(digits, digitCount, out, pos + 1);
    System.arraycopy(out, pos + 1, out, pos, decimalPoint);
    out[pos + decimalPoint] = '.';
    return end;
  }

  /** Writes the {@code count} decimal digits of {@code digits}; returns the position after them. */
  private static int putDigits(long digits, int count, char[] out, int pos) {
    int end = pos + count;
    int i = end;
    // eight digits at a time in int arithmetic, which is cheaper than long division
    while (i - pos > 8) {
      int low = (int) (digits % 100_000_000);
      digits /= 100_000_000;
      for (int k = 0; k < 8; k++) {
        out[--i] = (char) ('0' + low % 10);
        low /= 10;
      }
    }
    int rest = (int) digits;
    while (i > pos) {
      out[--i] = (char) ('0' + rest % 10);
      rest /= 10;
    }
    return end;
  }

  private static int put(String text, char[] out, int pos) {
    text.getChars(0, text.length(), out, pos);
    return pos + text.length();
  }
}
