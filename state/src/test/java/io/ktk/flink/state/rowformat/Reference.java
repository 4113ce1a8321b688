package io.ktk.flink.state.rowformat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The meaning of the row format, written over Java values and independent of any byte: how two
 * values of a column compare under its sort options, what a decoded value must equal, and how to
 * print a row when a property fails.
 *
 * <p>Nulls go first or last as asked, whatever the direction. Descending reverses the value
 * order; for nested values it applies inside: struct fields and list elements compare with the
 * column's options, and a descending list sorts after its own extensions.
 */
final class Reference {
  private Reference() {}

  static int compareRows(List<SortField> fields, List<Object> a, List<Object> b) {
    for (int c = 0; c < fields.size(); c++) {
      SortField f = fields.get(c);
      int r = compare(f.field(), f.descending(), f.nullsFirst(), a.get(c), b.get(c));
      if (r != 0) {
        return r;
      }
    }
    return 0;
  }

  static int compare(Field field, boolean descending, boolean nullsFirst, Object a, Object b) {
    if (a == null || b == null) {
      if (a == b) {
        return 0;
      }
      return (a == null) == nullsFirst ? -1 : 1;
    }
    ArrowType type = field.getType();
    switch (type.getTypeID()) {
      case Struct -> {
        List<?> x = (List<?>) a;
        List<?> y = (List<?>) b;
        for (int c = 0; c < x.size(); c++) {
          int r = compare(field.getChildren().get(c), descending, nullsFirst, x.get(c), y.get(c));
          if (r != 0) {
            return r;
          }
        }
        return 0;
      }
      case List -> {
        List<?> x = (List<?>) a;
        List<?> y = (List<?>) b;
        Field element = field.getChildren().get(0);
        for (int k = 0; k < Math.min(x.size(), y.size()); k++) {
          int r = compare(element, descending, nullsFirst, x.get(k), y.get(k));
          if (r != 0) {
            return r;
          }
        }
        int r = Integer.compare(x.size(), y.size());
        return descending ? -r : r;
      }
      default -> {
        int r = compareScalars(type, a, b);
        return descending ? -r : r;
      }
    }
  }

  private static int compareScalars(ArrowType type, Object a, Object b) {
    switch (type.getTypeID()) {
      case Int:
        return ((ArrowType.Int) type).getIsSigned()
            ? Long.compare((Long) a, (Long) b)
            : Long.compareUnsigned((Long) a, (Long) b);
      case FloatingPoint:
        return compareTotal(((Number) a).doubleValue(), ((Number) b).doubleValue());
      case Bool:
        return Boolean.compare((Boolean) a, (Boolean) b);
      case Decimal:
        return ((BigDecimal) a).compareTo((BigDecimal) b);
      case Utf8:
      case LargeUtf8:
        return compareCodePoints((String) a, (String) b);
      case Binary:
      case LargeBinary:
      case FixedSizeBinary:
        return compareBytes((byte[]) a, (byte[]) b);
      case Date:
      case Time:
      case Timestamp:
        return Long.compare((Long) a, (Long) b);
      default:
        throw new IllegalArgumentException("No reference order for " + type);
    }
  }

  /** -0.0 equals 0.0, NaN is greater than everything and equal to NaN. */
  static int compareTotal(double a, double b) {
    boolean aNaN = Double.isNaN(a);
    boolean bNaN = Double.isNaN(b);
    if (aNaN || bNaN) {
      return aNaN == bNaN ? 0 : aNaN ? 1 : -1;
    }
    return a < b ? -1 : a > b ? 1 : 0;
  }

  private static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int x = a.codePointAt(i);
      int y = b.codePointAt(j);
      if (x != y) {
        return Integer.compare(x, y);
      }
      i += Character.charCount(x);
      j += Character.charCount(y);
    }
    return Boolean.compare(i < a.length(), j < b.length());
  }

  private static int compareBytes(byte[] a, byte[] b) {
    for (int k = 0; k < Math.min(a.length, b.length); k++) {
      int x = a[k] & 0xFF;
      int y = b[k] & 0xFF;
      if (x != y) {
        return Integer.compare(x, y);
      }
    }
    return Integer.compare(a.length, b.length);
  }

  /** What decoding returns for a value: -0.0 as 0.0, every NaN as the canonical NaN. */
  static Object canonical(Object value) {
    if (value instanceof Float f) {
      return Float.isNaN(f) ? Float.NaN : f == 0f ? 0f : f;
    }
    if (value instanceof Double d) {
      return Double.isNaN(d) ? Double.NaN : d == 0d ? 0d : d;
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>();
      list.forEach(v -> copy.add(canonical(v)));
      return copy;
    }
    return value;
  }

  /** Exact equality: floats by their bits, arrays by content. */
  static boolean identical(Object a, Object b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a instanceof Float x && b instanceof Float y) {
      return Float.floatToRawIntBits(x) == Float.floatToRawIntBits(y);
    }
    if (a instanceof Double x && b instanceof Double y) {
      return Double.doubleToRawLongBits(x) == Double.doubleToRawLongBits(y);
    }
    if (a instanceof byte[] x && b instanceof byte[] y) {
      return Arrays.equals(x, y);
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int k = 0; k < x.size(); k++) {
        if (!identical(x.get(k), y.get(k))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  static String format(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof byte[] b) {
      return "0x" + abbreviate(HexFormat.of().formatHex(b));
    }
    if (value instanceof String s) {
      StringBuilder out = new StringBuilder("\"");
      s.codePoints().limit(80).forEach(cp -> out.append(
          cp >= 0x20 && cp < 0x7F ? Character.toString(cp) : String.format("\\u{%X}", cp)));
      return out.append(s.length() > 80 ? "...(" + s.length() + " chars)\"" : "\"").toString();
    }
    if (value instanceof Float f) {
      return f + "f(0x" + Integer.toHexString(Float.floatToRawIntBits(f)) + ")";
    }
    if (value instanceof Double d) {
      return d + "(0x" + Long.toHexString(Double.doubleToRawLongBits(d)) + ")";
    }
    if (value instanceof List<?> list) {
      List<String> parts = new ArrayList<>();
      list.forEach(v -> parts.add(format(v)));
      return "[" + String.join(", ", parts) + "]";
    }
    return value.toString();
  }

  private static String abbreviate(String hex) {
    return hex.length() <= 160 ? hex : hex.substring(0, 160) + "...(" + hex.length() / 2 + " bytes)";
  }
}
