package io.ktk.flink.source.rowdata;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Turns typed values (the project's convention: {@code Long}, {@code Double}, {@code String},
 * {@code LocalDate}, {@code LocalDateTime}, {@code Instant}, {@code BigDecimal}, {@code List},
 * {@code Map} for a struct, ...) into Flink's internal data of a column's logical type.
 *
 * <p>Conversions: {@code Long} to the integer types, or for uint64 columns (read as {@code
 * DECIMAL(20, 0)}) its unsigned value; {@code Double} to {@code DOUBLE}/{@code FLOAT}; strings to
 * {@code StringData}; dates to days since the epoch; times to milliseconds of the day; timestamps
 * to {@code TimestampData}; decimals to {@code DecimalData} of the column's precision and scale;
 * lists to {@code GenericArrayData} and structs to {@code GenericRowData}, element by element.
 */
public final class InternalValues {
  private InternalValues() {}

  /** Converts one typed value that is not null. */
  @FunctionalInterface
  public interface Converter extends Serializable {
    Object convert(Object value);
  }

  /** How a typed value of a column of {@code type} becomes Flink's internal value. */
  public static Converter converter(LogicalType type) {
    return switch (type.getTypeRoot()) {
      case TINYINT -> value -> ((Long) value).byteValue();
      case SMALLINT -> value -> ((Long) value).shortValue();
      case INTEGER -> value -> ((Long) value).intValue();
      case FLOAT -> value -> ((Double) value).floatValue();
      case CHAR, VARCHAR -> value -> StringData.fromString((String) value);
      case DATE -> value -> (int) ((LocalDate) value).toEpochDay();
      case TIME_WITHOUT_TIME_ZONE -> value -> (int) (((LocalTime) value).toNanoOfDay() / 1_000_000);
      case TIMESTAMP_WITHOUT_TIME_ZONE -> value -> TimestampData.fromLocalDateTime((LocalDateTime) value);
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> value -> TimestampData.fromInstant((Instant) value);
      case DECIMAL -> {
        int precision = ((DecimalType) type).getPrecision();
        int scale = ((DecimalType) type).getScale();
        // a Long is an unsigned 64-bit integer's bits (uint64 reads as DECIMAL(20, 0))
        yield value -> DecimalData.fromBigDecimal(value instanceof Long bits ? unsigned(bits) : (BigDecimal) value,
            precision, scale);
      }
      case ARRAY -> {
        Converter element = converter(((ArrayType) type).getElementType());
        yield value -> {
          List<?> list = (List<?>) value;
          Object[] elements = new Object[list.size()];
          for (int i = 0; i < elements.length; i++) {
            Object item = list.get(i);
            elements[i] = item == null ? null : element.convert(item);
          }
          return new GenericArrayData(elements);
        };
      }
      case ROW -> {
        List<RowType.RowField> fields = ((RowType) type).getFields();
        String[] names = fields.stream().map(RowType.RowField::getName).toArray(String[]::new);
        Converter[] members = fields.stream().map(field -> converter(field.getType())).toArray(Converter[]::new);
        yield value -> {
          Map<?, ?> struct = (Map<?, ?>) value;
          GenericRowData row = new GenericRowData(names.length);
          for (int i = 0; i < names.length; i++) {
            Object member = struct.get(names[i]);
            row.setField(i, member == null ? null : members[i].convert(member));
          }
          return row;
        };
      }
      default -> value -> value; // BIGINT Long, DOUBLE Double, BOOLEAN Boolean, BINARY/VARBINARY byte[]
    };
  }

  /** The value of an unsigned 64-bit integer held in a long's bits. */
  static BigDecimal unsigned(long bits) {
    return bits >= 0 ? BigDecimal.valueOf(bits) : new BigDecimal(new BigInteger(Long.toUnsignedString(bits)));
  }
}
