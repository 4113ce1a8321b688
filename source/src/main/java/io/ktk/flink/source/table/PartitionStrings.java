package io.ktk.flink.source.table;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Partition values as the strings Flink's partition pruning reads back into the column's SQL type
 * ({@code SupportsPartitionPushDown#listPartitions}): whole numbers in decimal ({@code BIGINT}, and
 * {@code DECIMAL(20, 0)} for unsigned), floats as Java prints them ({@code 1.5}, {@code NaN},
 * {@code -Infinity}), text as is, dates {@code 2024-01-31}, timestamps {@code 2024-01-31
 * 12:00:00.000001}, decimals in plain notation. Other types (binary, time, timestamps with a zone,
 * bool) have no such string form, so tables over cubes partitioned by them are not declared
 * {@code PARTITIONED BY}.
 */
final class PartitionStrings {
  private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSSSSS");

  private PartitionStrings() {}

  /** Whether partition values of {@code type} have a string form Flink reads back. */
  static boolean supports(ArrowType type) {
    return switch (type.getTypeID()) {
      case Int, FloatingPoint, Utf8, LargeUtf8, Date, Decimal -> true;
      case Timestamp -> ((ArrowType.Timestamp) type).getTimezone() == null;
      default -> false;
    };
  }

  /** The string of a typed partition value (by the project's value convention) of {@code type}. */
  static String render(ArrowType type, Object value) {
    if (type instanceof ArrowType.Int integer && !integer.getIsSigned()) {
      return Long.toUnsignedString((Long) value);
    }
    if (value instanceof BigDecimal decimal) {
      return decimal.toPlainString();
    }
    if (value instanceof BigInteger integer) {
      return integer.toString();
    }
    if (value instanceof LocalDate date) {
      return date.toString();
    }
    if (value instanceof LocalDateTime timestamp) {
      return TIMESTAMP.format(timestamp);
    }
    return String.valueOf(value);
  }
}
