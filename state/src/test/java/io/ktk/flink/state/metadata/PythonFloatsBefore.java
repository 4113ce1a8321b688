package io.ktk.flink.state.metadata;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * {@link PythonFloats} as it was before it took Schubfach's digits (big-decimal search and string
 * concatenation, kept unchanged): the reference that the fast way must match character for character.
 */
final class PythonFloatsBefore {
  private PythonFloatsBefore() {}

  /** {@code repr(d)} as Python prints it. */
  static String repr(double d) {
    if (Double.isNaN(d)) {
      return "nan";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "inf" : "-inf";
    }
    if (d == 0) {
      return Double.doubleToRawLongBits(d) < 0 ? "-0.0" : "0.0";
    }
    BigDecimal shortest = shortestDecimal(Math.abs(d));
    String digits = shortest.unscaledValue().toString();
    int decimalPoint = digits.length() - shortest.scale();
    String body =
        (decimalPoint > 16 || decimalPoint < -3)
            ? scientific(digits, decimalPoint - 1)
            : fixed(digits, decimalPoint);
    return d < 0 ? "-" + body : body;
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

  private static String fixed(String digits, int decimalPoint) {
    if (decimalPoint <= 0) {
      return "0." + "0".repeat(-decimalPoint) + digits;
    }
    if (decimalPoint >= digits.length()) {
      return digits + "0".repeat(decimalPoint - digits.length()) + ".0";
    }
    return digits.substring(0, decimalPoint) + "." + digits.substring(decimalPoint);
  }

  private static String scientific(String digits, int exponent) {
    StringBuilder out = new StringBuilder();
    out.append(digits.charAt(0));
    if (digits.length() > 1) {
      out.append('.').append(digits, 1, digits.length());
    }
    out.append('e').append(exponent < 0 ? '-' : '+');
    int abs = Math.abs(exponent);
    if (abs < 10) {
      out.append('0');
    }
    return out.append(abs).toString();
  }
}
