package io.ktk.flink.state.commit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.ktk.flink.state.CorruptDatasetException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Typed values (index values) as JSON in log entries and snapshots, by the column's Arrow type.
 * Integers are numbers (unsigned 64-bit values above {@code Long.MAX_VALUE} too), floats are
 * numbers or the strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}, binary is base64,
 * dates, times and timestamps are ISO-8601 strings, decimals are strings.
 */
final class LogValues {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private LogValues() {}

  static JsonNode toJson(ArrowType type, Object value) {
    if (value == null) {
      return NODES.nullNode();
    }
    switch (type.getTypeID()) {
      case Int:
        if (((ArrowType.Int) type).getIsSigned()) {
          return NODES.numberNode((Long) value);
        }
        long bits = (Long) value;
        return bits >= 0
            ? NODES.numberNode(bits)
            : NODES.numberNode(new BigInteger(Long.toUnsignedString(bits)));
      case FloatingPoint:
        double d = (Double) value;
        if (Double.isNaN(d) || Double.isInfinite(d)) {
          return NODES.textNode(Double.toString(d));
        }
        return NODES.numberNode(d);
      case Bool:
        return NODES.booleanNode((Boolean) value);
      case Utf8:
      case LargeUtf8:
        return NODES.textNode((String) value);
      case Binary:
      case LargeBinary:
      case FixedSizeBinary:
        return NODES.textNode(Base64.getEncoder().encodeToString((byte[]) value));
      case Date:
      case Time:
      case Timestamp:
        return NODES.textNode(value.toString());
      case Decimal:
        return NODES.textNode(((BigDecimal) value).toPlainString());
      default:
        throw new IllegalArgumentException("Cannot store a value of type " + type + " in the log");
    }
  }

  static Object fromJson(ArrowType type, JsonNode node, String location) {
    if (node == null || node.isNull()) {
      return null;
    }
    try {
      switch (type.getTypeID()) {
        case Int:
          if (((ArrowType.Int) type).getIsSigned()) {
            requireKind(node.isIntegralNumber() && node.canConvertToLong(), type, node, location);
            return node.longValue();
          }
          requireKind(node.isIntegralNumber(), type, node, location);
          return node.bigIntegerValue().longValue();
        case FloatingPoint:
          if (node.isTextual()) {
            return Double.valueOf(node.textValue());
          }
          requireKind(node.isNumber(), type, node, location);
          return node.doubleValue();
        case Bool:
          requireKind(node.isBoolean(), type, node, location);
          return node.booleanValue();
        case Utf8:
        case LargeUtf8:
          requireKind(node.isTextual(), type, node, location);
          return node.textValue();
        case Binary:
        case LargeBinary:
        case FixedSizeBinary:
          requireKind(node.isTextual(), type, node, location);
          return Base64.getDecoder().decode(node.textValue());
        case Date:
          requireKind(node.isTextual(), type, node, location);
          return LocalDate.parse(node.textValue());
        case Time:
          requireKind(node.isTextual(), type, node, location);
          return LocalTime.parse(node.textValue());
        case Timestamp:
          requireKind(node.isTextual(), type, node, location);
          return ((ArrowType.Timestamp) type).getTimezone() == null
              ? LocalDateTime.parse(node.textValue())
              : Instant.parse(node.textValue());
        case Decimal:
          requireKind(node.isTextual(), type, node, location);
          return new BigDecimal(node.textValue());
        default:
          throw new CorruptDatasetException(
              "Cannot read " + location + ": values of type " + type + " cannot be in the log");
      }
    } catch (NumberFormatException | DateTimeParseException e) {
      throw new CorruptDatasetException(
          "Cannot read " + location + ": " + node + " is not a value of type " + type, e);
    }
  }

  private static void requireKind(boolean ok, ArrowType type, JsonNode node, String location) {
    if (!ok) {
      throw new CorruptDatasetException(
          "Cannot read " + location + ": " + node + " is not a value of type " + type);
    }
  }
}
