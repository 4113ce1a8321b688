package io.ktk.flink.state.metadata;

import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** Arrow types by the names pyarrow prints, so that messages read like what Python users see. */
final class ArrowTypeNames {
  private ArrowTypeNames() {}

  /** The pyarrow name of a type, as messages show it: {@code int64}, {@code timestamp[us, tz=UTC]}. */
  static String name(ArrowType type) {
    if (type instanceof ArrowType.Int i) {
      return (i.getIsSigned() ? "int" : "uint") + i.getBitWidth();
    }
    if (type instanceof ArrowType.FloatingPoint fp) {
      switch (fp.getPrecision()) {
        case HALF:
          return "halffloat";
        case SINGLE:
          return "float";
        default:
          return "double";
      }
    }
    if (type instanceof ArrowType.Utf8) {
      return "string";
    }
    if (type instanceof ArrowType.LargeUtf8) {
      return "large_string";
    }
    if (type instanceof ArrowType.Binary) {
      return "binary";
    }
    if (type instanceof ArrowType.LargeBinary) {
      return "large_binary";
    }
    if (type instanceof ArrowType.FixedSizeBinary f) {
      return "fixed_size_binary[" + f.getByteWidth() + "]";
    }
    if (type instanceof ArrowType.Bool) {
      return "bool";
    }
    if (type instanceof ArrowType.Date d) {
      return d.getUnit() == DateUnit.DAY ? "date32[day]" : "date64[ms]";
    }
    if (type instanceof ArrowType.Timestamp ts) {
      return "timestamp[" + unitName(ts.getUnit()) + (ts.getTimezone() == null ? "" : ", tz=" + ts.getTimezone()) + "]";
    }
    if (type instanceof ArrowType.Time t) {
      return "time" + t.getBitWidth() + "[" + unitName(t.getUnit()) + "]";
    }
    if (type instanceof ArrowType.Decimal d) {
      return "decimal" + d.getBitWidth() + "(" + d.getPrecision() + ", " + d.getScale() + ")";
    }
    return type.toString();
  }

  private static String unitName(TimeUnit unit) {
    switch (unit) {
      case SECOND:
        return "s";
      case MILLISECOND:
        return "ms";
      case MICROSECOND:
        return "us";
      default:
        return "ns";
    }
  }
}
